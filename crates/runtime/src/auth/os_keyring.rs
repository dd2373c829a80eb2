//! The OS keyring as a [`TokenStore`], for one person's logins on their
//! own machine (`openapi2mcp login` then `serve` on stdio): the Secret
//! Service over D-Bus (GNOME Keyring, KWallet, KeePassXC) on Linux and the
//! BSDs, the Keychain on macOS, the Credential Manager on Windows, through
//! the `keyring` crate. The operating system protects the entries (the
//! person's login unlocks them), so unlike the encrypted file no
//! `OPENAPI2MCP_TOKEN_KEY` is needed.
//!
//! Each store key is one entry of service [`SERVICE`] whose account names
//! the person, the token endpoint and the client (never a token); its
//! secret is the tokens' JSON. The keyring's calls block (D-Bus round
//! trips, perhaps an unlock prompt), so they run on the blocking pool and
//! are bounded by [`CALL_TIMEOUT`].

use std::time::Duration;

use super::store::{StoreError, StoreFuture, StoredTokens, TokenStore};

/// The `--token-store` value naming the OS keyring.
pub const LOCATION: &str = "keyring:";

/// The service name of every entry (what `secret-tool search service
/// openapi2mcp` or the Keychain's "Where" shows).
pub const SERVICE: &str = "openapi2mcp";

/// How long one keyring operation may take (an unlock prompt included)
/// before it is given up with an error.
const CALL_TIMEOUT: Duration = Duration::from_secs(60);

/// How long [`probe`] waits for the keyring to answer.
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// Whether the OS keyring answers: `Ok` when its service could be
/// reached, else why not (e.g. no D-Bus session bus, no Secret Service on
/// it), within a few seconds. Tells [`super::store::open_default_store`]
/// whether to use it.
pub fn probe() -> Result<(), String> {
    let (sender, answer) = std::sync::mpsc::channel();
    // A thread, not the caller: connecting may hang on a broken bus, and
    // the answer is awaited with a bound.
    let spawned = std::thread::Builder::new()
        .name("keyring-probe".into())
        .spawn(move || {
            let status = keyring::Entry::store_status()
                .as_ref()
                .map(|_| ())
                .map_err(|e| e.to_string());
            let _ = sender.send(status);
        });
    if let Err(e) = spawned {
        return Err(format!("cannot start a thread to reach it: {e}"));
    }
    match answer.recv_timeout(PROBE_TIMEOUT) {
        Ok(status) => status,
        Err(_) => Err(format!(
            "it did not answer within {} s",
            PROBE_TIMEOUT.as_secs()
        )),
    }
}

/// What the keyring in use is, for messages: "the OS keyring (…)".
pub fn describe() -> &'static str {
    if cfg!(target_os = "macos") {
        "the OS keyring (macOS Keychain)"
    } else if cfg!(windows) {
        "the OS keyring (Windows Credential Manager)"
    } else {
        "the OS keyring (Secret Service)"
    }
}

/// The account of the entry for store `key` (`person\ntoken URL\nclient`):
/// its lines joined by spaces, so keyring viewers show one line.
fn account(key: &str) -> String {
    key.split('\n').collect::<Vec<_>>().join(" ")
}

/// Tokens kept in the OS keyring, one entry per store key.
#[derive(Debug, Default, Clone)]
pub struct KeyringStore {
    _private: (),
}

impl KeyringStore {
    /// The OS keyring, after checking that it answers ([`probe`]); the
    /// error says why it cannot be used.
    pub fn open() -> Result<Self, StoreError> {
        probe().map_err(|reason| {
            StoreError::Keyring(format!(
                "{} cannot be used: {reason}. Give --token-store FILE (encrypted with {}) instead",
                describe(),
                super::store::TOKEN_KEY_ENV
            ))
        })?;
        Ok(Self { _private: () })
    }

