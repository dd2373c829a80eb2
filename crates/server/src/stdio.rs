//! The stdio transport: one MCP session over stdin/stdout (stdout carries
//! only protocol messages), read and written by [`LineTransport`], which
//! frames messages as rmcp does but decodes `tools/call` directly and
//! writes `tools/list` pages from their serialized bytes.

use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::model::{
    CallToolRequest, CallToolRequestMethod, CallToolRequestParams, ClientRequest, JsonRpcMessage,
    JsonRpcResponse, JsonRpcVersion2_0, RequestId, ServerResult,
};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::{
    DEFAULT_MAX_LINE_LENGTH, JsonRpcMessageCodec, JsonRpcMessageCodecError,
};
// rmcp's line codec (tokio-util's `codec` feature, which rmcp's stdio
// transport turns on) decodes every message but `tools/call`.
use tokio_util::bytes::BytesMut;
use tokio_util::codec::Decoder;

use super::modes::{Outbox, splice_tools, tools_of};
use super::{Bridge, ServeError};

/// Serves over stdin/stdout until the client disconnects.
///
/// Tokio's own stdin and stdout run every read and write on its blocking
/// thread pool: two thread hand-offs, each a futex wake-up, per message,
/// which cost more CPU than the rest of a tool call. So when the standard
/// streams are pipes (Python's and Rust's clients) or Unix sockets (Node's
/// `child_process`, so most desktop clients), they are driven by the
/// runtime's I/O reactor instead; anything else (a file, a terminal) falls
/// back to the blocking handles.
pub async fn serve_stdio(bridge: Bridge) -> Result<(), ServeError> {
    #[cfg(unix)]
    if let Some(streams) = stdio_sockets() {
        tracing::debug!("stdio: non-blocking Unix sockets");
        return serve_streams(bridge, streams).await;
    }
    serve_streams(bridge, rmcp::transport::stdio_pipes()).await
}

/// Serves one MCP session over a reader and a writer until it ends.
async fn serve_streams<R, W>(bridge: Bridge, (read, write): (R, W)) -> Result<(), ServeError>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let service = bridge
        .serve(LineTransport::new(read, write))
        .await
        .map_err(|e| ServeError::Transport(e.to_string()))?;
    service
        .waiting()
        .await
        .map_err(|e| ServeError::Transport(e.to_string()))?;
    Ok(())
}

/// One MCP session over a byte stream pair, as rmcp's `AsyncRwTransport`
/// has it (one JSON-RPC message per line, the same line-length cap, the
/// same handling of bad lines), with one difference: a `tools/call`
/// request, the message every call sends, is decoded straight into rmcp's
/// typed request ([`decode_call`]). rmcp decodes every message through
/// serde's buffered untagged and flattened layers, a fifth of the
/// instructions of a small call. Every other line, and any `tools/call`
/// line the direct decoder does not take, goes through rmcp's own decoder.
/// Each message is written as rmcp writes it (serde_json, then `\n`), but
/// serialized into a plain buffer: rmcp's `BytesMut` writer costs a call
/// per JSON token, a seventh of the work for a 24 KB result. A
/// `tools/list` page of `full` mode is written from the bytes serialized
/// at start-up (see [`Outbox`]): 26 MB of Microsoft Graph's tools are not
/// serialized again for every client.
struct LineTransport<R, W> {
    read: R,
    /// Bytes read and not yet handled; lines end at `\n`.
    buf: Vec<u8>,
    /// How much of `buf` holds no newline (searched already).
    scanned: usize,
    /// Dropping the rest of a line over the length cap.
    discarding: bool,
    writer: Arc<tokio::sync::Mutex<Output<W>>>,
    /// Where `tools/list` answers leave their pages' bytes.
    outbox: Outbox,
    /// The "Invalid request" answer to a line that is JSON but no message,
    /// until it is written (kept here so that a cancelled `receive` does
    /// not lose it).
    pending_error: Option<BoxedSend>,
}

type BoxedSend =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), std::io::Error>> + Send>>;

