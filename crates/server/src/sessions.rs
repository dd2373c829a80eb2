//! The sessions of the streamable HTTP transport, bounded in number and in
//! idle time, and put to sleep while idle: rmcp's in-memory
//! [`LocalSessionManager`] behind a count cap and a book of every session.
//!
//! - **Idle expiry** (`--session-idle-timeout`, default 5 minutes): a
//!   session that has seen no request for this long ends (rmcp's
//!   `SessionConfig::keep_alive` while it is awake, the sweeper below
//!   while it sleeps); its client gets `404` and starts a new one, as the
//!   MCP specification says.
//! - **Count cap** (`--max-sessions`, default 1,000): creating a session
//!   past the cap closes the least recently used one first, with a warning
//!   in the log (which names the session by a short digest of its id, never
//!   the id itself: it is as good as a credential within the session).
//! - **Sleep** (`--session-sleep-after`, default 30 s): an awake session
//!   costs about 100 KiB, nearly all of it rmcp's worker, its channels
//!   (each allocates room for 32 messages of several hundred bytes up
//!   front) and the task serving it. A session with no stream open, no
//!   request unanswered and no request for this long is put to sleep: its
//!   worker is closed and only its book entry stays (the client's
//!   `initialize` parameters as JSON, a few hundred bytes). The next request
//!   wakes it through rmcp's own session restore ([`SessionStates`] is the
//!   `SessionStore` rmcp consults for a session it has no worker for): a
//!   new worker replays the `initialize` handshake, and the request is
//!   served as if the session had never slept. What a sleeping session
//!   loses: SSE events kept for a `Last-Event-ID` resume of its finished
//!   streams (rmcp keeps them 60 s; a session falls asleep 30 s after its
//!   last stream closed by default, so a resume 30–60 s after that finds
//!   them gone) and notifications sent while no stream was open (which
//!   reached no client anyway). The bridge keeps
//!   its own per-session state (enabled toolsets) across a sleep
//!   ([`super::Bridge`]'s `initialize`). A session whose stream closed
//!   before its request was answered stays awake until it expires: its
//!   answer may still be wanted through a resume.
//!
//! Other parts of the server ask [`BoundedSessions::is_live`] whether a
//! session id still names a session (asleep or awake), and hear of every
//! session's end (closed by its client, expired, evicted) through
//! [`BoundedSessions::on_end`]; a session falling asleep or waking is not
//! an end.

use std::collections::{BTreeMap, HashMap};
use std::pin::Pin;
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, JsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager, SessionState,
    SessionStore, SessionStoreError,
};
use rmcp::transport::worker::WorkerTransport;
use tokio::sync::Notify;

/// Default `--max-sessions`.
pub const DEFAULT_MAX_SESSIONS: usize = 1_000;
/// Default `--session-idle-timeout`: rmcp's own default.
pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(300);
/// Default `--session-sleep-after`.
pub const DEFAULT_SESSION_SLEEP: Duration = Duration::from_secs(30);
/// How long a session is waited for to finish falling asleep before a
/// request for it is served (its worker's end is told within
/// milliseconds; this bounds a worker that never tells).
const FALLING_ASLEEP_WAIT: Duration = Duration::from_secs(5);

/// The bounds of the HTTP transport's sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionLimits {
    /// Sessions kept at once, asleep or awake; creating one more closes the
    /// least recently used.
    pub max_sessions: usize,
    /// How long a session without requests lives.
    pub idle_timeout: Duration,
    /// How long a session without requests or open streams stays awake
    /// (`None`: always, until it expires). Only shorter than
    /// `idle_timeout` means anything.
    pub sleep_after: Option<Duration>,
}

impl Default for SessionLimits {
    fn default() -> Self {
        Self {
            max_sessions: DEFAULT_MAX_SESSIONS,
            idle_timeout: DEFAULT_SESSION_IDLE,
            sleep_after: Some(DEFAULT_SESSION_SLEEP),
        }
    }
}

