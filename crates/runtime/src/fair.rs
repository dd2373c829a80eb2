//! Fair shares of a bounded pool (code-mode scripts, selector workers):
//! at most `total` holders at once, and at most `per_caller` of them for
//! any one caller, so a caller that saturates its own share leaves the
//! rest of the pool to others instead of making them wait. A caller is
//! whatever key the server tells callers apart by (the principal, a
//! digest of the `Authorization` header, the session); a call with no
//! caller (stdio's one client, anonymous stateless HTTP) is bounded by
//! the total only.
//!
//! Which caller the current task works for travels with it
//! ([`as_caller`], read by [`current_caller`]), as the person of a login
//! does: the selector of a call runs deep inside the runtime, where the
//! server's request is not in sight.
//!
//! Self-contained: no imports from the rest of the crate.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The share of a pool of `total` one caller may hold: a quarter of it,
/// at least one (with a pool of one, the whole pool).
pub fn share_of(total: usize) -> usize {
    (total / 4).max(1)
}

/// A pool of `total` slots shared fairly between callers (see the module
/// documentation). Cheap to share: hand out `&'static` or wrap in an
/// `Arc`.
pub struct FairPool {
    total: Arc<Semaphore>,
    size: usize,
    per_caller: usize,
    /// Each caller's own semaphore, while it holds or waits for a slot
    /// (removed when its last permit is returned and nobody waits).
    callers: Arc<Mutex<HashMap<String, Arc<Semaphore>>>>,
}

/// Why no slot was had within the wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Busy {
    /// The caller already holds its whole share (`share` of `total`).
    Caller {
        /// The caller's share.
        share: usize,
        /// The pool's size.
        total: usize,
    },
    /// Every slot of the pool is taken (by other callers too).
    Pool {
        /// The pool's size.
        total: usize,
    },
}

/// A held slot; returned when dropped.
pub struct FairPermit {
    _total: OwnedSemaphorePermit,
    own: Option<(String, OwnedSemaphorePermit)>,
    callers: Arc<Mutex<HashMap<String, Arc<Semaphore>>>>,
    per_caller: usize,
}

impl Drop for FairPermit {
    fn drop(&mut self) {
        let Some((caller, permit)) = self.own.take() else {
            return;
        };
        drop(permit);
        let mut callers = self.callers.lock().unwrap_or_else(|e| e.into_inner());
        // Forgotten once idle: held by the map alone (nobody waits on it)
        // with every permit back.
        if callers.get(&caller).is_some_and(|own| {
            Arc::strong_count(own) == 1 && own.available_permits() == self.per_caller
        }) {
            callers.remove(&caller);
        }
    }
}

impl FairPool {
    /// A pool of `total` slots (at least one), at most `per_caller` (at
    /// least one, at most `total`) per caller.
    pub fn new(total: usize, per_caller: usize) -> Self {
        let total = total.max(1);
        Self {
            total: Arc::new(Semaphore::new(total)),
            size: total,
            per_caller: per_caller.clamp(1, total),
            callers: Arc::default(),
        }
    }

    /// The pool's size.
    pub fn total(&self) -> usize {
        self.size
    }

    /// One caller's share.
    pub fn per_caller(&self) -> usize {
        self.per_caller
    }

    /// A slot for `caller` (`None`: bounded by the total only), waiting
    /// at most `wait` in all: first for one of the caller's own share,
    /// then for one of the pool's. Waiters are served in turn.
    pub async fn acquire(&self, caller: Option<&str>, wait: Duration) -> Result<FairPermit, Busy> {
        let deadline = tokio::time::Instant::now() + wait;
        let own = match caller {
            None => None,
            Some(caller) => {
                let semaphore = {
                    let mut callers = self.callers.lock().unwrap_or_else(|e| e.into_inner());
                    Arc::clone(
                        callers
                            .entry(caller.to_string())
                            .or_insert_with(|| Arc::new(Semaphore::new(self.per_caller))),
                    )
                };
                let acquired =
                    tokio::time::timeout_at(deadline, Arc::clone(&semaphore).acquire_owned()).await;
                drop(semaphore);
                match acquired {
                    Ok(Ok(permit)) => Some((caller.to_string(), permit)),
                    _ => {
                        self.forget_if_idle(caller);
                        return Err(Busy::Caller {
                            share: self.per_caller,
                            total: self.size,
                        });
                    }
                }
            }
        };
        let total = match tokio::time::timeout_at(deadline, Arc::clone(&self.total).acquire_owned())
            .await
        {
            Ok(Ok(permit)) => permit,
            _ => {
                if let Some((caller, permit)) = own {
                    drop(permit);
                    self.forget_if_idle(&caller);
                }
                return Err(Busy::Pool { total: self.size });
            }
        };
        Ok(FairPermit {
            _total: total,
            own,
            callers: Arc::clone(&self.callers),
            per_caller: self.per_caller,
        })
    }

    /// Removes `caller`'s semaphore when nobody holds or waits for it.
    fn forget_if_idle(&self, caller: &str) {
        let mut callers = self.callers.lock().unwrap_or_else(|e| e.into_inner());
        if callers.get(caller).is_some_and(|own| {
            Arc::strong_count(own) == 1 && own.available_permits() == self.per_caller
        }) {
            callers.remove(caller);
        }
    }

    /// How many callers hold or wait for a slot now.
    pub fn callers(&self) -> usize {
        self.callers.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

tokio::task_local! {
    static CALLER: Option<String>;
}

/// Runs `fut` on behalf of `caller` (see [`current_caller`]).
pub async fn as_caller<F: Future>(caller: Option<String>, fut: F) -> F::Output {
    CALLER.scope(caller, fut).await
}

/// The caller the current task works for ([`as_caller`]); `None` outside
/// one, or for a caller not told apart from others.
pub fn current_caller() -> Option<String> {
    CALLER.try_with(Clone::clone).ok().flatten()
}

#[cfg(test)]
#[path = "fair_tests.rs"]
mod tests;
