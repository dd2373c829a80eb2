//! The Redis token store, for instances on several machines: one entry
//! per login, encrypted like the file store's and bound to its key; the
//! refresh lock as `SET NX PX` of a holder's token; single-use claims
//! (`SET NX EX`). Moved whole from `store.rs`; the rest of the store (the
//! trait, the cipher, the file store, the locks) is its parent's.

use super::*;

/// Prefix of this store's Redis keys.
const REDIS_PREFIX: &str = "openapi2mcp:tokens:";

/// A store shared by instances on several machines: one Redis entry per
/// key, named by the key's SHA-256 (the names say nobody's identity), its
/// value encrypted like the file and bound to its key (an entry copied
/// under another key does not open).
pub struct RedisStore {
    url: String,
    client: redis::Client,
    connection: tokio::sync::OnceCell<redis::aio::ConnectionManager>,
    cipher: Cipher,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// The store at `url` (`redis://[user:password@]host:port[/db]`),
    /// encrypted with the key in [`TOKEN_KEY_ENV`]; it connects on first
    /// use and reconnects by itself.
    pub fn from_env(url: &str) -> Result<Self, StoreError> {
        let secret = std::env::var(TOKEN_KEY_ENV).unwrap_or_default();
        let shown = redacted_url(url);
        let client = redis::Client::open(url).map_err(|e| StoreError::Io {
            path: shown.clone(),
            reason: format!("not a Redis URL: {e}"),
        })?;
        Ok(Self {
            url: shown,
            client,
            connection: tokio::sync::OnceCell::new(),
            cipher: Cipher::with_secret(&secret)?,
        })
    }

    fn io(&self, reason: impl std::fmt::Display) -> StoreError {
        StoreError::Io {
            path: self.url.clone(),
            reason: reason.to_string(),
        }
    }

    async fn connection(&self) -> Result<redis::aio::ConnectionManager, StoreError> {
        self.connection
            .get_or_try_init(|| async {
                let config = redis::aio::ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(std::time::Duration::from_secs(5)))
                    .set_response_timeout(Some(std::time::Duration::from_secs(5)))
                    .set_number_of_retries(2);
                redis::aio::ConnectionManager::new_with_config(self.client.clone(), config)
                    .await
                    .map_err(|e| self.io(format!("cannot connect: {e}")))
            })
            .await
            .cloned()
    }

    fn entry(key: &str) -> String {
        let digest = digest::digest(&digest::SHA256, key.as_bytes());
        let hex: String = digest.as_ref().iter().map(|b| format!("{b:02x}")).collect();
        format!("{REDIS_PREFIX}{hex}")
    }

    fn aad(key: &str) -> Vec<u8> {
        format!("openapi2mcp/tokens/redis/v1|{key}").into_bytes()
    }

    fn decode(&self, key: &str, sealed: &[u8]) -> Result<StoredTokens, StoreError> {
        let undecryptable = || StoreError::Undecryptable {
            path: self.url.clone(),
        };
        let plain = self
            .cipher
            .open(sealed, &Self::aad(key))
            .ok_or_else(undecryptable)?;
        serde_json::from_slice(&plain).map_err(|_| undecryptable())
    }
}

/// `url` without its password.
pub(super) fn redacted_url(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) => {
            if parsed.password().is_some() {
                let _ = parsed.set_password(Some("***"));
            }
            parsed.to_string()
        }
        Err(_) => "the Redis URL".to_string(),
    }
}

/// Deletes `KEYS[1]` only while it holds `ARGV[1]`: the compare-and-delete
/// of a login, and the release of a refresh lock by its holder only.
const DELETE_IF_SAME: &str = r"if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

/// Prefix of the refresh locks' Redis keys.
const REDIS_LOCK_PREFIX: &str = "openapi2mcp:refresh-lock:";

impl RedisStore {
    fn lock_entry(key: &str) -> String {
        let digest = digest::digest(&digest::SHA256, key.as_bytes());
        let hex: String = digest.as_ref().iter().map(|b| format!("{b:02x}")).collect();
        format!("{REDIS_LOCK_PREFIX}{hex}")
    }
}

impl TokenStore for RedisStore {
    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<StoredTokens>> {
        Box::pin(async move {
            let mut connection = self.connection().await?;
            let value: Option<Vec<u8>> = redis::cmd("GET")
                .arg(Self::entry(key))
                .query_async(&mut connection)
                .await
                .map_err(|e| self.io(e))?;
            value.map(|v| self.decode(key, &v)).transpose()
        })
    }