impl SessionLimits {
    /// The sleep delay in force: `sleep_after` when sessions can sleep
    /// before they expire.
    fn sleep_delay(&self) -> Option<Duration> {
        self.sleep_after.filter(|d| *d < self.idle_timeout)
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

/// rmcp's [`LocalSessionManager`] with a count cap, idle expiry and sleep
/// (see the module documentation). Cheap to share: the state is behind an
/// `Arc` the sweeper holds weakly.
pub struct BoundedSessions {
    state: Arc<State>,
}

struct State {
    inner: LocalSessionManager,
    limits: SessionLimits,
    book: Mutex<Book>,
    watchers: Mutex<Vec<EndWatcher>>,
    /// Whether the sweeper task runs (started by the first session).
    sweeping: std::sync::atomic::AtomicBool,
}

/// Where a session is.
enum Phase {
    /// It has an rmcp worker.
    Awake,
    /// Its worker was told to close; the worker's end (rmcp's
    /// `close_session` call) makes it [`Phase::Asleep`], and wakes
    /// whoever waits.
    FallingAsleep { since: Instant, done: Arc<Notify> },
    /// No worker; the next request restores one.
    Asleep,
}

/// One session in the book.
struct Entry {
    /// Its turn in `by_turn`.
    turn: u64,
    /// When it was last used (a request arrived, or a stream closed).
    used: Instant,
    phase: Phase,
    /// Streams open now (request answers, the GET stream, resumes).
    open: u32,
    /// A request's stream closed before its answer: stays awake.
    pinned: bool,
    /// The client's `initialize` parameters as JSON, once rmcp stored them
    /// (a session is put to sleep only with them).
    init: Option<Box<str>>,
}

/// The live sessions in the order of their last use.
#[derive(Default)]
struct Book {
    /// Session → its entry.
    by_id: HashMap<SessionId, Entry>,
    /// Turn of last use → session; the first entry is the least recently used.
    by_turn: BTreeMap<u64, SessionId>,
    next_turn: u64,
}

impl Book {
    fn touch(&mut self, id: &SessionId) {
        let turn = self.next_turn;
        if let Some(entry) = self.by_id.get_mut(id) {
            self.by_turn.remove(&entry.turn);
            entry.turn = turn;
            entry.used = Instant::now();
            self.by_turn.insert(turn, id.clone());
            self.next_turn += 1;
        }
    }

    fn insert(&mut self, id: SessionId) {
        let turn = self.next_turn;
        self.next_turn += 1;
        self.by_id.insert(
            id.clone(),
            Entry {
                turn,
                used: Instant::now(),
                phase: Phase::Awake,
                open: 0,
                pinned: false,
                init: None,
            },
        );
        self.by_turn.insert(turn, id);
    }

    /// Forgets `id`; when it was there, how long it had been unused.
    fn remove(&mut self, id: &SessionId) -> Option<Duration> {
        let entry = self.by_id.remove(id)?;
        self.by_turn.remove(&entry.turn);
        if let Phase::FallingAsleep { done, .. } = &entry.phase {
            done.notify_waiters();
        }
        Some(entry.used.elapsed())
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
            state: Arc::new(State {
                inner,
                limits,
                book: Mutex::new(Book::default()),
                watchers: Mutex::new(Vec::new()),
                sweeping: std::sync::atomic::AtomicBool::new(false),
            }),
        }
    }

    /// The store rmcp consults for a session it has no worker for (the
    /// asleep ones): give it to `StreamableHttpServerConfig::session_store`.
    /// `None` when sessions never sleep.
    pub fn store(&self) -> Option<Arc<dyn SessionStore>> {
        self.state.limits.sleep_delay()?;
        Some(Arc::new(SessionStates(Arc::clone(&self.state))))
    }

    /// Whether `id` names a live session, asleep or awake.
    pub fn is_live(&self, id: &str) -> bool {
        let id: SessionId = Arc::from(id);
        self.state.book().by_id.contains_key(&id)
    }

    /// Live sessions, asleep or awake.
    pub fn len(&self) -> usize {
        self.state.book().by_id.len()
    }

    /// Sessions asleep now.
    pub fn asleep(&self) -> usize {
        self.state
            .book()
            .by_id
            .values()
            .filter(|e| matches!(e.phase, Phase::Asleep))
            .count()
    }

    /// Whether there is no live session.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `watcher` with every session that ends from now on (after it
    /// is gone: [`Self::is_live`] is false by then).
    pub fn on_end(&self, watcher: impl Fn(&SessionId, SessionEnd) + Send + Sync + 'static) {
        self.state
            .watchers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Arc::new(watcher));
    }

    /// Puts to sleep every session idle for `--session-sleep-after`, and
    /// ends the asleep ones idle for `--session-idle-timeout`. The sweeper
    /// calls it; tests call it directly.
    pub async fn sweep(&self) {
        self.state.sweep().await;
    }

