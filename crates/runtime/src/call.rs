//! One tool call, from the client's arguments to the outcome the model
//! sees: arguments checked against the input schema, the rate limit, the
//! request built and authenticated, sent, the response mapped, and
//! structured content checked against the output schema.
//!
//! The live server and generated crates both call tools through [`Api`],
//! so a call means the same thing in both. Between checking the arguments
//! and sending the request sits a [`Handlers`] hook: the live server sends
//! the arguments as they are ([`SendAsIs`]); a generated crate parses them
//! into a typed struct and hands them to the operation's own function, the
//! place a developer adds custom logic, which sends them on with
//! [`Call::send`].

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use super::auth::fixed::FixedHeaders;
use super::auth::{self, Credentials};
use super::binding::{HttpBinding, SecurityScheme};
use super::forward::Forwarded;
use super::http::HttpOptions;
use super::lro::{self, LroMode, Monitor};
use super::request;
use super::response::{self, Content, HttpResponse, ToolOutcome};
use super::schemas::{SchemaSide, SchemaSource, Schemas, with_closure};
use super::wire::display_url;

pub use super::conform::conform;
pub use members::ApiMember;

#[path = "call_members.rs"]
mod members;

#[path = "call_advice.rs"]
mod advice;
#[path = "call_notes.rs"]
mod notes;

#[path = "call_handler.rs"]
mod handler;
#[path = "call_run.rs"]
mod run;
use advice::{fetch_less_advice, name_fetch_less_arguments};
pub use handler::{BoxFuture, Call, Handlers, SendAsIs, keep_null};
use notes::response_notes;
pub use notes::{RESPONSE_META_KEY, ResponseNotes};
pub use run::{CallRequest, Ran, Verdict};

/// How calls reach the API.
#[derive(Debug, Clone, Default)]
pub struct ApiOptions {
    /// Base URL overriding the document's `servers`.
    pub base_url: Option<String>,
    /// Values for `{variables}` in server URLs.
    pub server_variables: BTreeMap<String, String>,
    /// Timeouts, retries and the response size cap.
    pub http: HttpOptions,
    /// Calls per second and burst size; `None` for no limit.
    pub rate_limit: Option<(f64, u32)>,
    /// Credentials for the API's security schemes (see [`super::auth`]).
    pub credentials: Credentials,
    /// Use the MCP client's own `Authorization` header (when the transport
    /// has one) instead of configured credentials.
    pub forward_authorization: bool,
    /// The MCP client's headers sent on to the API by name
    /// (`--forward-header`; see [`super::forward`]).
    pub forward_headers: Vec<String>,
    /// Where the full schemas behind budgeted tools come from.
    pub schemas: Schemas,
    /// People's tokens from logging in (`login`): OAuth2 schemes with a
    /// login flow use them (see [`super::auth::login`]).
    pub token_store: Option<TokenStoreHandle>,
    /// Headers the operator adds to every request (`--header`).
    pub headers: Arc<FixedHeaders>,
}

/// A shared [`super::auth::store::TokenStore`] (printed by name only).
#[derive(Clone)]
pub struct TokenStoreHandle(pub Arc<dyn super::auth::store::TokenStore>);

impl std::fmt::Debug for TokenStoreHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenStore")
    }
}

/// The HTTP endpoint behind one tool: what [`Api`] needs to call it (its
/// name, how a call becomes a request, and the schemas its arguments and
/// structured result are checked against), and nothing a listing shows.
/// Cut from a [`super::catalog::ToolDef`] when the tool is first called.
#[derive(Debug, Clone)]
pub struct ToolEndpoint {
    /// The tool's name.
    pub name: String,
    /// How a call becomes an HTTP request.
    pub http: HttpBinding,
    /// The input schema arguments are checked against.
    pub input_schema: Arc<Map<String, Value>>,
    /// The advertised output schema, if any.
    pub output_schema: Option<Arc<Map<String, Value>>>,
    /// The full input schema's top level, when the listed one summarizes
    /// it; arguments are checked against the full schema.
    pub input_full: Option<Arc<Map<String, Value>>>,
    /// The full output schema's top level, when the listed one summarizes it.
    pub output_full: Option<Arc<Map<String, Value>>>,
}