impl<R, W> LineTransport<R, W>
where
    R: tokio::io::AsyncRead + Send + Unpin,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    fn new(read: R, write: W) -> Self {
        let outbox = Outbox::default();
        Self {
            read,
            buf: Vec::new(),
            scanned: 0,
            discarding: false,
            writer: Arc::new(tokio::sync::Mutex::new(Output {
                write: Some(write),
                unsent: Vec::new(),
                outbox: outbox.clone(),
            })),
            outbox,
            pending_error: None,
        }
    }

    /// Reads until `buf` starts with a whole line within the cap and
    /// returns its length, newline included; `None` at the end of the
    /// stream (a last line without newline is dropped, as rmcp does) or on
    /// a read error. Cancel-safe: what was read stays in `buf`.
    async fn next_line(&mut self) -> Option<usize> {
        use tokio::io::AsyncReadExt;
        loop {
            if let Some(i) = self.buf[self.scanned..].iter().position(|b| *b == b'\n') {
                let end = self.scanned + i + 1;
                self.scanned = 0;
                if self.discarding || end > DEFAULT_MAX_LINE_LENGTH {
                    if !self.discarding {
                        oversized_line();
                    }
                    self.discarding = false;
                    self.buf.drain(..end);
                    continue;
                }
                return Some(end);
            }
            if self.buf.len() > DEFAULT_MAX_LINE_LENGTH {
                if !self.discarding {
                    oversized_line();
                }
                self.discarding = true;
                self.buf.clear();
            }
            self.scanned = self.buf.len();
            self.buf.reserve(8192);
            match self.read.read_buf(&mut self.buf).await {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => {
                    tracing::error!("Error reading from stream: {e}");
                    return None;
                }
            }
        }
    }
}

fn oversized_line() {
    tracing::error!(
        max_line_length = DEFAULT_MAX_LINE_LENGTH,
        "Incoming message exceeded the maximum line length, discarding it"
    );
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: tokio::io::AsyncRead + Send + Unpin,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        let output = Arc::clone(&self.writer);
        async move { output.lock().await.write_message(&item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Some(answer) = self.pending_error.as_mut() {
                let sent = answer.as_mut().await;
                self.pending_error = None;
                sent.ok()?;
            }
            let end = self.next_line().await?;
            let line = &self.buf[..end - 1];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let mut decoded = if line.is_empty() {
                Ok(None)
            } else if let Some(call) = decode_call(line) {
                Ok(Some(call))
            } else {
                let mut whole = BytesMut::from(&self.buf[..end]);
                JsonRpcMessageCodec::<RxJsonRpcMessage<RoleServer>>::default().decode(&mut whole)
            };
            if let Ok(Some(message)) = &mut decoded {
                super::wide_integers::attach(message, line);
            }
            self.buf.drain(..end);
            match decoded {
                Ok(Some(mut message)) => {
                    if let JsonRpcMessage::Request(request) = &mut message
                        && let ClientRequest::ListToolsRequest(list) = &mut request.request
                    {
                        list.extensions.insert(self.outbox.clone());
                    }
                    return Some(message);
                }
                Ok(None) => {}
                Err(JsonRpcMessageCodecError::Serde(e)) => match e.classify() {
                    // Not JSON: nothing to answer (as rmcp and the other SDKs do).
                    serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                        tracing::debug!("Ignoring unparsable incoming message: {e}");
                    }
                    serde_json::error::Category::Data | serde_json::error::Category::Io => {
                        tracing::debug!("Protocol error on incoming message: {e}");
                        let answer = TxJsonRpcMessage::<RoleServer>::error(
                            rmcp::ErrorData::invalid_request("Invalid request", None),
                            None,
                        );
                        self.pending_error = Some(Box::pin(self.send(answer)));
                    }
                },
                Err(e) => {
                    tracing::error!("Error reading from stream: {e}");
                    return None;
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.writer.lock().await.write = None;
        Ok(())
    }
}

/// The writing half of a [`LineTransport`], shared by the messages being
/// sent.
struct Output<W> {
    /// `None` once the transport is closed.
    write: Option<W>,
    /// Bytes of earlier messages not written yet, because a send was
    /// dropped halfway: written first, so no line is ever cut.
    unsent: Vec<u8>,
    /// Pages of `tools/list` answers, written from bytes.
    outbox: Outbox,
}

impl<W: tokio::io::AsyncWrite + Unpin> Output<W> {
    /// Writes `message` and a newline, and flushes.
    async fn write_message(
        &mut self,
        message: &TxJsonRpcMessage<RoleServer>,
    ) -> Result<(), std::io::Error> {
        use tokio::io::AsyncWriteExt;
        let Some(write) = self.write.as_mut() else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotConnected,
                "Transport is closed",
            ));
        };
        let start = self.unsent.len();
        if let Err(e) = serde_json::to_writer(&mut self.unsent, message) {
            self.unsent.truncate(start);
            return Err(e.into());
        }
        if let JsonRpcMessage::Response(JsonRpcResponse {
            id,
            result: ServerResult::ListToolsResult(list),
            ..
        }) = message
            && list.tools.is_empty()
            && let Some(page) = self.outbox.take(id)
        {
            match splice_tools(&self.unsent[start..], &page) {
                Some(whole) => {
                    self.unsent.truncate(start);
                    self.unsent.extend_from_slice(&whole);
                }
                None => {
                    // Not rmcp's shape any more: write the tools as values.
                    tracing::warn!(
                        "a tools/list answer is not shaped as expected: tools written as values"
                    );
                    self.unsent.truncate(start);
                    let mut list = list.clone();
                    list.tools = tools_of(&page).map_err(std::io::Error::other)?;
                    let whole = TxJsonRpcMessage::<RoleServer>::response(
                        ServerResult::ListToolsResult(list),
                        id.clone(),
                    );
                    let whole = serde_json::to_vec(&whole)?;
                    self.unsent.extend_from_slice(&whole);
                }
            }
        }
        self.unsent.push(b'\n');
        while !self.unsent.is_empty() {
            let n = write.write(&self.unsent).await?;
            if n == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            self.unsent.drain(..n);
        }
        write.flush().await
    }
}