    fn start_sweeper(&self) {
        use std::sync::atomic::Ordering;
        let Some(delay) = self.state.limits.sleep_delay() else {
            return;
        };
        if self.state.sweeping.swap(true, Ordering::AcqRel) {
            return;
        }
        // Often enough that a session sleeps within a quarter of its delay
        // after it, and asleep ones expire as promptly.
        let period = (delay / 4).clamp(Duration::from_millis(250), Duration::from_secs(10));
        let state: Weak<State> = Arc::downgrade(&self.state);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(period);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(state) = state.upgrade() else {
                    return;
                };
                state.sweep().await;
            }
        });
    }

    /// `stream`, counted open in `id`'s entry until dropped; a request's
    /// stream (`request`) dropped before its answer pins the session awake.
    fn watched<S>(&self, id: &SessionId, stream: S, request: bool) -> Watched<S> {
        if let Some(entry) = self.state.book().by_id.get_mut(id) {
            entry.open += 1;
        }
        Watched {
            inner: Box::pin(stream),
            state: Arc::downgrade(&self.state),
            id: id.clone(),
            request,
            answered: false,
        }
    }
}

impl State {
    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|e| e.into_inner())
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

    async fn sweep(&self) {
        let Some(delay) = self.limits.sleep_delay() else {
            return;
        };
        let mut falling = Vec::new();
        let mut expired = Vec::new();
        {
            let mut book = self.book();
            for (id, entry) in book.by_id.iter_mut() {
                let idle = entry.used.elapsed();
                match &entry.phase {
                    Phase::Awake => {
                        if idle >= delay && entry.open == 0 && !entry.pinned && entry.init.is_some()
                        {
                            entry.phase = Phase::FallingAsleep {
                                since: Instant::now(),
                                done: Arc::new(Notify::new()),
                            };
                            falling.push(id.clone());
                        }
                    }
                    Phase::FallingAsleep { since, done } => {
                        // Its worker never told of its end: asleep anyway
                        // (it has no handle in rmcp's map any more).
                        if since.elapsed() >= FALLING_ASLEEP_WAIT {
                            done.notify_waiters();
                            entry.phase = Phase::Asleep;
                        }
                    }
                    Phase::Asleep => {
                        if idle >= self.limits.idle_timeout {
                            expired.push((id.clone(), idle));
                        }
                    }
                }
            }
            for (id, _) in &expired {
                book.remove(id);
            }
        }
        for id in &falling {
            // Removes the worker's handle at once (so rmcp asks the store
            // for the next request) and tells the worker to close; its
            // end comes back through `close_session`.
            if let Err(e) = self.inner.close_session(id).await {
                tracing::debug!(session = %session_tag(id), "putting a session to sleep: {e}");
            }
        }
        if !falling.is_empty() {
            tracing::debug!(sessions = falling.len(), "idle sessions put to sleep");
        }
        for (id, idle) in expired {
            tracing::info!(
                session = %session_tag(&id),
                idle_secs = idle.as_secs(),
                "session expired after --session-idle-timeout without requests"
            );
            self.ended(&id, SessionEnd::Closed);
        }
    }

    /// Ends `id` for good: out of the book, its worker closed, watchers
    /// told (when it was in the book).
    async fn close(&self, id: &SessionId) -> Result<(), LocalSessionManagerError> {
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
}

impl SessionManager for BoundedSessions {
    type Error = LocalSessionManagerError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let (id, transport) = self.state.inner.create_session().await?;
        let evicted = {
            let mut book = self.state.book();
            book.insert(id.clone());
            let mut evicted = Vec::new();
            while book.by_id.len() > self.state.limits.max_sessions.max(1) {
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
                max_sessions = self.state.limits.max_sessions,
                "session cap reached (--max-sessions): the least recently used session was closed"
            );
            if let Err(e) = self.state.inner.close_session(&old).await {
                tracing::debug!(session = %session_tag(&old), "closing an evicted session: {e}");
            }
            self.state.ended(&old, SessionEnd::Evicted);
        }
        self.start_sweeper();
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.state.book().touch(id);
        self.state.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        {
            let mut book = self.state.book();
            match book.by_id.get(id).map(|e| &e.phase) {
                // Used now: the sweeper cannot put it to sleep between this
                // answer and the request it is asked for.
                Some(Phase::Awake) => book.touch(id),
                // rmcp then asks the store, which wakes it.
                Some(Phase::FallingAsleep { .. } | Phase::Asleep) => return Ok(false),
                None => {}
            }
        }
        self.state.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        {
            let mut book = self.state.book();
            if let Some(entry) = book.by_id.get_mut(id)
                && let Phase::FallingAsleep { done, .. } = &entry.phase
            {
                // The end of the worker the sweeper closed: asleep now.
                done.notify_waiters();
                entry.phase = Phase::Asleep;
                return Ok(());
            }
        }
        self.state.close(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.state.book().touch(id);
        let request = matches!(message, JsonRpcMessage::Request(_));
        let stream = self.state.inner.create_stream(id, message).await?;
        Ok(self.watched(id, stream, request))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.state.book().touch(id);
        self.state.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.state.book().touch(id);
        let stream = self.state.inner.create_standalone_stream(id).await?;
        Ok(self.watched(id, stream, false))
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.state.book().touch(id);
        let stream = self.state.inner.resume(id, last_event_id).await?;
        Ok(self.watched(id, stream, false))
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        let asleep = matches!(
            self.state.book().by_id.get(&id).map(|e| &e.phase),
            Some(Phase::Asleep)
        );
        if !asleep {
            // Only this server's own sleeping sessions come back.
            return Ok(RestoreOutcome::NotSupported);
        }
        let outcome = self.state.inner.restore_session(id.clone()).await?;
        if matches!(outcome, RestoreOutcome::Restored(_)) {
            let mut book = self.state.book();
            if let Some(entry) = book.by_id.get_mut(&id) {
                entry.phase = Phase::Awake;
            }
            book.touch(&id);
        }
        Ok(outcome)
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.state.inner.event_store()
    }
}