/// Identifies a tool of an [`Api`] (its index; cheap to copy).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolId(usize);

impl ToolId {
    /// The tool's position in the list the [`Api`] was made from.
    pub fn index(self) -> usize {
        self.0
    }
}

/// What one call did: the outcome, the HTTP status when a response
/// arrived (for the audit line), and, for a long-running operation sent
/// in [`LroMode::Return`], the monitor that follows it. Not `Clone`: a
/// monitor is one operation's.
#[derive(Debug)]
pub struct CallReport {
    /// What the model gets.
    pub outcome: ToolOutcome,
    /// The API's HTTP status, when a response arrived.
    pub status: Option<u16>,
    /// The long-running operation this call started, still to be followed
    /// (only in [`LroMode::Return`]; [`LroMode::Wait`] follows it to the
    /// end before returning).
    pub pending: Option<Monitor>,
    /// What the response said beside its body (headers shown, the next
    /// page), for the result's `_meta`; `None` when nothing. (Boxed: a
    /// report is returned by value, often as an error.)
    pub response: Option<Box<ResponseNotes>>,
}

/// Why [`Api::admit`] refused a call (the outcome tells the model), kept
/// apart so servers can count rate-limit refusals on their own.
#[derive(Debug)]
pub enum Refused {
    /// The arguments do not fit the tool's input schema.
    Invalid(ToolOutcome),
    /// Over `--rate-limit`.
    RateLimited(ToolOutcome),
}

impl From<Refused> for CallReport {
    fn from(refused: Refused) -> Self {
        match refused {
            Refused::Invalid(o) | Refused::RateLimited(o) => o.into(),
        }
    }
}

impl From<ToolOutcome> for CallReport {
    fn from(outcome: ToolOutcome) -> Self {
        CallReport {
            outcome,
            status: None,
            pending: None,
            response: None,
        }
    }
}

/// Where an [`Api`] gets a tool's [`ToolEndpoint`] the first time the tool
/// is called: the server builds tools on demand (see
/// [`super::catalog::ToolSource`]).
pub trait EndpointSource: Send + Sync {
    /// The endpoint of tool `index`; `Err` says why the tool cannot be
    /// served.
    fn endpoint(&self, index: usize) -> Result<ToolEndpoint, String>;
}

/// Endpoints known up front.
impl EndpointSource for Vec<ToolEndpoint> {
    fn endpoint(&self, index: usize) -> Result<ToolEndpoint, String> {
        self.get(index)
            .cloned()
            .ok_or_else(|| format!("no tool number {index}"))
    }
}

/// Every tool of one API, with the shared HTTP client, credentials and
/// rate limit. `Send + Sync`: share one per server. A tool's endpoint,
/// and its compiled validators, are prepared the first time it is looked up.
pub struct Api {
    slots: Vec<OnceLock<Result<Prepared, String>>>,
    source: Arc<dyn EndpointSource>,
    by_name: HashMap<String, usize>,
    /// The APIs the tools call (one, or several under `serve --config`),
    /// each with its client, credentials, rate limit and options; in tool
    /// order (see [`members`]).
    members: Vec<members::Member>,
}

struct Prepared {
    /// What to tell a model whose result was cut: this operation's own
    /// paging and filter arguments (`None`: the generic advice stands).
    fetch_less: Option<String>,
    endpoint: ToolEndpoint,
    validator: OnceLock<Result<jsonschema::Validator, String>>,
    output_validator: OnceLock<Result<jsonschema::Validator, String>>,
}

/// Why [`Api::find`] found no tool to call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missing {
    /// No tool has that name.
    Unknown,
    /// The tool exists but cannot be served (its definition failed to
    /// build; the text says why).
    Broken(String),
}

impl Api {
    /// [`Api::new`] for endpoints known up front.
    pub fn with_endpoints(
        security_schemes: &BTreeMap<String, SecurityScheme>,
        endpoints: Vec<ToolEndpoint>,
        options: ApiOptions,
    ) -> Result<Self, String> {
        let names = endpoints.iter().map(|e| e.name.clone()).collect();
        Self::new(security_schemes, names, Arc::new(endpoints), options)
    }

