//! Where the tokens people obtained by logging in (`openapi2mcp login`,
//! or the HTTP server's login pages) are kept: a [`TokenStore`]. For one
//! person on their own machine, the OS keyring when one answers
//! ([`super::os_keyring`], see [`default_location`]); else one file
//! encrypted with AES-256-GCM under a key from the environment
//! ([`TOKEN_KEY_ENV`]), so a copied file or a backup reveals nothing; for
//! instances on several machines, Redis ([`RedisStore`], each entry
//! encrypted the same way and bound to its key).
//!
//! A lookup decrypts the file again only when it changed on disk (its
//! modification time or size), so a `login` in another process is seen at
//! once while calls do not pay for a read each; every change replaces the
//! file atomically (written to a temporary file with mode 0600, then
//! renamed), its read-modify-write cycle under an exclusive `flock` of
//! `<file>.lock`, so processes sharing the file lose none of each other's
//! changes.
//!
//! Refresh tokens may be rotated (each used once), so two processes
//! sharing one login (two desktop clients, instances over Redis) must not
//! refresh it at once: the loser's refresh is refused and, before, it
//! removed the login, the winner's fresh tokens included. A store
//! therefore offers [`TokenStore::lock`], one holder at a time per login
//! across the processes sharing it (the file store: an `flock` of
//! `<file>.refresh.lock`; Redis: `SET NX PX` of a random token, released by
//! its holder only), and [`TokenStore::remove_if`], which removes a login
//! only while it is still the one the caller read (compare-and-delete).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use aws_lc_rs::digest;
use aws_lc_rs::rand::{SecureRandom, SystemRandom};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

/// The variable holding the secret the token file is encrypted with.
pub const TOKEN_KEY_ENV: &str = crate::settings::TOKEN_KEY;

/// Fewest characters of that secret.
const MIN_KEY_CHARS: usize = 32;

/// Associated data of the file's ciphertext (a file of another format or
/// version does not open).
const FILE_AAD: &[u8] = b"openapi2mcp/tokens/v1";

/// The default token store: `$XDG_DATA_HOME/openapi2mcp/tokens.enc`, or
/// `~/.local/share/openapi2mcp/tokens.enc`.
pub fn default_path() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("openapi2mcp").join("tokens.enc")
}

/// One person's tokens for one authorization server and client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredTokens {
    /// The access token.
    pub access_token: String,
    /// The refresh token, when the server issued one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    /// When the access token expires, seconds since the epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
    /// When it was obtained, seconds since the epoch (its lifetime decides
    /// how early it is refreshed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub obtained_at: Option<u64>,
    /// The scopes granted (or asked for, when the server did not say).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
}

/// Why the store could not be read or written. Messages name the file,
/// never a token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// No key, or one too short.
    #[error("{0}")]
    Key(String),
    /// The file could not be read or written.
    #[error("token store {path}: {reason}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },
    /// The OS keyring cannot be reached or refused the operation.
    #[error("{0}")]
    Keyring(String),
    /// The file does not open with this key (another key, or altered).
    #[error(
        "token store {path} cannot be decrypted with the key in {TOKEN_KEY_ENV} (another key, or the file was altered); log in again after removing it"
    )]
    Undecryptable {
        /// The file.
        path: String,
    },
}