    /// Runs `work` on the entry for `key` on the blocking pool, bounded by
    /// [`CALL_TIMEOUT`].
    async fn with_entry<T: Send + 'static>(
        key: &str,
        work: impl FnOnce(&keyring::Entry) -> Result<T, keyring::Error> + Send + 'static,
    ) -> Result<T, StoreError> {
        let account = account(key);
        let job = tokio::task::spawn_blocking(move || {
            let entry = keyring::Entry::new(SERVICE, &account)?;
            work(&entry)
        });
        match tokio::time::timeout(CALL_TIMEOUT, job).await {
            Err(_) => Err(StoreError::Keyring(format!(
                "{} did not answer within {} s (is it locked, waiting for a password?)",
                describe(),
                CALL_TIMEOUT.as_secs()
            ))),
            Ok(Err(e)) => Err(StoreError::Keyring(format!(
                "{}: the operation failed: {e}",
                describe()
            ))),
            Ok(Ok(result)) => result.map_err(|e| failure(&e)),
        }
    }
}

/// A keyring error as a store error. The keyring's messages name the
/// platform's failure, never the secret (secrets are read as bytes, so no
/// "bad encoding" error carrying them can arise).
fn failure(error: &keyring::Error) -> StoreError {
    let hint = match error {
        keyring::Error::NoStorageAccess(_) => " (is it locked?)",
        keyring::Error::TooLong(..) => {
            " (the tokens are larger than this keyring allows one entry; use --token-store FILE)"
        }
        _ => "",
    };
    StoreError::Keyring(format!("{}: {error}{hint}", describe()))
}

/// The tokens in an entry's secret; an entry that is not ours (not the
/// tokens' JSON) is an error naming the entry, not its content.
fn decode(key: &str, secret: &[u8]) -> Result<StoredTokens, StoreError> {
    serde_json::from_slice(secret).map_err(|_| {
        StoreError::Keyring(format!(
            "{}: the entry `{SERVICE}` / `{}` does not hold tokens this program wrote; remove it and log in again",
            describe(),
            account(key)
        ))
    })
}

impl TokenStore for KeyringStore {
    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<StoredTokens>> {
        Box::pin(async move {
            let secret = Self::with_entry(key, |entry| match entry.get_secret() {
                Ok(secret) => Ok(Some(secret)),
                Err(keyring::Error::NoEntry) => Ok(None),
                Err(e) => Err(e),
            })
            .await?;
            secret.map(|s| decode(key, &s)).transpose()
        })
    }

    fn put<'a>(&'a self, key: &'a str, tokens: &'a StoredTokens) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let secret = serde_json::to_vec(tokens)
                .map_err(|e| StoreError::Keyring(format!("cannot encode the tokens: {e}")))?;
            Self::with_entry(key, move |entry| entry.set_secret(&secret)).await
        })
    }

    fn remove<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<StoredTokens>> {
        Box::pin(async move {
            let secret = Self::with_entry(key, |entry| match entry.get_secret() {
                Ok(secret) => {
                    entry.delete_credential()?;
                    Ok(Some(secret))
                }
                Err(keyring::Error::NoEntry) => Ok(None),
                Err(e) => Err(e),
            })
            .await?;
            // An entry that does not decode is removed all the same.
            Ok(secret.and_then(|s| decode(key, &s).ok()))
        })
    }

    /// The keyring is one person's, on one machine: their processes (two
    /// desktop clients) take turns through a lock file beside the default
    /// token file. Its compare-and-delete stays the trait's (the keyring
    /// has none), made safe by this lock among refreshing processes.
    fn lock<'a>(&'a self, _key: &'a str) -> StoreFuture<'a, Option<super::store::StoreLock>> {
        Box::pin(super::store::file_lock(
            super::store::default_path().with_file_name("keyring.refresh.lock"),
        ))
    }
}

#[cfg(test)]
#[path = "os_keyring_tests.rs"]
mod tests;