    /// Number of tools.
    pub fn tool_count(&self) -> usize {
        self.slots.len()
    }

    /// The position of the tool called `name`, without preparing it.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The tool called `name`, prepared for calls.
    pub fn find(&self, name: &str) -> Result<ToolId, Missing> {
        let index = self.index_of(name).ok_or(Missing::Unknown)?;
        self.prepare(index).map_err(Missing::Broken)
    }

    /// Tool `index`, prepared for calls (its endpoint fetched once).
    pub fn prepare(&self, index: usize) -> Result<ToolId, String> {
        let slot = self
            .slots
            .get(index)
            .ok_or_else(|| format!("no tool number {index}"))?;
        let prepared = slot.get_or_init(|| {
            self.source.endpoint(index).map(|endpoint| Prepared {
                fetch_less: fetch_less_advice(&endpoint.http),
                endpoint,
                validator: OnceLock::new(),
                output_validator: OnceLock::new(),
            })
        });
        match prepared {
            Ok(_) => Ok(ToolId(index)),
            Err(why) => Err(why.clone()),
        }
    }

    /// `tool`, prepared. A [`ToolId`] is only made by [`Api::prepare`]
    /// once the tool is prepared, so it is there.
    fn prepared(&self, tool: ToolId) -> &Prepared {
        match self.slots[tool.0].get() {
            Some(Ok(prepared)) => prepared,
            _ => unreachable!("a ToolId is only made for a prepared tool"),
        }
    }

    /// What the API knows of `tool`.
    pub fn tool(&self, tool: ToolId) -> &ToolEndpoint {
        &self.prepared(tool).endpoint
    }

    /// The tool's full input (or output) schema, self-contained: what the
    /// listed schema summarizes, or the listed schema itself.
    pub fn full_schema(&self, tool: ToolId, output: bool) -> Option<Value> {
        let endpoint = &self.prepared(tool).endpoint;
        let (full, listed, side) = if output {
            (
                &endpoint.output_full,
                endpoint.output_schema.as_ref(),
                SchemaSide::Output,
            )
        } else {
            (
                &endpoint.input_full,
                Some(&endpoint.input_schema),
                SchemaSide::Input,
            )
        };
        match full {
            Some(top) => Some(with_closure(top, side, self.schemas_of(tool))),
            None => listed.map(|m| Value::Object((**m).clone())),
        }
    }

    /// Checks `args` against the tool's input schema, then takes a token
    /// from the rate limit. On refusal, the outcome says what to change.
    pub fn admit(
        &self,
        tool: ToolId,
        args: Map<String, Value>,
    ) -> Result<Map<String, Value>, Refused> {
        let prepared = self.prepared(tool);
        let args = Value::Object(args);
        if let Some(message) = validate(prepared, &args, self.schemas_of(tool)) {
            return Err(Refused::Invalid(response::invalid_arguments(&message)));
        }
        if let Err(wait) = self.member(tool).channel.try_acquire() {
            return Err(Refused::RateLimited(response::rate_limited(
                wait.as_secs_f64(),
            )));
        }
        match args {
            Value::Object(map) => Ok(map),
            _ => Err(Refused::Invalid(response::invalid_arguments(
                "the arguments must be a JSON object",
            ))),
        }
    }

    /// Builds, authenticates and sends the request for `args`, and maps the
    /// response; a long-running operation is followed to its end (see
    /// [`Api::execute_in`]). `client` holds the MCP client's own headers:
    /// its `Authorization`, used instead of configured credentials when
    /// [`ApiOptions::forward_authorization`] is on, and the headers
    /// [`ApiOptions::forward_headers`] names, sent on as they came.
    pub async fn execute(
        &self,
        tool: ToolId,
        args: &Map<String, Value>,
        client: &Forwarded,
    ) -> CallReport {
        self.execute_in(tool, args, client, LroMode::Wait).await
    }

    /// [`Api::execute`], with `mode` saying what happens when the API
    /// answers with a long-running operation (see [`super::lro`]): in
    /// [`LroMode::Wait`] its status is polled until it ends and the report
    /// is its final result; in [`LroMode::Return`] the report is the
    /// initial answer with the operation's [`Monitor`] in
    /// [`CallReport::pending`].
    pub async fn execute_in(
        &self,
        tool: ToolId,
        args: &Map<String, Value>,
        client: &Forwarded,
        mode: LroMode,
    ) -> CallReport {
        if let Some(workflow) = &self.prepared(tool).endpoint.http.workflow {
            return super::workflow::run(self, workflow, args, client).await;
        }
        self.exchange(tool, args, client, mode).await.0
    }