/// What a [`TokenStore`] operation returns (a shared store answers over
/// the network).
pub type StoreFuture<'a, T> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Keeps people's tokens, by key (who, which server, which client).
pub trait TokenStore: Send + Sync {
    /// The tokens under `key`.
    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<StoredTokens>>;
    /// Replaces the tokens under `key`.
    fn put<'a>(&'a self, key: &'a str, tokens: &'a StoredTokens) -> StoreFuture<'a, ()>;
    /// Removes and returns the tokens under `key`.
    fn remove<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<StoredTokens>>;
    /// Marks `id` used until `until` (seconds since the epoch) where every
    /// instance sharing this store sees it, and says whether it was unused:
    /// how a single-use value (a confirmation's nonce) is refused a second
    /// time by any instance. `None` from a store that is not shared
    /// between instances: the caller remembers the mark itself.
    fn claim_once<'a>(&'a self, id: &'a str, until: u64) -> StoreFuture<'a, Option<bool>> {
        let _ = (id, until);
        Box::pin(async { Ok(None) })
    }

    /// Removes the tokens under `key` only while they are still
    /// `expected` (compare-and-delete); whether they were removed. A login
    /// refused on refresh is removed this way, so that newer tokens another
    /// process stored meanwhile stay. The default compares, then removes
    /// (not atomic: a store shared by processes overrides it).
    fn remove_if<'a>(&'a self, key: &'a str, expected: &'a StoredTokens) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            match self.get(key).await? {
                Some(current) if current == *expected => Ok(self.remove(key).await?.is_some()),
                _ => Ok(false),
            }
        })
    }

    /// Waits (at most [`LOCK_WAIT`]) to be the only holder of the refresh
    /// of the login under `key` among the processes sharing this store;
    /// the lock ends when the returned [`StoreLock`] is released or
    /// dropped, or after [`LOCK_TTL`] should its holder die. `Ok(None)`:
    /// another holder kept it past the wait (the caller goes on, re-reading
    /// what that holder stored). The default (a store no other process
    /// shares) holds nothing.
    fn lock<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<StoreLock>> {
        let _ = key;
        Box::pin(async { Ok(Some(StoreLock::default())) })
    }
}

/// Longest wait for another process's refresh of the same login.
pub const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(20);

/// How long a Redis refresh lock outlives a holder that died.
pub const LOCK_TTL: std::time::Duration = std::time::Duration::from_secs(30);

/// How often a waiting process tries the lock again.
const LOCK_POLL: std::time::Duration = std::time::Duration::from_millis(25);

/// How a [`StoreLock`] is given back.
type Release = Box<dyn FnOnce() -> StoreFuture<'static, ()> + Send>;

/// One holder's refresh lock ([`TokenStore::lock`]); released by
/// [`StoreLock::release`], or when dropped (a Redis lock then in a task
/// of the running runtime).
#[derive(Default)]
pub struct StoreLock {
    /// The open, `flock`ed lock file (closing it unlocks).
    file: Option<std::fs::File>,
    /// How a lock held elsewhere (Redis) is given back.
    release: Option<Release>,
}

impl std::fmt::Debug for StoreLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreLock").finish_non_exhaustive()
    }
}

impl StoreLock {
    /// Gives the lock back now.
    pub async fn release(mut self) {
        self.file.take();
        if let Some(release) = self.release.take()
            && let Err(e) = release().await
        {
            tracing::debug!("a refresh lock could not be released (it expires by itself): {e}");
        }
    }
}

impl Drop for StoreLock {
    fn drop(&mut self) {
        if let Some(release) = self.release.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(async move {
                let _ = release().await;
            });
        }
    }
}

/// A refresh lock held as an exclusive `flock` of the file `path`
/// (waiting at most [`LOCK_WAIT`]): the file store's, and the OS
/// keyring's (processes of one person on one machine).
pub(super) async fn file_lock(path: PathBuf) -> Result<Option<StoreLock>, StoreError> {
    let file = flock_file(&path, LOCK_WAIT)
        .await
        .map_err(|e| StoreError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
    Ok(file.map(|file| StoreLock {
        file: Some(file),
        release: None,
    }))
}

/// An exclusive `flock` of `path` (created with mode 0600), tried every
/// [`LOCK_POLL`] for at most `wait`; `None` when still held elsewhere.
/// Off Unix, no lock is taken (a file store is then one process's).
async fn flock_file(
    path: &Path,
    wait: std::time::Duration,
) -> std::io::Result<Option<std::fs::File>> {
    let file = open_lock_file(path)?;
    let deadline = std::time::Instant::now() + wait;
    loop {
        if try_flock(&file)? {
            return Ok(Some(file));
        }
        if std::time::Instant::now() >= deadline {
            return Ok(None);
        }
        tokio::time::sleep(LOCK_POLL).await;
    }
}

fn open_lock_file(path: &Path) -> std::io::Result<std::fs::File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    options.open(path)
}