/// The `initialize` parameters of this server's sessions, kept in their
/// book entries: rmcp stores them after each handshake and loads them to
/// wake an asleep session (see the module documentation).
pub struct SessionStates(Arc<State>);

#[async_trait::async_trait]
impl SessionStore for SessionStates {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let id: SessionId = Arc::from(session_id);
        let deadline = Instant::now() + FALLING_ASLEEP_WAIT;
        loop {
            let wait = {
                let book = self.0.book();
                let Some(entry) = book.by_id.get(&id) else {
                    return Ok(None);
                };
                match &entry.phase {
                    Phase::Asleep => {
                        let Some(init) = &entry.init else {
                            return Ok(None);
                        };
                        return Ok(Some(serde_json::from_str(init)?));
                    }
                    Phase::Awake => return Ok(None),
                    Phase::FallingAsleep { done, .. } => {
                        // Registered before the lock is let go, so the
                        // wake-up cannot be missed.
                        let done = Arc::clone(done);
                        let mut notified = Box::pin(done.notified_owned());
                        notified.as_mut().enable();
                        notified
                    }
                }
            };
            if tokio::time::timeout_at(deadline.into(), wait)
                .await
                .is_err()
            {
                return Err(format!(
                    "session {} did not finish falling asleep in {} s",
                    session_tag(session_id),
                    FALLING_ASLEEP_WAIT.as_secs()
                )
                .into());
            }
        }
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let id: SessionId = Arc::from(session_id);
        let json = serde_json::to_string(state)?;
        if let Some(entry) = self.0.book().by_id.get_mut(&id) {
            entry.init = Some(json.into_boxed_str());
        }
        Ok(())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        // rmcp calls this after a client's DELETE (whose `close_session`
        // may have found the session falling asleep): the end for good.
        let id: SessionId = Arc::from(session_id);
        self.0.close(&id).await?;
        Ok(())
    }
}

/// A session's stream, counted open in its book entry until dropped.
struct Watched<S> {
    inner: Pin<Box<S>>,
    state: Weak<State>,
    id: SessionId,
    /// The answer stream of a client request.
    request: bool,
    /// Its answer (or its end) went through.
    answered: bool,
}

impl<S: Stream<Item = ServerSseMessage>> Stream for Watched<S> {
    type Item = ServerSseMessage;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let next = self.inner.as_mut().poll_next(cx);
        match &next {
            Poll::Ready(None) => self.answered = true,
            Poll::Ready(Some(event)) => {
                if let Some(message) = &event.message
                    && matches!(
                        message.as_ref(),
                        JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_)
                    )
                {
                    self.answered = true;
                }
            }
            Poll::Pending => {}
        }
        next
    }
}

impl<S> Drop for Watched<S> {
    fn drop(&mut self) {
        let Some(state) = self.state.upgrade() else {
            return;
        };
        let mut book = state.book();
        if let Some(entry) = book.by_id.get_mut(&self.id) {
            entry.open = entry.open.saturating_sub(1);
            entry.used = Instant::now();
            if self.request && !self.answered {
                entry.pinned = true;
            }
        }
    }
}

#[cfg(test)]
#[path = "sessions_tests.rs"]
mod tests;