    /// [`Api::execute_in`] for an operation, with the response as it came
    /// (when one came): what an Arazzo step's runtime expressions read
    /// (`$response.body#/id`, `$response.header.Location`).
    pub(super) async fn exchange(
        &self,
        tool: ToolId,
        args: &Map<String, Value>,
        client: &Forwarded,
        mode: LroMode,
    ) -> (CallReport, Option<HttpResponse>) {
        let called = self.prepared(tool);
        let http = &called.endpoint.http;
        let member = self.member(tool);
        let options = &member.options;
        if let Some(clash) = crate::exact::clash() {
            return (response::invalid_arguments(&clash).into(), None);
        }
        let mut draft = match request::draft_at(
            http,
            args,
            &options.server_variables,
            options.base_url.as_deref(),
        ) {
            Ok(p) => p,
            Err(e) => return (response::invalid_arguments(&e.to_string()).into(), None),
        };
        let url_before_auth = draft.url();
        let forwarded = client.allowed(options.forward_authorization, &options.forward_headers);
        // No configured credentials fit: send anyway (documents often declare
        // security on endpoints that also answer anonymously) and explain
        // what to configure if the API refuses.
        let missing_credentials = match member
            .channel
            .authenticate(&http.security, &forwarded, &mut draft)
            .await
        {
            Ok(hint) => hint,
            Err(e) => return (response::not_authenticated(&e.to_string()).into(), None),
        };
        let prepared = draft.finish();
        let request_line = format!("{} {}", prepared.method, display_url(&prepared.url));
        let resp = match member.channel.client.send(&prepared).await {
            Ok(resp) => resp,
            Err(failure) => {
                let mut outcome = response::from_transport_failure(&failure, &request_line);
                mask_sent(&mut outcome, &prepared.credentials);
                return (outcome.into(), None);
            }
        };
        let mut outcome = response::from_response(
            &resp,
            http.output.as_ref(),
            &member.channel.client.options().limits,
            &request_line,
        );
        let (notes, text) = response_notes(called, args, &resp, &prepared);
        mask_sent(&mut outcome, &prepared.credentials);
        if let Some(text) = text {
            // Before the body, which stays the last block (what selectors,
            // code mode and clients reading "the response" take).
            let at = outcome.content.len().saturating_sub(1);
            outcome.content.insert(at, Content::Text(text));
        }
        if let Some(advice) = &called.fetch_less {
            name_fetch_less_arguments(&mut outcome, advice);
        }
        if let (Some(hint), 401 | 403) = (missing_credentials, resp.status) {
            outcome
                .content
                .push(Content::Text(format!("No credentials were sent: {hint}")));
        }
        let mut report = CallReport {
            outcome,
            status: Some(resp.status),
            pending: None,
            response: (!notes.is_empty()).then(|| Box::new(notes)),
        };
        let Some(detected) = lro::detect(
            http.lro.as_ref(),
            resp.status,
            &resp.headers,
            &url_before_auth,
        ) else {
            return (report, Some(resp));
        };
        let http_options = member.channel.client.options();
        let accept = prepared
            .headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("accept"))
            .map(|(_, value)| value.clone());
        let started = lro::start(lro::Start {
            channel: member.channel.clone(),
            binding: http,
            args,
            detected,
            url: url_before_auth,
            method: &prepared.method,
            request_body: prepared.body.as_deref(),
            response: &resp,
            forwarded: &forwarded,
            accept,
            options: http_options.lro,
            limits: http_options.limits,
            allowed_origins: &http_options.redirect_origins,
            base_url: options.base_url.as_deref(),
            server_variables: &options.server_variables,
        });
        match started {
            Err(note) => report.outcome.content.insert(0, Content::Text(note)),
            Ok(monitor) if mode == LroMode::Wait => {
                let mut done = monitor.wait().await;
                mask_sent(&mut done.outcome, &prepared.credentials);
                return (done, Some(resp));
            }
            Ok(monitor) => {
                report.outcome.content.push(Content::Text(format!(
                    "The API accepted the request as a long-running operation (HTTP {}); its status is at {}.",
                    resp.status,
                    monitor.status_url_for_display()
                )));
                report.pending = Some(monitor);
            }
        }
        (report, Some(resp))
    }

    /// What calling `tool` with `args` would send, for a person to
    /// confirm (no credentials: built before authentication). Arguments
    /// the call would refuse are an error: nobody is asked to confirm a
    /// call that cannot be made.
    pub fn preview(
        &self,
        tool: ToolId,
        args: &Map<String, Value>,
    ) -> Result<super::preview::RequestPreview, String> {
        let prepared = self.prepared(tool);
        let schemas = self.schemas_of(tool);
        if let Some(message) = validate(prepared, &Value::Object(args.clone()), schemas) {
            return Err(message);
        }
        let options = &self.member(tool).options;
        super::preview::preview(
            &prepared.endpoint.http,
            args,
            &options.server_variables,
            options.base_url.as_deref(),
        )
    }

    /// Why `args` do not fit `tool`'s input schema (the message a refused
    /// call gets), or `None` when they do: what a confirmation of a call
    /// that sends no request of its own (a workflow's) checks first, as
    /// [`Api::preview`] does for an operation.
    pub fn invalid_args(&self, tool: ToolId, args: &Map<String, Value>) -> Option<String> {
        validate(
            self.prepared(tool),
            &Value::Object(args.clone()),
            self.schemas_of(tool),
        )
    }

    /// Whether `args` are refused by `tool`'s input schema only for
    /// lacking top-level required arguments (or not at all): only then is
    /// it worth asking a person for them; other errors are the model's to
    /// mend.
    pub fn lacks_only_required(&self, tool: ToolId, args: &Map<String, Value>) -> bool {
        let prepared = self.prepared(tool);
        let Some(validator) = input_validator(prepared, self.schemas_of(tool)) else {
            return false;
        };
        let args = Value::Object(args.clone());
        validator.iter_errors(&args).take(64).all(|e| {
            e.instance_path().as_str().is_empty()
                && matches!(
                    e.kind(),
                    jsonschema::error::ValidationErrorKind::Required { .. }
                )
        })
    }

    /// Makes `outcome` valid for `tool` (see [`conform`]): whatever the
    /// API or a handler produced, a tool with an output schema returns
    /// conforming structured content or an error.
    pub fn conform(&self, tool: ToolId, outcome: ToolOutcome) -> ToolOutcome {
        check_structured(self.prepared(tool), outcome)
    }

    /// Scrubs configured secrets from what an API sent back (a 401 page
    /// that echoes the token, a JSON field holding it) or a handler wrote:
    /// the text content and every string of the structured content, keys
    /// included. Structured content that was masked is conformed again
    /// (see [`conform`]): a masked value the output schema refuses (a
    /// secret inside a value with a `pattern`, say) is repaired like any
    /// other unfit value, so masking never turns a success into an error.
    pub fn redact(&self, tool: ToolId, mut outcome: ToolOutcome) -> ToolOutcome {
        let channel = &self.member(tool).channel;
        let mut secrets = channel.auth.secret_values();
        secrets.extend(channel.headers.secret_values().map(str::to_string));
        if mask(&mut outcome, &secrets) {
            return self.conform(tool, outcome);
        }
        outcome
    }
}