/// Takes an exclusive `flock` without waiting; whether it was taken.
#[cfg(unix)]
fn try_flock(file: &std::fs::File) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd as _;
    loop {
        // SAFETY: the descriptor belongs to `file`, open for the call.
        let done = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if done == 0 {
            return Ok(true);
        }
        let error = std::io::Error::last_os_error();
        match error.kind() {
            std::io::ErrorKind::Interrupted => continue,
            std::io::ErrorKind::WouldBlock => return Ok(false),
            _ => return Err(error),
        }
    }
}

#[cfg(not(unix))]
fn try_flock(_file: &std::fs::File) -> std::io::Result<bool> {
    Ok(true)
}

/// An exclusive `flock` of `path`, waited for (a read-modify-write of the
/// token file takes milliseconds).
fn flock_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    let file = open_lock_file(path)?;
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd as _;
        loop {
            // SAFETY: the descriptor belongs to `file`, open for the call.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
                break;
            }
            let error = std::io::Error::last_os_error();
            if error.kind() != std::io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
    }
    Ok(file)
}

/// `path` with `suffix` added to its file name (`tokens.enc.lock`).
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// The store `location` names: `keyring:` (the OS keyring,
/// [`super::os_keyring::LOCATION`]), a `redis://` URL, else a file (the
/// last two encrypted with the key in [`TOKEN_KEY_ENV`]).
pub fn open_store(location: &str) -> Result<std::sync::Arc<dyn TokenStore>, StoreError> {
    if location == super::os_keyring::LOCATION {
        Ok(std::sync::Arc::new(super::os_keyring::KeyringStore::open()?))
    } else if location.starts_with("redis://") || location.starts_with("redis+unix://") {
        Ok(std::sync::Arc::new(RedisStore::from_env(location)?))
    } else {
        Ok(std::sync::Arc::new(FileStore::from_env(Path::new(
            location,
        ))?))
    }
}

/// Where one person's tokens go when no store is named (`login`,
/// `logout`, `serve` on stdio): the OS keyring when it answers (it needs
/// no key), else the encrypted file at [`default_path`] when
/// [`TOKEN_KEY_ENV`] is set. Logs which, and why not the keyring; the
/// error says why neither can be used.
pub fn default_location() -> Result<String, String> {
    let file = default_path();
    match super::os_keyring::probe() {
        Ok(()) => {
            tracing::info!(
                "token store: {} (OS-protected; no {TOKEN_KEY_ENV} needed)",
                super::os_keyring::describe()
            );
            if file.exists() {
                tracing::info!(
                    "the encrypted token file {} also exists and is not used: give --token-store {} to use the logins kept there",
                    file.display(),
                    file.display()
                );
            }
            Ok(super::os_keyring::LOCATION.to_string())
        }
        Err(why) if std::env::var(TOKEN_KEY_ENV).is_ok_and(|k| !k.is_empty()) => {
            tracing::info!(
                "token store: the encrypted file {} (the OS keyring cannot be used: {why})",
                file.display()
            );
            Ok(file.to_string_lossy().into_owned())
        }
        Err(why) => Err(format!(
            "no OS keyring can keep the tokens ({why}), and {TOKEN_KEY_ENV} is not set for the encrypted file: set it to a secret of at least {MIN_KEY_CHARS} characters (e.g. `export {TOKEN_KEY_ENV}=$(openssl rand -hex 32)`) and keep it"
        )),
    }
}

/// What `location` is, for messages (a Redis URL without its password).
pub fn describe_location(location: &str) -> String {
    if location == super::os_keyring::LOCATION {
        super::os_keyring::describe().to_string()
    } else if location.starts_with("redis://") || location.starts_with("redis+unix://") {
        format!("{} (encrypted)", redacted_url(location))
    } else {
        format!("{location} (encrypted)")
    }
}

/// AES-256-GCM under the key derived from [`TOKEN_KEY_ENV`]'s secret.
struct Cipher {
    key: LessSafeKey,
    rng: SystemRandom,
}

