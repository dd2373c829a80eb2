//! Hot reload for `serve`: the document (and whatever the load pipeline
//! reads with it) is loaded again on SIGHUP, and with `--watch` when its
//! file changes or, for a URL, when polling with `If-None-Match` /
//! `If-Modified-Since` finds a new version. A document that loads replaces
//! the catalog atomically ([`Bridge::reload`]: live sessions are told the
//! tool list changed, calls in flight finish on the old one); one that
//! does not keeps the old catalog serving and the diagnostic is logged.
//!
//! Reloads go through [`crate::pipeline::load_served`] with the options
//! the server started with, so selection flags, budgets and any other
//! pipeline step apply to the new document exactly as to the first.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use crate::mock::MockSlot;
use crate::pipeline::{self, PipelineError, PipelineOptions};
use crate::runtime::catalog::LazyCatalog;
use crate::runtime::http::{BoundedReadError, read_bounded};
use crate::runtime::schemas::Schemas;
use crate::runtime::wire::error_chain;
use crate::server::Bridge;
use crate::server::ops;
use crate::tools::live::LiveSchemas;

/// What a reload did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReloadOutcome {
    /// The new catalog serves this many tools.
    Replaced(usize),
    /// The old catalog stays; the reason (the fatal diagnostic).
    Kept(String),
}

/// Where a reloaded catalog goes: a server's [`Bridge`], or one API of
/// a server of several (`crate::apis`).
pub trait ReloadTarget: Send + Sync {
    /// Serves `catalog` (with `schemas`) in place of the old one; the
    /// number of tools now served, or why the old catalog stays.
    fn replace(
        &self,
        catalog: LazyCatalog,
        schemas: Arc<LiveSchemas>,
    ) -> Pin<Box<dyn Future<Output = Result<usize, String>> + Send + '_>>;
}

impl ReloadTarget for Bridge {
    fn replace(
        &self,
        catalog: LazyCatalog,
        schemas: Arc<LiveSchemas>,
    ) -> Pin<Box<dyn Future<Output = Result<usize, String>> + Send + '_>> {
        Box::pin(async move {
            self.reload(catalog, Schemas(schemas))
                .await
                .map_err(|e| e.to_string())
        })
    }
}

/// Reloads one document into one target; reloads never overlap.
pub struct Reloader {
    location: String,
    /// How logs name the document: `location` without the credentials a
    /// URL may carry.
    shown: String,
    options: PipelineOptions,
    target: Arc<dyn ReloadTarget>,
    /// The in-process mock the tools call (`serve --mock`), rebuilt from
    /// each new document so it answers the routes the new tools call.
    mock: Option<MockSlot>,
    serial: tokio::sync::Mutex<()>,
}

impl Reloader {
    /// A reloader of `location` (path or URL) loaded with `options`.
    pub fn new(location: &str, options: PipelineOptions, bridge: Bridge) -> Arc<Self> {
        Self::with(location, options, Arc::new(bridge), None)
    }

    /// A reloader that also rebuilds the mock in `slot` from every
    /// document it serves (load with `keep_examples` so the mock has the
    /// shared examples).
    pub fn with_mock(
        location: &str,
        options: PipelineOptions,
        bridge: Bridge,
        slot: MockSlot,
    ) -> Arc<Self> {
        Self::with(location, options, Arc::new(bridge), Some(slot))
    }

    /// A reloader of `location` into `target`, rebuilding the mock in
    /// `mock` (if any) from every document it serves.
    pub fn with(
        location: &str,
        options: PipelineOptions,
        target: Arc<dyn ReloadTarget>,
        mock: Option<MockSlot>,
    ) -> Arc<Self> {
        Arc::new(Self {
            location: location.to_string(),
            shown: crate::document::shown_location(location),
            options,
            target,
            mock,
            serial: tokio::sync::Mutex::new(()),
        })
    }