    fn put<'a>(&'a self, key: &'a str, tokens: &'a StoredTokens) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let plain = serde_json::to_vec(tokens).map_err(|e| self.io(e))?;
            let sealed = self
                .cipher
                .seal(&plain, &Self::aad(key))
                .ok_or_else(|| self.io("encryption failed (the system random generator)"))?;
            let mut connection = self.connection().await?;
            redis::cmd("SET")
                .arg(Self::entry(key))
                .arg(sealed)
                .query_async::<()>(&mut connection)
                .await
                .map_err(|e| self.io(e))
        })
    }

    fn remove<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<StoredTokens>> {
        Box::pin(async move {
            let mut connection = self.connection().await?;
            let value: Option<Vec<u8>> = redis::cmd("GETDEL")
                .arg(Self::entry(key))
                .query_async(&mut connection)
                .await
                .map_err(|e| self.io(e))?;
            value.map(|v| self.decode(key, &v)).transpose()
        })
    }

    /// Compares the decrypted entry (each write encrypts anew), then
    /// deletes it in one script only while it is still the value read.
    fn remove_if<'a>(&'a self, key: &'a str, expected: &'a StoredTokens) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut connection = self.connection().await?;
            let entry = Self::entry(key);
            let value: Option<Vec<u8>> = redis::cmd("GET")
                .arg(&entry)
                .query_async(&mut connection)
                .await
                .map_err(|e| self.io(e))?;
            let Some(value) = value else {
                return Ok(false);
            };
            if self.decode(key, &value)? != *expected {
                return Ok(false);
            }
            let deleted: i64 = redis::cmd("EVAL")
                .arg(DELETE_IF_SAME)
                .arg(1)
                .arg(&entry)
                .arg(value)
                .query_async(&mut connection)
                .await
                .map_err(|e| self.io(e))?;
            Ok(deleted == 1)
        })
    }

    /// `SET <lock> <random token> NX PX` ([`LOCK_TTL`]), tried every
    /// [`LOCK_POLL`]; released by a script deleting it only while it still
    /// holds this holder's token (an expired lock taken over by another
    /// process is not released by the first).
    fn lock<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<StoreLock>> {
        Box::pin(async move {
            let mut connection = self.connection().await?;
            let entry = Self::lock_entry(key);
            let mut token = [0u8; 16];
            self.cipher
                .rng
                .fill(&mut token)
                .map_err(|_| self.io("the system random generator failed"))?;
            let token = STANDARD.encode(token);
            let deadline = std::time::Instant::now() + LOCK_WAIT;
            loop {
                let taken: Option<String> = redis::cmd("SET")
                    .arg(&entry)
                    .arg(&token)
                    .arg("NX")
                    .arg("PX")
                    .arg(LOCK_TTL.as_millis() as u64)
                    .query_async(&mut connection)
                    .await
                    .map_err(|e| self.io(e))?;
                if taken.is_some() {
                    break;
                }
                if std::time::Instant::now() >= deadline {
                    return Ok(None);
                }
                tokio::time::sleep(LOCK_POLL).await;
            }
            let url = self.url.clone();
            let release: Release = Box::new(move || {
                Box::pin(async move {
                    redis::cmd("EVAL")
                        .arg(DELETE_IF_SAME)
                        .arg(1)
                        .arg(entry)
                        .arg(token)
                        .query_async::<i64>(&mut connection)
                        .await
                        .map(|_| ())
                        .map_err(|e| StoreError::Io {
                            path: url,
                            reason: e.to_string(),
                        })
                })
            });
            Ok(Some(StoreLock {
                file: None,
                release: Some(release),
            }))
        })
    }

    fn claim_once<'a>(&'a self, id: &'a str, until: u64) -> StoreFuture<'a, Option<bool>> {
        Box::pin(async move {
            let ttl = until.saturating_sub(crate::auth::login::now_secs()).max(1);
            let mut connection = self.connection().await?;
            // SET NX: only the first instance to mark it gets `OK`.
            let set: Option<String> = redis::cmd("SET")
                .arg(once_entry(id))
                .arg(1)
                .arg("NX")
                .arg("EX")
                .arg(ttl)
                .query_async(&mut connection)
                .await
                .map_err(|e| self.io(e))?;
            Ok(Some(set.is_some()))
        })
    }
}

/// The Redis key marking single-use `id` used: its SHA-256, so that the
/// key says nothing of what was used.
fn once_entry(id: &str) -> String {
    let digest = digest::digest(&digest::SHA256, id.as_bytes());
    let hex: String = digest.as_ref().iter().map(|b| format!("{b:02x}")).collect();
    format!("openapi2mcp:once:{hex}")
}