impl Cipher {
    fn with_secret(secret: &str) -> Result<Self, StoreError> {
        if secret.trim().chars().count() < MIN_KEY_CHARS {
            return Err(StoreError::Key(format!(
                "tokens obtained by logging in are stored encrypted: set {TOKEN_KEY_ENV} to a secret of at least {MIN_KEY_CHARS} characters (e.g. `export {TOKEN_KEY_ENV}=$(openssl rand -hex 32)`) and keep it"
            )));
        }
        let key = digest::digest(&digest::SHA256, secret.trim().as_bytes());
        let unbound = UnboundKey::new(&AES_256_GCM, key.as_ref())
            .map_err(|_| StoreError::Key("cannot create the token store key".into()))?;
        Ok(Self {
            key: LessSafeKey::new(unbound),
            rng: SystemRandom::new(),
        })
    }

    /// `plain` encrypted, as the envelope's JSON; `None` when the system
    /// random generator failed.
    fn seal(&self, plain: &[u8], aad: &[u8]) -> Option<Vec<u8>> {
        let mut data = plain.to_vec();
        let mut nonce = [0u8; NONCE_LEN];
        self.rng.fill(&mut nonce).ok()?;
        self.key
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(aad),
                &mut data,
            )
            .ok()?;
        serde_json::to_vec(&Envelope {
            v: 1,
            nonce: STANDARD.encode(nonce),
            data: STANDARD.encode(data),
        })
        .ok()
    }

    /// The plain text of an envelope; `None` when it does not open.
    fn open(&self, sealed: &[u8], aad: &[u8]) -> Option<Vec<u8>> {
        let envelope: Envelope = serde_json::from_slice(sealed).ok()?;
        if envelope.v != 1 {
            return None;
        }
        let nonce = STANDARD.decode(envelope.nonce).ok()?;
        let mut data = STANDARD.decode(envelope.data).ok()?;
        let nonce = Nonce::try_assume_unique_for_key(&nonce).ok()?;
        let plain = self
            .key
            .open_in_place(nonce, Aad::from(aad), &mut data)
            .ok()?;
        Some(plain.to_vec())
    }
}

/// The default store: one encrypted file.
pub struct FileStore {
    path: PathBuf,
    cipher: Cipher,
    /// Serializes this process's read-modify-write cycles.
    writing: Mutex<()>,
    /// The entries as last read or written, with the file's modification
    /// time and size then.
    cached: Mutex<Option<Snapshot>>,
}

/// The file's entries and what identified its version on disk.
type Snapshot = (std::time::SystemTime, u64, BTreeMap<String, StoredTokens>);

impl std::fmt::Debug for FileStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileStore")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// The file's outer form.
#[derive(Serialize, Deserialize)]
struct Envelope {
    v: u32,
    nonce: String,
    data: String,
}

impl FileStore {
    /// A store in `path` keyed by [`TOKEN_KEY_ENV`].
    pub fn from_env(path: &Path) -> Result<Self, StoreError> {
        let secret = std::env::var(TOKEN_KEY_ENV).unwrap_or_default();
        Self::with_secret(path, &secret)
    }

