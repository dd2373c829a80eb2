//! The server's swappable state: the catalog in use (replaced atomically
//! on reload, while calls already running keep the one they started on),
//! the sessions to tell when it changes (`notifications/tools/list_changed`),
//! and the count of calls in flight that graceful shutdown waits for.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arc_swap::ArcSwap;
use rmcp::RoleServer;
use rmcp::service::Peer;

use super::{Bridge, Inner, ServeError, ServeOptions};
use openapi2mcp_runtime::call::Handlers;
use openapi2mcp_runtime::catalog::LazyCatalog;
use openapi2mcp_runtime::schemas::Schemas;

/// State shared by every clone of a [`Bridge`] (one per session).
pub(super) struct Shared {
    pub(super) current: ArcSwap<Inner>,
    pub(super) options: ServeOptions,
    handlers: Arc<dyn Handlers>,
    peers: Mutex<Vec<Peer<RoleServer>>>,
    /// Seals the `requestState` of confirmations (one key for the life of
    /// the process: reloads keep pending confirmations answerable).
    pub(super) sealer: super::seal::Sealer,
    /// Calls that became tasks (kept across reloads).
    pub(super) tasks: super::tasks::Tasks,
    /// Confirmations already used (a `requestState` answers one call).
    pub(super) used_once: super::once::UsedOnce,
    /// 2026-07-28 `subscriptions/listen` streams.
    pub(super) listeners: super::protocol::Listeners,
    /// Set when the HTTP transport requires a token: lists become
    /// private to their caller as far as caches go.
    access_controlled: AtomicBool,
    /// Set when HTTP runs without sessions (`--stateless`): toolsets are
    /// then chosen per request.
    stateless: AtomicBool,
    in_flight: AtomicUsize,
    /// HTTP requests admitted to the MCP endpoint and not yet answered.
    admitted: AtomicUsize,
    /// Where people log in to the API through this server (HTTP with
    /// `--oauth-issuer` and a token store).
    pub(super) login_pages: std::sync::OnceLock<super::connect::LoginPages>,
    /// Login links handed out in results, awaited by the calls' retries.
    pub(super) pending_logins: super::login_gate::PendingLogins,
    /// The toolsets each HTTP session has enabled, by session id, when
    /// they differ from `--toolset`'s: a session put to sleep (see
    /// [`super::sessions`]) gets them back when it wakes.
    pub(super) session_toolsets: Mutex<HashMap<String, BTreeSet<String>>>,
}

impl Shared {
    pub(super) fn new(
        inner: Arc<Inner>,
        options: ServeOptions,
        handlers: Arc<dyn Handlers>,
        sealer: super::seal::Sealer,
    ) -> Self {
        Self {
            sealer,
            current: ArcSwap::new(inner),
            tasks: super::tasks::Tasks::new(options.tasks.clone()),
            options,
            handlers,
            peers: Mutex::new(Vec::new()),
            listeners: Default::default(),
            used_once: Default::default(),
            access_controlled: AtomicBool::new(false),
            stateless: AtomicBool::new(false),
            in_flight: AtomicUsize::new(0),
            admitted: AtomicUsize::new(0),
            login_pages: std::sync::OnceLock::new(),
            pending_logins: Default::default(),
            session_toolsets: Default::default(),
        }
    }
}

/// Counts an admitted request as in flight until dropped.
pub(super) struct Admitted(Arc<Shared>);

impl Drop for Admitted {
    fn drop(&mut self) {
        self.0.admitted.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Counts a call as in flight until dropped.
pub(super) struct Flight<'a>(&'a AtomicUsize);

impl Drop for Flight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Bridge {
    /// Replaces the catalog (and the schemas behind it) with a new one
    /// built with the options the server started with, then tells every
    /// live session that the tool list changed. Calls already running
    /// finish on the old catalog. On error the old catalog stays.
    /// Returns the number of tools now served.
    pub async fn reload(
        &self,
        catalog: impl Into<LazyCatalog>,
        schemas: Schemas,
    ) -> Result<usize, ServeError> {
        let mut options = self.shared.options.clone();
        options.schemas = schemas;
        self.replace(catalog.into(), options).await
    }

