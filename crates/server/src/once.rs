//! Values that may be used once: the nonce sealed into a confirmation's
//! `requestState` ([`super::confirm`]). A sealed state is valid until it
//! expires, so without this a person's one "yes" could be sent back any
//! number of times within those minutes, each time sending the request
//! again. A nonce is marked used when its confirmation is accepted and
//! remembered until the state expires: in this process's memory, or, when
//! the token store is shared between instances (Redis), in that store, so
//! that no instance behind a load balancer accepts it twice.

use std::collections::HashMap;
use std::sync::Mutex;

use openapi2mcp_runtime::auth::login::now_secs;
use openapi2mcp_runtime::auth::store::TokenStore;

/// Most nonces remembered in memory at once (each is held until its state
/// expires, ten minutes at most): past it, further confirmations are
/// refused until some expire, rather than forgetting one and letting it be
/// replayed. At about 100 bytes each, 10 MB.
pub(super) const MAX_REMEMBERED: usize = 100_000;

/// Entries are pruned of the expired whenever the map reaches this size
/// or twice its size after the last prune.
const PRUNE_FROM: usize = 1_024;

/// Why a nonce could not be claimed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum ClaimError {
    /// Used before: a replay.
    #[error("already used")]
    Used,
    /// [`MAX_REMEMBERED`] unexpired nonces are held already.
    #[error(
        "{MAX_REMEMBERED} confirmations given in the last minutes are still remembered; try again in a few minutes"
    )]
    Full,
    /// The shared store did not answer; failing closed.
    #[error("the shared store did not answer: {0}")]
    Store(String),
}

/// The nonces used so far, each until its state's expiry.
#[derive(Default)]
pub(super) struct UsedOnce {
    memory: Mutex<Remembered>,
}

#[derive(Default)]
struct Remembered {
    /// Nonce → expiry, seconds since the epoch.
    until: HashMap<String, u64>,
    prune_at: usize,
}

impl UsedOnce {
    /// Marks `nonce` used until `until` (seconds since the epoch); an
    /// error if it was used before, or cannot be remembered. `shared` is
    /// the token store: where it is shared by instances it keeps the mark
    /// (and this process's memory is not consulted).
    pub(super) async fn claim(
        &self,
        nonce: &str,
        until: u64,
        shared: Option<&dyn TokenStore>,
    ) -> Result<(), ClaimError> {
        if let Some(store) = shared {
            match store.claim_once(&format!("confirm|{nonce}"), until).await {
                Ok(Some(true)) => return Ok(()),
                Ok(Some(false)) => return Err(ClaimError::Used),
                Ok(None) => {}
                Err(e) => return Err(ClaimError::Store(e.to_string())),
            }
        }
        self.claim_here(nonce, until, now_secs())
    }

    /// [`UsedOnce::claim`] in this process's memory, at `now`.
    fn claim_here(&self, nonce: &str, until: u64, now: u64) -> Result<(), ClaimError> {
        let mut memory = self.memory.lock().unwrap_or_else(|e| e.into_inner());
        if memory.until.get(nonce).is_some_and(|&x| x >= now) {
            return Err(ClaimError::Used);
        }
        let len = memory.until.len();
        if len >= memory.prune_at.max(PRUNE_FROM) || len >= MAX_REMEMBERED {
            memory.until.retain(|_, x| *x >= now);
            memory.prune_at = (memory.until.len() * 2).max(PRUNE_FROM);
        }
        if memory.until.len() >= MAX_REMEMBERED {
            tracing::warn!(
                "confirmation refused: {MAX_REMEMBERED} used confirmations are remembered until they expire"
            );
            return Err(ClaimError::Full);
        }
        memory.until.insert(nonce.to_string(), until);
        Ok(())
    }
}

#[cfg(test)]
#[path = "once_tests.rs"]
mod tests;