    /// Loads the document again and, when it yields tools, serves them.
    pub async fn reload(&self, why: &str) -> ReloadOutcome {
        let _one_at_a_time = self.serial.lock().await;
        tracing::info!(document = %self.shown, "reloading ({why})");
        let location = self.location.clone();
        let options = self.options.clone();
        // The new mock answers under the path the tools' base URL names,
        // with the same options and the same store (see `rebuild`).
        let current = self.mock.as_ref().map(MockSlot::current);
        let loaded = tokio::task::spawn_blocking(move || {
            pipeline::load_served(&location, &options).map(|served| {
                let mock = current.map(|current| {
                    let document = served.schemas.document();
                    let now = crate::mock::server_prefix(document);
                    if now != current.prefix() {
                        tracing::warn!(
                            "reload: the document's server path is now `{now}`; the mock keeps answering under `{}`, the path the tools call",
                            current.prefix()
                        );
                    }
                    let (mock, _) = current.rebuild(document);
                    Arc::new(mock)
                });
                (served, mock)
            })
        })
        .await;
        let outcome = match loaded {
            Ok(Ok((loaded, mock))) => {
                for d in loaded
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == crate::document::Severity::Error)
                    .take(20)
                {
                    tracing::warn!("reload: {d}");
                }
                match self.target.replace(loaded.catalog, loaded.schemas).await {
                    Ok(n) => {
                        if let (Some(slot), Some(mock)) = (&self.mock, mock) {
                            slot.replace(mock);
                        }
                        ReloadOutcome::Replaced(n)
                    }
                    Err(e) => ReloadOutcome::Kept(e),
                }
            }
            Ok(Err(PipelineError::Load(d))) => ReloadOutcome::Kept(d.to_string()),
            Ok(Err(PipelineError::NoTools {
                summary,
                diagnostics,
                ..
            })) => {
                for d in diagnostics.iter().take(20) {
                    tracing::warn!("reload: {d}");
                }
                ReloadOutcome::Kept(summary.to_string())
            }
            Err(e) => ReloadOutcome::Kept(format!("the reload task failed: {e}")),
        };
        match &outcome {
            ReloadOutcome::Replaced(n) => {
                ops::record_reload(true);
                tracing::info!(tools = n, "reloaded {}", self.shown);
            }
            ReloadOutcome::Kept(why) => {
                ops::record_reload(false);
                tracing::error!(
                    "reload of {} failed; still serving the previous tools: {why}",
                    self.shown
                );
            }
        }
        outcome
    }

    /// Reloads on every SIGHUP (Unix), for the life of the process.
    pub fn spawn_on_sighup(self: &Arc<Self>) {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let mut hup = match signal(SignalKind::hangup()) {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!("cannot listen for SIGHUP: {e}");
                    return;
                }
            };
            let this = Arc::clone(self);
            tokio::spawn(async move {
                while hup.recv().await.is_some() {
                    this.reload("SIGHUP").await;
                }
            });
        }
    }

    /// Watches the document: a file through the OS's change notifications,
    /// a URL by polling every `interval`.
    pub fn spawn_watch(self: &Arc<Self>, interval: Duration) -> Result<(), String> {
        if self.location.starts_with("http://") || self.location.starts_with("https://") {
            let this = Arc::clone(self);
            tokio::spawn(async move { this.poll_url(interval).await });
            Ok(())
        } else {
            self.watch_file(PathBuf::from(&self.location))
        }
    }

    /// Watches the directory the document is in, not the file: editors
    /// and `mv` replace the file, which would end a watch on the file
    /// itself, and a Kubernetes ConfigMap volume changes without ever
    /// touching it: `dir/spec.yaml` is a symlink to `..data/spec.yaml`,
    /// and an update writes a new timestamped directory and renames a new
    /// `..data` symlink over the old one. So every event in the directory
    /// counts, and the document is reloaded when an event names it or
    /// when what it resolves to (its target, its content) is no longer
    /// what was last seen.
    fn watch_file(self: &Arc<Self>, path: PathBuf) -> Result<(), String> {
        use notify::{RecursiveMode, Watcher};
        let path = std::path::absolute(&path).map_err(|e| format!("--watch: {e}"))?;
        let dir = path
            .parent()
            .map(Path::to_path_buf)
            .ok_or_else(|| format!("--watch: {} has no parent directory", path.display()))?;
        let name = path.file_name().map(|n| n.to_os_string());
        // Before the watch starts, so no change can come between.
        let mut seen = FileVersion::of(&path);
        // `true` when the event names the document itself.
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<bool>();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                if let Ok(event) = event
                    && !event.kind.is_access()
                {
                    let named = event.paths.iter().any(|p| p.file_name() == name.as_deref());
                    let _ = tx.send(named);
                }
            })
            .map_err(|e| format!("--watch: cannot watch {}: {e}", dir.display()))?;
        watcher
            .watch(&dir, RecursiveMode::NonRecursive)
            .map_err(|e| format!("--watch: cannot watch {}: {e}", dir.display()))?;
        let this = Arc::clone(self);
        let watched = path.clone();
        tokio::spawn(async move {
            let _watcher = watcher;
            while let Some(mut named) = rx.recv().await {
                // Let a burst of events (write, rename, chmod; a
                // ConfigMap's directory, symlink and clean-up) settle.
                tokio::time::sleep(Duration::from_millis(250)).await;
                while let Ok(n) = rx.try_recv() {
                    named |= n;
                }
                let now = FileVersion::read(watched.clone()).await;
                if named || now != seen {
                    seen = now;
                    this.reload("the file changed").await;
                }
            }
        });
        tracing::info!(file = %path.display(), "watching the document for changes");
        Ok(())
    }

    async fn poll_url(self: Arc<Self>, interval: Duration) {
        // A whole poll (body included) within --fetch-timeout.
        let client = match reqwest::Client::builder()
            .timeout(self.options.load.http_timeout)
            .build()
        {
            Ok(c) => c,
            Err(e) => {
                tracing::error!("--watch: cannot create an HTTP client: {e}");
                return;
            }
        };
        let mut seen = Version::default();
        let mut first = true;
        let limit = usize::try_from(self.options.load.max_document_bytes).unwrap_or(usize::MAX);
        loop {
            match poll_once(&client, &self.location, &seen, limit).await {
                Ok(Some(version)) => {
                    if !first && version != seen {
                        self.reload("the document at its URL changed").await;
                    }
                    seen = version;
                }
                Ok(None) => {}
                Err(e) => tracing::warn!("--watch: polling {}: {e}", self.shown),
            }
            first = false;
            tokio::time::sleep(interval).await;
        }
    }
}

