//! Integers beyond 64 bits in the messages clients send, found in the
//! raw text before rmcp parses it (and reads them as `f64`), and handed
//! to the call in the request's extensions so that the API receives the
//! digits the client wrote (see [`openapi2mcp_runtime::exact`]).

use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use openapi2mcp_runtime::exact::{self, ExactIntegers};
use rmcp::RoleServer;
use rmcp::model::{ClientRequest, JsonRpcMessage};
use rmcp::service::{RequestContext, RxJsonRpcMessage};

/// The largest MCP request body read (16 MiB): a call's arguments,
/// uploads as `data:` URIs included, fit many times over; a larger body
/// is refused (413) rather than held in memory.
pub(crate) const MAX_REQUEST_BYTES: usize = 16 << 20;

/// The exact integers of the request a call came in (stdio: the line;
/// HTTP: the body).
pub(super) fn of(context: &RequestContext<RoleServer>) -> Option<Arc<ExactIntegers>> {
    context
        .extensions
        .get::<Arc<ExactIntegers>>()
        .or_else(|| {
            context
                .extensions
                .get::<axum::http::request::Parts>()
                .and_then(|parts| parts.extensions.get::<Arc<ExactIntegers>>())
        })
        .cloned()
}

/// Attaches the exact integers of `line` to the `tools/call` it decoded
/// to (stdio).
pub(super) fn attach(message: &mut RxJsonRpcMessage<RoleServer>, line: &[u8]) {
    if let JsonRpcMessage::Request(request) = message
        && let ClientRequest::CallToolRequest(call) = &mut request.request
        && let Some(found) = exact::scan(line)
    {
        call.extensions.insert(Arc::new(found));
    }
}

/// The HTTP layer: reads a POST's body (at most [`MAX_REQUEST_BYTES`])
/// and attaches the exact integers it holds.
pub(super) async fn layer(req: Request, next: Next) -> Response {
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    let (mut parts, body) = req.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_REQUEST_BYTES).await {
        Ok(bytes) => bytes,
        Err(_) => {
            return (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request body is over {} MiB, or was not received whole\n",
                    MAX_REQUEST_BYTES >> 20
                ),
            )
                .into_response();
        }
    };
    if let Some(found) = exact::scan(&bytes) {
        parts.extensions.insert(Arc::new(found));
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}