/// The shortest credential placed on a request that is masked in what the
/// API sends back (see [`mask_sent`]): a shorter one would mask ordinary
/// words and numbers of the result.
const MIN_MASKED_CREDENTIAL: usize = 8;

/// Masks `secrets` in `outcome`'s text and every string of its structured
/// content (keys included); whether the structured content changed (it
/// must then be conformed again).
fn mask(outcome: &mut ToolOutcome, secrets: &[String]) -> bool {
    if secrets.is_empty() {
        return false;
    }
    for c in &mut outcome.content {
        if let Content::Text(t) = c {
            *t = auth::redact(t, secrets);
        }
    }
    outcome
        .structured
        .as_mut()
        .is_some_and(|structured| auth::redact_json(structured, secrets))
}

/// Masks the credentials one request carried (its
/// [`request::PreparedRequest::credentials`]: a client's forwarded
/// `Authorization`, a person's own login, an access token obtained at run
/// time, as well as configured keys) in what its API sent back, before
/// a handler sees it: [`Api::redact`] knows only the configured secrets,
/// not those that exist per request. Credentials shorter than
/// [`MIN_MASKED_CREDENTIAL`] are left alone.
fn mask_sent(outcome: &mut ToolOutcome, credentials: &[String]) {
    let sent: Vec<String> = credentials
        .iter()
        .filter(|c| c.len() >= MIN_MASKED_CREDENTIAL)
        .cloned()
        .collect();
    mask(outcome, &sent);
}