/// What identifies one version of a document file: the file its path
/// resolves to (through any symlinks) and a hash of its content; `None`
/// parts when it cannot be read (a swap in progress, say).
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileVersion {
    target: Option<PathBuf>,
    digest: Option<u64>,
}

impl FileVersion {
    /// `path`'s version now.
    fn of(path: &Path) -> Self {
        use std::hash::{Hash, Hasher};
        let target = std::fs::canonicalize(path).ok();
        let digest = std::fs::read(path).ok().map(|bytes| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut h);
            h.finish()
        });
        Self { target, digest }
    }

    /// [`FileVersion::of`], off the async threads.
    async fn read(path: PathBuf) -> Self {
        tokio::task::spawn_blocking(move || Self::of(&path))
            .await
            .unwrap_or(Self {
                target: None,
                digest: None,
            })
    }
}

/// What identifies one version of a document served over HTTP.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Version {
    etag: Option<String>,
    last_modified: Option<String>,
    /// A hash of the body, when the server sends neither validator.
    digest: Option<u64>,
}

/// One conditional GET: `None` when the server says 304 Not Modified. A
/// body (read only when the server sends no validator) is read up to
/// `limit` bytes, no further. Errors carry no URL (it may hold a
/// credential): the caller names the document.
async fn poll_once(
    client: &reqwest::Client,
    url: &str,
    seen: &Version,
    limit: usize,
) -> Result<Option<Version>, String> {
    let mut req = client.get(url);
    if let Some(e) = &seen.etag {
        req = req.header(reqwest::header::IF_NONE_MATCH, e);
    }
    if let Some(m) = &seen.last_modified {
        req = req.header(reqwest::header::IF_MODIFIED_SINCE, m);
    }
    let res = req
        .send()
        .await
        .map_err(|e| error_chain(&e.without_url()))?;
    if res.status() == reqwest::StatusCode::NOT_MODIFIED {
        return Ok(None);
    }
    if !res.status().is_success() {
        return Err(format!("HTTP {}", res.status()));
    }
    let header = |name: reqwest::header::HeaderName| {
        res.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let etag = header(reqwest::header::ETAG);
    let last_modified = header(reqwest::header::LAST_MODIFIED);
    let digest = if etag.is_none() && last_modified.is_none() {
        use std::hash::{Hash, Hasher};
        let body = read_bounded(res, limit).await.map_err(|e| match e {
            BoundedReadError::TooLarge { limit } => format!(
                "the document is larger than the limit of {limit} bytes (--max-document-bytes); reading stopped there"
            ),
            other => other.to_string(),
        })?;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        body.hash(&mut h);
        Some(h.finish())
    } else {
        None
    };
    Ok(Some(Version {
        etag,
        last_modified,
        digest,
    }))
}

#[cfg(test)]
#[path = "reload_tests.rs"]
mod tests;
