//! Sealing of the `requestState` a 2026-07-28 client echoes back on a
//! multi round-trip request: authenticated encryption (AES-256-GCM through
//! aws-lc-rs), bound to associated data (the tool, the caller), bounded in
//! size. The echoed value is untrusted input; a value this process (or one
//! sharing its key) did not seal, or one sealed for another call, does not
//! open.
//!
//! The key is random per process unless `OPENAPI2MCP_STATE_KEY` gives one:
//! instances behind a load balancer must share it, since a retry may reach
//! another instance.

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use aws_lc_rs::digest;
use aws_lc_rs::rand::{SecureRandom, SystemRandom};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// Environment variable holding the sealing secret shared by instances.
pub const STATE_KEY_ENV: &str = openapi2mcp_runtime::settings::STATE_KEY;

/// Largest `requestState` accepted back (a sealed state of ours is a few
/// hundred bytes).
pub const MAX_STATE_CHARS: usize = 4_096;

/// Shortest secret accepted in [`STATE_KEY_ENV`].
const MIN_SECRET_CHARS: usize = 32;

/// Why a `requestState` did not open.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    /// Longer than [`MAX_STATE_CHARS`].
    #[error("requestState is longer than {MAX_STATE_CHARS} characters")]
    TooLong,
    /// Not base64url, too short, or its tag did not verify (tampered,
    /// sealed by another key, or for another call).
    #[error("requestState was not issued by this server for this call")]
    Forged,
}

/// Seals and opens states with one key.
pub struct Sealer {
    key: LessSafeKey,
    rng: SystemRandom,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer(..)")
    }
}

impl Sealer {
    /// A sealer keyed from [`STATE_KEY_ENV`] when set, else from a fresh
    /// random key. A secret too short to be one is an error.
    pub fn from_env() -> Result<Self, String> {
        match std::env::var(STATE_KEY_ENV) {
            Ok(secret) => Self::from_secret(secret.trim()),
            Err(_) => {
                let mut key = [0u8; 32];
                os_random(&mut key)?;
                Self::from_key(&key)
            }
        }
    }

    /// A sealer keyed by SHA-256 of `secret` (at least 32 characters).
    pub fn from_secret(secret: &str) -> Result<Self, String> {
        if secret.chars().count() < MIN_SECRET_CHARS {
            return Err(format!(
                "{STATE_KEY_ENV} must hold a secret of at least {MIN_SECRET_CHARS} characters (e.g. `openssl rand -hex 32`)"
            ));
        }
        let key = digest::digest(&digest::SHA256, secret.as_bytes());
        Self::from_key(key.as_ref())
    }

    fn from_key(key: &[u8]) -> Result<Self, String> {
        let unbound = UnboundKey::new(&AES_256_GCM, key)
            .map_err(|_| "could not create the requestState key".to_string())?;
        Ok(Self {
            key: LessSafeKey::new(unbound),
            rng: SystemRandom::new(),
        })
    }

    /// `payload` encrypted and authenticated together with `context`
    /// (which is not stored: [`Sealer::open`] needs the same context).
    pub fn seal(&self, payload: &[u8], context: &[u8]) -> Result<String, SealError> {
        let mut nonce = [0u8; NONCE_LEN];
        self.rng.fill(&mut nonce).map_err(|_| SealError::Forged)?;
        let mut data = payload.to_vec();
        self.key
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(context),
                &mut data,
            )
            .map_err(|_| SealError::Forged)?;
        let mut token = nonce.to_vec();
        token.extend_from_slice(&data);
        Ok(URL_SAFE_NO_PAD.encode(token))
    }

    /// The payload of a state sealed with `context`.
    pub fn open(&self, token: &str, context: &[u8]) -> Result<Vec<u8>, SealError> {
        if token.len() > MAX_STATE_CHARS {
            return Err(SealError::TooLong);
        }
        let raw = URL_SAFE_NO_PAD
            .decode(token.trim())
            .map_err(|_| SealError::Forged)?;
        if raw.len() < NONCE_LEN + AES_256_GCM.tag_len() {
            return Err(SealError::Forged);
        }
        let (nonce, sealed) = raw.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| SealError::Forged)?;
        let mut sealed = sealed.to_vec();
        let plain = self
            .key
            .open_in_place(nonce, Aad::from(context), &mut sealed)
            .map_err(|_| SealError::Forged)?;
        Ok(plain.to_vec())
    }
}

/// Hex SHA-256 of `bytes`: digests bind a state to arguments and callers
/// without carrying them.
pub fn sha256_hex(bytes: &[u8]) -> String {
    digest::digest(&digest::SHA256, bytes)
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Fills `key` from the kernel's random generator: aws-lc's own starts
/// its jitter entropy source first, 15–20 ms of CPU that every server
/// start paid for a key (it is paid, once, when a first state is sealed).
pub(super) fn os_random(key: &mut [u8]) -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        let mut filled = 0;
        while filled < key.len() {
            // SAFETY: the pointer and length describe the unfilled rest of
            // `key`, which the call only writes into.
            let n = unsafe {
                libc::getrandom(key[filled..].as_mut_ptr().cast(), key.len() - filled, 0)
            };
            if n < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err("the system random generator failed".to_string());
            }
            filled += n as usize;
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        SystemRandom::new()
            .fill(key)
            .map_err(|_| "the system random generator failed".to_string())
    }
}

#[cfg(test)]
#[path = "seal_tests.rs"]
mod tests;