/// Compiles a schema once, remembering a failure instead of retrying.
fn compiled<'a>(
    cell: &'a OnceLock<Result<jsonschema::Validator, String>>,
    schema: &Map<String, Value>,
    tool: &str,
) -> Option<&'a jsonschema::Validator> {
    compiled_with(cell, tool, || Value::Object(schema.clone()))
}

/// [`compiled`], the schema made only when first needed.
fn compiled_with<'a>(
    cell: &'a OnceLock<Result<jsonschema::Validator, String>>,
    tool: &str,
    schema: impl FnOnce() -> Value,
) -> Option<&'a jsonschema::Validator> {
    let result =
        cell.get_or_init(|| jsonschema::draft202012::new(&schema()).map_err(|e| e.to_string()));
    match result {
        Ok(v) => Some(v),
        Err(e) => {
            tracing::warn!(tool, "schema does not compile, not checked: {e}");
            None
        }
    }
}

/// [`conform`] for one of the API's tools, compiling its output schema on
/// first use.
fn check_structured(prepared: &Prepared, outcome: ToolOutcome) -> ToolOutcome {
    let schema = prepared.endpoint.output_schema.as_deref();
    let validator =
        schema.and_then(|s| compiled(&prepared.output_validator, s, &prepared.endpoint.name));
    conform(&prepared.endpoint.name, schema, validator, outcome)
}

/// The compiled validator of the tool's full input schema (`None` when it
/// cannot be compiled: calls are then not checked).
fn input_validator<'a>(
    prepared: &'a Prepared,
    schemas: &dyn SchemaSource,
) -> Option<&'a jsonschema::Validator> {
    match &prepared.endpoint.input_full {
        Some(top) => compiled_with(&prepared.validator, &prepared.endpoint.name, || {
            with_closure(top, SchemaSide::Input, schemas)
        }),
        None => compiled(
            &prepared.validator,
            &prepared.endpoint.input_schema,
            &prepared.endpoint.name,
        ),
    }
}

/// Checks `args` against the tool's full input schema (not the budgeted
/// one it lists); `Some(message)` naming each bad argument, down to nested
/// fields, when they do not fit.
fn validate(prepared: &Prepared, args: &Value, schemas: &dyn SchemaSource) -> Option<String> {
    let validator = input_validator(prepared, schemas)?;
    if validator.is_valid(args) {
        return None; // the common case, without collecting errors
    }
    let problems: Vec<String> = validator
        .iter_errors(args)
        .take(8)
        .map(|e| {
            let at = e.instance_path().to_string();
            if at.is_empty() {
                e.to_string()
            } else {
                format!(
                    "argument `{}`: {e}",
                    at.trim_start_matches('/').replace('/', ".")
                )
            }
        })
        .collect();
    if problems.is_empty() {
        return None;
    }
    let name = &prepared.endpoint.name;
    let hint = if prepared.endpoint.input_full.is_some() {
        // The listed schema summarizes nested objects: say where the
        // fields the model had to guess are spelled out.
        format!(
            "The inputSchema of `{name}` lists the accepted arguments; its nested objects are summarized there, and the resource {} holds the full schema.",
            super::schemas::tool_schema_uri(name, false)
        )
    } else {
        format!("The inputSchema of `{name}` lists the accepted arguments.")
    };
    Some(format!("{}. {hint}", problems.join("; ")))
}

#[cfg(test)]
#[path = "call_tests.rs"]
mod tests;
