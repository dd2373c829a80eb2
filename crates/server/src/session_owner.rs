//! Each streamable HTTP session belongs to the caller who opened it.
//!
//! rmcp's session manager knows a session by its `Mcp-Session-Id` alone:
//! anyone holding an id (seen in a log, a proxy, a shared screen) could
//! send requests into that session with their own valid token, or end it
//! with a DELETE. Here the caller of the request that opened a session
//! (the person its validated token names, else its `Authorization`
//! digest: [`super::protocol::caller_of`]) is remembered with the id, and
//! a request naming the session from anyone else is answered exactly as
//! for an unknown session (404), so ids cannot be probed either. The same
//! person with a refreshed token keeps their session.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use axum::extract::Request;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The header naming a session (streamable HTTP).
const SESSION_HEADER: &str = "mcp-session-id";

/// The map is pruned of sessions the manager no longer has whenever it
/// reaches this size, or twice its size after the last prune.
const PRUNE_FROM: usize = 256;

/// Whether the session manager still has a session.
pub(super) type Liveness =
    Arc<dyn Fn(String) -> Pin<Box<dyn Future<Output = bool> + Send>> + Send + Sync>;

/// The caller of each open session.
pub(super) struct SessionOwners {
    owners: Mutex<Owners>,
    live: Liveness,
}

#[derive(Default)]
struct Owners {
    /// Session id → its caller's digest.
    by_session: HashMap<String, String>,
    prune_at: usize,
}

impl SessionOwners {
    /// Owners of sessions whose liveness `live` tells (for pruning).
    pub(super) fn new(live: Liveness) -> Self {
        Self {
            owners: Mutex::default(),
            live,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Owners> {
        self.owners.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `caller` opened session `id` (false for an id this server
    /// never handed out, too).
    fn owned_by(&self, id: &str, caller: &str) -> bool {
        self.lock()
            .by_session
            .get(id)
            .is_some_and(|owner| owner == caller)
    }

    /// Remembers that `caller` opened session `id`; prunes ended sessions
    /// as the map grows.
    async fn opened(&self, id: String, caller: String) {
        let ids: Vec<String> = {
            let mut owners = self.lock();
            owners.by_session.insert(id, caller);
            if owners.by_session.len() < owners.prune_at.max(PRUNE_FROM) {
                return;
            }
            // Not pruned again before the map doubles, whatever happens
            // while the liveness checks below run.
            owners.prune_at = owners.by_session.len() * 2;
            owners.by_session.keys().cloned().collect()
        };
        let mut ended = Vec::new();
        for id in ids {
            if !(self.live)(id.clone()).await {
                ended.push(id);
            }
        }
        let mut owners = self.lock();
        for id in &ended {
            owners.by_session.remove(id);
        }
        owners.prune_at = (owners.by_session.len() * 2).max(PRUNE_FROM);
    }

    /// Forgets session `id` (ended: closed, expired or evicted).
    pub(super) fn closed(&self, id: &str) {
        self.lock().by_session.remove(id);
    }
}

/// The middleware in front of rmcp's streamable HTTP service (inside the
/// authorization check, so the validated principal is known): a request
/// naming a session must come from its opener; the opener of a new
/// session is remembered; an ended session is forgotten.
pub(super) async fn bind(owners: Arc<SessionOwners>, req: Request, next: Next) -> Response {
    let caller = super::protocol::caller_of(req.extensions(), req.headers());
    let session = req
        .headers()
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    if let Some(id) = &session
        && !owners.owned_by(id, &caller)
    {
        // rmcp's own answer to an unknown session, word for word.
        return (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response();
    }
    let deleting = req.method() == Method::DELETE;
    let response = next.run(req).await;
    match session {
        None => {
            if let Some(id) = response
                .headers()
                .get(SESSION_HEADER)
                .and_then(|v| v.to_str().ok())
            {
                owners.opened(id.to_owned(), caller).await;
            }
        }
        Some(id) if deleting && response.status().is_success() => {
            owners.closed(&id);
            return ended(response);
        }
        Some(_) => {}
    }
    response
}

/// The answer to a DELETE that ended a session: rmcp answers `202
/// Accepted`, but the session is closed by then, and the official Python
/// SDK logs "Session termination failed: 202" for anything but 200 or
/// 204 at the end of every HTTP session; `204 No Content` says what
/// happened.
fn ended(response: Response) -> Response {
    if response.status() != StatusCode::ACCEPTED {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    parts.status = StatusCode::NO_CONTENT;
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    parts.headers.remove(axum::http::header::CONTENT_TYPE);
    Response::from_parts(parts, axum::body::Body::empty())
}

#[cfg(test)]
#[path = "session_owner_tests.rs"]
mod tests;