    /// [`Bridge::reload`] for a server of several APIs: the merged
    /// catalog and its APIs (each with its schemas), in tool order.
    pub async fn reload_apis(
        &self,
        catalog: LazyCatalog,
        members: Vec<openapi2mcp_runtime::call::ApiMember>,
    ) -> Result<usize, ServeError> {
        let mut options = self.shared.options.clone();
        options.members = members;
        self.replace(catalog, options).await
    }

    async fn replace(
        &self,
        catalog: LazyCatalog,
        options: super::ServeOptions,
    ) -> Result<usize, ServeError> {
        let handlers = Arc::clone(&self.shared.handlers);
        // Building may mean building every tool (`full` mode): off the
        // async threads.
        let inner =
            tokio::task::spawn_blocking(move || Bridge::build_inner(catalog, options, handlers))
                .await
                .map_err(|e| ServeError::Options(format!("the reload task failed: {e}")))??;
        let count = inner.api.tool_count();
        self.shared.current.store(Arc::new(inner));
        let peers: Vec<Peer<RoleServer>> = {
            let mut list = self.shared.peers.lock().unwrap_or_else(|e| e.into_inner());
            list.retain(|p| !p.is_transport_closed());
            list.clone()
        };
        let mut told = 0;
        for peer in peers {
            if peer.notify_tool_list_changed().await.is_ok() {
                told += 1;
            }
            let _ = peer.notify_resource_list_changed().await;
        }
        let listening = self.shared.listeners.lists_changed().await;
        tracing::info!(
            tools = count,
            sessions = told,
            listen_streams = listening,
            "catalog replaced; sessions and listen streams told the tool list changed"
        );
        Ok(count)
    }

    /// Forgets what the HTTP session `id` had (it ended).
    pub fn forget_session(&self, id: &str) {
        self.shared
            .session_toolsets
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
    }

    /// Remembers a session so it hears of reloads.
    pub(super) fn register_peer(&self, peer: Peer<RoleServer>) {
        let mut list = self.shared.peers.lock().unwrap_or_else(|e| e.into_inner());
        list.retain(|p| !p.is_transport_closed());
        list.push(peer);
    }

    /// Says that every HTTP request must carry a token (bearer token or
    /// OAuth): caching hints turn private.
    pub fn set_access_controlled(&self, on: bool) {
        self.shared.access_controlled.store(on, Ordering::Relaxed);
    }

    /// Says that HTTP serves without sessions (`--stateless`).
    pub fn set_stateless(&self, on: bool) {
        self.shared.stateless.store(on, Ordering::Relaxed);
    }

    /// Whether HTTP serves without sessions.
    pub(super) fn stateless(&self) -> bool {
        self.shared.stateless.load(Ordering::Relaxed)
    }

    /// Whether requests are access-controlled (see
    /// [`Bridge::set_access_controlled`]).
    pub(super) fn access_controlled(&self) -> bool {
        self.shared.access_controlled.load(Ordering::Relaxed)
    }

    /// Marks one call in flight for the life of the guard.
    pub(super) fn flight(&self) -> Flight<'_> {
        self.shared.in_flight.fetch_add(1, Ordering::SeqCst);
        Flight(&self.shared.in_flight)
    }

    /// Marks one HTTP request in flight until the guard is dropped (the
    /// guard can travel with its response body): graceful shutdown then
    /// also waits for requests that arrived but whose call has not begun.
    pub(super) fn admit(&self) -> Admitted {
        self.shared.admitted.fetch_add(1, Ordering::SeqCst);
        Admitted(Arc::clone(&self.shared))
    }

    /// Calls being run now.
    pub fn in_flight(&self) -> usize {
        self.shared.in_flight.load(Ordering::SeqCst)
    }

    /// Waits until no call (and no admitted HTTP request) is in flight or
    /// `deadline` passes; true when every one finished.
    pub async fn drained(&self, deadline: Duration) -> bool {
        let start = Instant::now();
        loop {
            let n = self.in_flight() + self.shared.admitted.load(Ordering::SeqCst);
            if n == 0 {
                return true;
            }
            if start.elapsed() >= deadline {
                tracing::warn!(
                    in_flight = n,
                    "shutdown deadline reached with calls in flight"
                );
                return false;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
