//! What a tool's handler gets and does (`Api::run`'s hook between
//! checking the arguments and sending the request): the admitted [`Call`],
//! the [`Handlers`] trait generated crates implement, the live server's
//! [`SendAsIs`], and [`keep_null`] for typed arguments.

use std::future::Future;
use std::pin::Pin;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{Api, CallReport, ToolId};
use crate::binding::HttpBinding;
use crate::forward::Forwarded;
use crate::lro::LroMode;
use crate::response;

/// One admitted call on its way to the API, handed to the tool's handler.
#[derive(Clone, Copy)]
pub struct Call<'a> {
    api: &'a Api,
    tool: ToolId,
    client: &'a Forwarded,
    mode: LroMode,
}

impl<'a> Call<'a> {
    /// A call of `tool`; `client` as for [`Api::execute`].
    /// A long-running operation is followed to its end
    /// ([`LroMode::Wait`]) unless [`Call::with_lro_mode`] says otherwise.
    pub fn new(api: &'a Api, tool: ToolId, client: &'a Forwarded) -> Self {
        Self {
            api,
            tool,
            client,
            mode: LroMode::Wait,
        }
    }

    /// The same call, with `mode` saying who waits for a long-running
    /// operation (see [`Api::execute_in`]): a server that maps it to a
    /// task asks for [`LroMode::Return`].
    pub fn with_lro_mode(mut self, mode: LroMode) -> Self {
        self.mode = mode;
        self
    }

    /// Who waits for a long-running operation this call starts.
    pub fn lro_mode(&self) -> LroMode {
        self.mode
    }

    /// The tool's name.
    pub fn tool_name(&self) -> &'a str {
        &self.api.tool(self.tool).name
    }

    /// The tool's HTTP binding (method, path, parameters).
    pub fn binding(&self) -> &'a HttpBinding {
        &self.api.tool(self.tool).http
    }

    /// Parses the arguments into the tool's typed struct. They were checked
    /// against the input schema already; a failure here names the field.
    /// (The error is the report a handler returns as it is, on a path
    /// the schema check makes cold: not worth a box in every handler.)
    #[allow(clippy::result_large_err)]
    pub fn parse<T: DeserializeOwned>(&self, args: Map<String, Value>) -> Result<T, CallReport> {
        serde_json::from_value(Value::Object(args))
            .map_err(|e| response::invalid_arguments(&e.to_string()).into())
    }

    /// Sends typed arguments (serialized by their serde names) to the API.
    pub async fn send<T: Serialize>(&self, args: &T) -> CallReport {
        match serde_json::to_value(args) {
            Ok(Value::Object(map)) => self.send_map(&map).await,
            Ok(_) => response::invalid_arguments("the arguments must be a JSON object").into(),
            Err(e) => response::invalid_arguments(&e.to_string()).into(),
        }
    }

    /// Sends arguments as given to the API (following a long-running
    /// operation as [`Call::lro_mode`] says).
    pub async fn send_map(&self, args: &Map<String, Value>) -> CallReport {
        self.api
            .execute_in(self.tool, args, self.client, self.mode)
            .await
    }
}

/// A boxed future, as [`Handlers::handle`] returns.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Runs an admitted call: the hook between checking the arguments and
/// sending the request.
pub trait Handlers: Send + Sync + 'static {
    /// Handles one call of `call.tool_name()` with `args`.
    fn handle<'a>(&'a self, call: Call<'a>, args: Map<String, Value>) -> BoxFuture<'a, CallReport>;
}

/// Sends every call's arguments to the API unchanged (the live server).
#[derive(Debug, Clone, Copy, Default)]
pub struct SendAsIs;

impl Handlers for SendAsIs {
    fn handle<'a>(&'a self, call: Call<'a>, args: Map<String, Value>) -> BoxFuture<'a, CallReport> {
        Box::pin(async move { call.send_map(&args).await })
    }
}

/// Deserializes an optional argument that may be `null`: absent stays
/// `None`, an explicit `null` becomes `Some(Value::Null)` and is sent on as
/// given. For `#[serde(default, deserialize_with = "keep_null")]`.
pub fn keep_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    use serde::Deserialize as _;
    Value::deserialize(d).map(Some)
}