    /// A store in `path` keyed by SHA-256 of `secret` (at least 32
    /// characters).
    pub fn with_secret(path: &Path, secret: &str) -> Result<Self, StoreError> {
        Ok(Self {
            path: path.to_path_buf(),
            cipher: Cipher::with_secret(secret)?,
            writing: Mutex::new(()),
            cached: Mutex::new(None),
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn io(&self, reason: impl std::fmt::Display) -> StoreError {
        StoreError::Io {
            path: self.path.display().to_string(),
            reason: reason.to_string(),
        }
    }

    /// The file's modification time and size, `None` when it is absent.
    fn version(&self) -> Result<Option<(std::time::SystemTime, u64)>, StoreError> {
        match std::fs::metadata(&self.path) {
            Ok(m) => Ok(Some((m.modified().map_err(|e| self.io(e))?, m.len()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(self.io(e)),
        }
    }

    /// Every entry; an absent file is an empty store.
    fn load(&self) -> Result<BTreeMap<String, StoredTokens>, StoreError> {
        let Some((modified, len)) = self.version()? else {
            return Ok(BTreeMap::new());
        };
        let mut cached = self
            .cached
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((m, l, entries)) = cached.as_ref()
            && *m == modified
            && *l == len
        {
            return Ok(entries.clone());
        }
        let entries = self.read()?;
        *cached = Some((modified, len, entries.clone()));
        Ok(entries)
    }

    /// Reads and decrypts the file.
    fn read(&self) -> Result<BTreeMap<String, StoredTokens>, StoreError> {
        let text = match std::fs::read(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
            Err(e) => return Err(self.io(e)),
        };
        let plain = self
            .cipher
            .open(&text, FILE_AAD)
            .ok_or_else(|| StoreError::Undecryptable {
                path: self.path.display().to_string(),
            })?;
        serde_json::from_slice(&plain).map_err(|_| StoreError::Undecryptable {
            path: self.path.display().to_string(),
        })
    }

    fn save(&self, entries: &BTreeMap<String, StoredTokens>) -> Result<(), StoreError> {
        let plain = serde_json::to_vec(entries).map_err(|e| self.io(e))?;
        let sealed = self
            .cipher
            .seal(&plain, FILE_AAD)
            .ok_or_else(|| self.io("encryption failed (the system random generator)"))?;
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| self.io(e))?;
        }
        let temporary = self.path.with_extension("tmp");
        write_private(&temporary, &sealed).map_err(|e| self.io(e))?;
        std::fs::rename(&temporary, &self.path).map_err(|e| self.io(e))?;
        if let Some((modified, len)) = self.version()? {
            *self
                .cached
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) =
                Some((modified, len, entries.clone()));
        }
        Ok(())
    }
}

/// Writes `bytes` to a new file only its owner can read.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

impl FileStore {
    fn get_now(&self, key: &str) -> Result<Option<StoredTokens>, StoreError> {
        Ok(self.load()?.remove(key))
    }

    /// Runs `change` on the entries under this process's mutex and the
    /// file's `flock` (other processes' changes are neither lost nor
    /// overwritten); saves them when it says so.
    fn modify<T>(
        &self,
        change: impl FnOnce(&mut BTreeMap<String, StoredTokens>) -> (T, bool),
    ) -> Result<T, StoreError> {
        let _writing = self
            .writing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let _locked = flock_blocking(&beside(&self.path, ".lock")).map_err(|e| self.io(e))?;
        let mut entries = self.load()?;
        let (out, changed) = change(&mut entries);
        if changed {
            self.save(&entries)?;
        }
        Ok(out)
    }

    fn put_now(&self, key: &str, tokens: &StoredTokens) -> Result<(), StoreError> {
        self.modify(|entries| {
            entries.insert(key.to_string(), tokens.clone());
            ((), true)
        })
    }

    fn remove_now(&self, key: &str) -> Result<Option<StoredTokens>, StoreError> {
        self.modify(|entries| {
            let removed = entries.remove(key);
            let changed = removed.is_some();
            (removed, changed)
        })
    }

    fn remove_if_now(&self, key: &str, expected: &StoredTokens) -> Result<bool, StoreError> {
        self.modify(|entries| {
            let same = entries.get(key) == Some(expected);
            if same {
                entries.remove(key);
            }
            (same, same)
        })
    }
}

impl TokenStore for FileStore {
    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<StoredTokens>> {
        Box::pin(async move { self.get_now(key) })
    }

    fn put<'a>(&'a self, key: &'a str, tokens: &'a StoredTokens) -> StoreFuture<'a, ()> {
        Box::pin(async move { self.put_now(key, tokens) })
    }

    fn remove<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<StoredTokens>> {
        Box::pin(async move { self.remove_now(key) })
    }

    fn remove_if<'a>(&'a self, key: &'a str, expected: &'a StoredTokens) -> StoreFuture<'a, bool> {
        Box::pin(async move { self.remove_if_now(key, expected) })
    }

    /// One lock file for every login of the file (`<file>.refresh.lock`):
    /// refreshes are rare and short, and no lock file is left per person.
    fn lock<'a>(&'a self, _key: &'a str) -> StoreFuture<'a, Option<StoreLock>> {
        Box::pin(file_lock(beside(&self.path, ".refresh.lock")))
    }
}

mod redis_store;
pub use redis_store::RedisStore;
use redis_store::redacted_url;

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
