//! What MCP 2026-07-28 asks of every answer, kept in one place: caching
//! hints that say the truth, the server's identity in each result's
//! `_meta`, a `server/discover` whose capabilities are exactly what the
//! handlers honour, and `subscriptions/listen` streams that hear of
//! reloads (the stateless revision's replacement for per-session
//! `list_changed` notifications).
//!
//! Older revisions keep their shapes: rmcp strips `resultType` for them,
//! and the hints and `_meta` stamp are only added when the request
//! negotiated 2026-07-28 or later.

use std::sync::Mutex;

use rmcp::RoleServer;
use rmcp::model::{CacheScope, MetaObject, ProtocolVersion, SubscriptionFilter};
use rmcp::service::{RequestContext, SubscriptionSink};
use serde_json::Value;

use super::Bridge;
use super::modes::ToolsMode;

/// `_meta` key under which a 2026-07-28 result names the server.
pub(super) const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";

/// How long a list or a resource stays fresh when it is the same for
/// every caller: the catalog only changes on a reload, and a reload is
/// announced on `subscriptions/listen` streams, so a few minutes is
/// honest without making a client that does not listen wait long.
pub const DEFAULT_LIST_TTL_MS: u64 = 300_000;

/// True when the request negotiated MCP 2026-07-28 or later (per-request
/// `_meta` version, or the session's negotiated one).
pub(super) fn modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// The caching hints of one result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Hints {
    pub ttl_ms: u64,
    pub scope: CacheScope,
}

/// Live `subscriptions/listen` streams (2026-07-28 clients), told when a
/// reload changes the tools and resources.
#[derive(Default)]
pub(super) struct Listeners {
    sinks: Mutex<Vec<(u64, SubscriptionSink)>>,
    next: Mutex<u64>,
}

impl Listeners {
    /// Registers a stream; the returned id removes it.
    pub(super) fn add(&self, sink: SubscriptionSink) -> u64 {
        let id = {
            let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
            *next += 1;
            *next
        };
        self.sinks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((id, sink));
        id
    }

    /// Forgets a stream that ended.
    pub(super) fn remove(&self, id: u64) {
        self.sinks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|(i, _)| *i != id);
    }

    /// Tells every stream that asked for them that the tool and resource
    /// lists changed; returns how many streams heard of it.
    pub(super) async fn lists_changed(&self) -> usize {
        let sinks: Vec<SubscriptionSink> = self
            .sinks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(_, s)| s.clone())
            .collect();
        let mut told = 0;
        for sink in sinks {
            // The sink drops what its stream's filter did not accept.
            let tools = sink.notify_tool_list_changed().await.is_ok();
            let resources = sink.notify_resource_list_changed().await.is_ok();
            if tools || resources {
                told += 1;
            }
        }
        told
    }
}

/// The notifications this server can deliver on a listen stream: list
/// changes of tools and resources (reloads). No prompts, no per-resource
/// updates (the document's resources change only with the catalog).
pub(super) fn deliverable(requested: &SubscriptionFilter) -> SubscriptionFilter {
    let mut accepted = SubscriptionFilter::new();
    accepted.tools_list_changed = requested.tools_list_changed.filter(|b| *b);
    accepted.resources_list_changed = requested.resources_list_changed.filter(|b| *b);
    accepted
}

impl Bridge {
    /// The hints for `tools/list`: public while the list is the same for
    /// every caller; private when it depends on the session (toolsets
    /// enabled by the session) or on who asks (access-controlled HTTP,
    /// where a shared cache must not hand the list to strangers).
    pub(super) fn list_hints(&self) -> Hints {
        let per_caller = self.inner.listing.mode == ToolsMode::Toolsets || self.access_controlled();
        Hints {
            ttl_ms: self.shared.options.list_ttl_ms,
            scope: if per_caller {
                CacheScope::Private
            } else {
                CacheScope::Public
            },
        }
    }

    /// The hints for the document's resources and `server/discover`: the
    /// same for every caller in every mode (still private behind access
    /// control).
    pub(super) fn resource_hints(&self) -> Hints {
        Hints {
            ttl_ms: self.shared.options.list_ttl_ms,
            scope: if self.access_controlled() {
                CacheScope::Private
            } else {
                CacheScope::Public
            },
        }
    }

    /// Adds `io.modelcontextprotocol/serverInfo` to a result's `_meta`
    /// for 2026-07-28 requests.
    pub(super) fn stamp(
        &self,
        meta: &mut Option<MetaObject>,
        context: &RequestContext<RoleServer>,
    ) {
        if modern(context) {
            meta.get_or_insert_default()
                .0
                .insert(SERVER_INFO_KEY.to_owned(), self.server_info_value());
        }
    }

    /// The server's `Implementation`, as JSON.
    fn server_info_value(&self) -> Value {
        serde_json::to_value(&self.inner.info.server_info).unwrap_or(Value::Null)
    }
}

/// Who is asking, as far as this server can tell: the person a validated
/// OAuth access token names (`iss|sub`), so that their state survives a
/// refreshed token; else a digest of the HTTP `Authorization` header (a
/// static `--auth-token`, or a token without `sub`); empty on stdio and
/// unauthenticated HTTP, where there is one caller, or none told apart.
/// Binds confirmations, tasks and sessions to their caller; a digest, so
/// that nothing derived from it names the person or carries the token.
pub(super) fn caller_digest(context: &RequestContext<RoleServer>) -> String {
    context
        .extensions
        .get::<axum::http::request::Parts>()
        .map(caller_of_parts)
        .unwrap_or_default()
}

/// [`caller_digest`] of an HTTP request's head (also used before rmcp
/// sees the request, where sessions are bound to their caller).
pub(super) fn caller_of_parts(parts: &axum::http::request::Parts) -> String {
    caller_of(&parts.extensions, &parts.headers)
}

/// [`caller_digest`] from a request's extensions (where the validated
/// principal is) and headers.
pub(super) fn caller_of(
    extensions: &axum::http::Extensions,
    headers: &axum::http::HeaderMap,
) -> String {
    if let Some(person) = extensions
        .get::<super::authz::Principal>()
        .and_then(super::run::person_id)
    {
        return super::seal::sha256_hex(format!("principal|{person}").as_bytes());
    }
    headers
        .get(axum::http::header::AUTHORIZATION)
        .map(|v| super::seal::sha256_hex(v.as_bytes()))
        .unwrap_or_default()
}

#[cfg(test)]
#[path = "protocol_tests.rs"]
mod tests;
