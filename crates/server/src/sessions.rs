//! The sessions of the streamable HTTP transport, bounded in number and in
//! idle time: rmcp's in-memory [`LocalSessionManager`] behind a count cap.
//!
//! - **Idle expiry** (`--session-idle-timeout`, default 5 minutes): a
//!   session that has seen no request for this long ends (rmcp's
//!   `SessionConfig::keep_alive`); its client gets `404` and starts a new
//!   one, as the MCP specification says.
//! - **Count cap** (`--max-sessions`, default 1,000): creating a session
//!   past the cap closes the least recently used one first, with a warning
//!   in the log (which names the session by a short digest of its id, never
//!   the id itself: it is as good as a credential within the session).
//!
//! Each session costs about 100 KiB (its worker, channels and the bridge's
//! per-session state), so the defaults bound sessions to about 100 MiB.
//!
//! Other parts of the server ask [`BoundedSessions::is_live`] whether a
//! session id still names a session, and hear of every session's end
//! (closed by its client, expired, evicted) through
//! [`BoundedSessions::on_end`].

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use rmcp::transport::worker::WorkerTransport;

/// Default `--max-sessions`.
pub const DEFAULT_MAX_SESSIONS: usize = 1_000;
/// Default `--session-idle-timeout`: rmcp's own default.
pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(300);

/// The bounds of the HTTP transport's sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionLimits {
    /// Sessions kept at once; creating one more closes the least recently
    /// used.
    pub max_sessions: usize,
    /// How long a session without requests lives.
    pub idle_timeout: Duration,
}

impl Default for SessionLimits {
    fn default() -> Self {
        Self {
            max_sessions: DEFAULT_MAX_SESSIONS,
            idle_timeout: DEFAULT_SESSION_IDLE,
        }
    }
}

/// How a session ended, as told to [`BoundedSessions::on_end`] watchers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionEnd {
    /// Its client deleted it, or it ended on its own (idle expiry, its
    /// handler stopped, the server shutting down).
    Closed,
    /// Closed to make room under `--max-sessions`.
    Evicted,
}

/// Called with the id of every session that ends and how it ended.
pub type EndWatcher = Arc<dyn Fn(&SessionId, SessionEnd) + Send + Sync>;

/// rmcp's [`LocalSessionManager`] with a count cap and idle expiry (see
/// the module documentation).
pub struct BoundedSessions {
    inner: LocalSessionManager,
    limits: SessionLimits,
    book: Mutex<Book>,
    watchers: Mutex<Vec<EndWatcher>>,
}

/// The live sessions in the order of their last use.
#[derive(Default)]
struct Book {
    /// Session → its turn in `by_turn` and when it was last used.
    by_id: HashMap<SessionId, (u64, Instant)>,
    /// Turn of last use → session; the first entry is the least recently used.
    by_turn: BTreeMap<u64, SessionId>,
    next_turn: u64,
}

impl Book {
    fn touch(&mut self, id: &SessionId) {
        let turn = self.next_turn;
        if let Some((old, used)) = self.by_id.get_mut(id) {
            self.by_turn.remove(old);
            *old = turn;
            *used = Instant::now();
            self.by_turn.insert(turn, id.clone());
            self.next_turn += 1;
        }
    }

    fn insert(&mut self, id: SessionId) {
        let turn = self.next_turn;
        self.next_turn += 1;
        self.by_id.insert(id.clone(), (turn, Instant::now()));
        self.by_turn.insert(turn, id);
    }

    /// Forgets `id`; when it was there, how long it had been unused.
    fn remove(&mut self, id: &SessionId) -> Option<Duration> {
        let (turn, used) = self.by_id.remove(id)?;
        self.by_turn.remove(&turn);
        Some(used.elapsed())
    }

    /// The least recently used session other than `keep`.
    fn oldest_but(&self, keep: &SessionId) -> Option<SessionId> {
        self.by_turn.values().find(|id| *id != keep).cloned()
    }
}

/// A short digest of a session id for logs: enough to follow one session
/// through them, useless for joining it.
pub fn session_tag(id: &str) -> String {
    let mut hex = super::seal::sha256_hex(id.as_bytes());
    hex.truncate(12);
    hex
}

impl BoundedSessions {
    /// Sessions within `limits`.
    pub fn new(limits: SessionLimits) -> Self {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(limits.idle_timeout);
        Self {
            inner,
            limits,
            book: Mutex::new(Book::default()),
            watchers: Mutex::new(Vec::new()),
        }
    }

    /// Whether `id` names a live session.
    pub fn is_live(&self, id: &str) -> bool {
        let id: SessionId = Arc::from(id);
        self.book().by_id.contains_key(&id)
    }

    /// Live sessions.
    pub fn len(&self) -> usize {
        self.book().by_id.len()
    }

    /// Whether there is no live session.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `watcher` with every session that ends from now on (after it
    /// is gone: [`Self::is_live`] is false by then).
    pub fn on_end(&self, watcher: impl Fn(&SessionId, SessionEnd) + Send + Sync + 'static) {
        self.watchers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Arc::new(watcher));
    }

    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn touch(&self, id: &SessionId) {
        self.book().touch(id);
    }

    fn ended(&self, id: &SessionId, how: SessionEnd) {
        let watchers = self
            .watchers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        for watcher in watchers {
            watcher(id, how);
        }
    }
}

impl SessionManager for BoundedSessions {
    type Error = LocalSessionManagerError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let (id, transport) = self.inner.create_session().await?;
        let evicted = {
            let mut book = self.book();
            book.insert(id.clone());
            let mut evicted = Vec::new();
            while book.by_id.len() > self.limits.max_sessions.max(1) {
                let Some(oldest) = book.oldest_but(&id) else {
                    break;
                };
                let idle = book.remove(&oldest).unwrap_or_default();
                evicted.push((oldest, idle));
            }
            evicted
        };
        for (old, idle) in evicted {
            tracing::warn!(
                session = %session_tag(&old),
                idle_secs = idle.as_secs(),
                max_sessions = self.limits.max_sessions,
                "session cap reached (--max-sessions): the least recently used session was closed"
            );
            if let Err(e) = self.inner.close_session(&old).await {
                tracing::debug!(session = %session_tag(&old), "closing an evicted session: {e}");
            }
            self.ended(&old, SessionEnd::Evicted);
        }
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        let was = self.book().remove(id);
        let closed = self.inner.close_session(id).await;
        if let Some(idle) = was {
            if idle >= self.limits.idle_timeout {
                tracing::info!(
                    session = %session_tag(id),
                    idle_secs = idle.as_secs(),
                    "session expired after --session-idle-timeout without requests"
                );
            } else {
                tracing::debug!(session = %session_tag(id), "session closed");
            }
            self.ended(id, SessionEnd::Closed);
        }
        closed
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_stream(id, message).await
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.resume(id, last_event_id).await
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        let outcome = self.inner.restore_session(id.clone()).await?;
        if matches!(outcome, RestoreOutcome::Restored(_)) {
            self.book().insert(id);
        }
        Ok(outcome)
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}

#[cfg(test)]
#[path = "sessions_tests.rs"]
mod tests;