/// A `tools/call` request decoded directly into the message rmcp's decoder
/// makes of it (its `_meta` moved to the request's extensions, as rmcp
/// does); `None` for any other line, and for one rmcp might read
/// differently (a repeated key, a `result` or `error` key), which then
/// takes rmcp's path.
pub(super) fn decode_call(line: &[u8]) -> Option<RxJsonRpcMessage<RoleServer>> {
    let CallLine { id, mut params } = serde_json::from_slice(line).ok()?;
    let meta = params.meta.take();
    let mut request = CallToolRequest::new(params);
    if let Some(meta) = meta {
        request.extensions.insert(meta);
    }
    Some(RxJsonRpcMessage::<RoleServer>::request(
        ClientRequest::CallToolRequest(request),
        id,
    ))
}

/// The parts of a `tools/call` line (see [`decode_call`]).
struct CallLine {
    id: RequestId,
    params: CallToolRequestParams,
}

impl<'de> serde::Deserialize<'de> for CallLine {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{Error, IgnoredAny, MapAccess, Visitor};

        #[derive(serde::Deserialize)]
        #[serde(field_identifier, rename_all = "lowercase")]
        enum Key {
            Jsonrpc,
            Id,
            Method,
            Params,
            Result,
            Error,
            #[serde(other)]
            Other,
        }

        struct Lines;
        impl<'de> Visitor<'de> for Lines {
            type Value = CallLine;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a tools/call request")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CallLine, A::Error> {
                let (mut version, mut method) = (false, false);
                let (mut id, mut params) = (None, None);
                while let Some(key) = map.next_key::<Key>()? {
                    let repeated = match key {
                        Key::Jsonrpc => {
                            map.next_value::<JsonRpcVersion2_0>()?;
                            std::mem::replace(&mut version, true)
                        }
                        Key::Method => {
                            map.next_value::<CallToolRequestMethod>()?;
                            std::mem::replace(&mut method, true)
                        }
                        Key::Id => id.replace(map.next_value::<RequestId>()?).is_some(),
                        Key::Params => params
                            .replace(map.next_value::<CallToolRequestParams>()?)
                            .is_some(),
                        Key::Result | Key::Error => return Err(A::Error::custom("not a request")),
                        Key::Other => {
                            map.next_value::<IgnoredAny>()?;
                            false
                        }
                    };
                    if repeated {
                        return Err(A::Error::custom("a repeated key"));
                    }
                }
                match (version, method, id, params) {
                    (true, true, Some(id), Some(params)) => Ok(CallLine { id, params }),
                    _ => Err(A::Error::custom("not a whole tools/call request")),
                }
            }
        }

        deserializer.deserialize_map(Lines)
    }
}

/// stdin and stdout as non-blocking Unix stream sockets, when both are
/// Unix sockets. Must run inside the runtime (the sockets join its
/// reactor).
#[cfg(unix)]
fn stdio_sockets() -> Option<(tokio::net::UnixStream, tokio::net::UnixStream)> {
    use std::os::fd::AsFd;
    let input = nonblocking_unix_socket(std::io::stdin().as_fd())?;
    let output = nonblocking_unix_socket(std::io::stdout().as_fd())?;
    Some((input, output))
}

/// A non-blocking copy of `fd` registered with the runtime, if `fd` is a
/// Unix-domain stream socket; `None` for pipes, files, terminals and other
/// sockets. The copy shares the descriptor's open file description, so
/// `fd` itself becomes non-blocking: harmless for stdin and stdout, which
/// nothing else in the server reads or writes (logs go to stderr), and
/// the client's end of the socket pair keeps its own flags.
#[cfg(unix)]
pub(super) fn nonblocking_unix_socket(
    fd: std::os::fd::BorrowedFd<'_>,
) -> Option<tokio::net::UnixStream> {
    use std::os::unix::fs::FileTypeExt;
    let owned = fd.try_clone_to_owned().ok()?;
    let is_socket = std::fs::File::from(owned.try_clone().ok()?)
        .metadata()
        .is_ok_and(|m| m.file_type().is_socket());
    if !is_socket {
        return None;
    }
    let socket = std::os::unix::net::UnixStream::from(owned);
    // Fails for a socket of another family (TCP, say).
    socket.local_addr().ok()?;
    socket.set_nonblocking(true).ok()?;
    tokio::net::UnixStream::from_std(socket).ok()
}
