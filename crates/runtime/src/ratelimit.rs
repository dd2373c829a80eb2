//! A token bucket limiting how many tool calls reach the API: `rate` calls
//! per second on average, bursts of up to `burst`. Off unless configured.
//! A call over the limit is refused at once (no queueing), with the time
//! after which a retry will pass, so the model can wait instead of hammering.
//!
//! Self-contained: std only.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A shared token bucket.
#[derive(Debug)]
pub struct RateLimiter {
    rate: f64,
    burst: f64,
    state: Mutex<Bucket>,
}

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    last: Instant,
}

impl RateLimiter {
    /// `rate` calls per second (must be > 0), bursts of `burst` (at least 1).
    pub fn new(rate: f64, burst: u32) -> Self {
        let burst = f64::from(burst.max(1));
        Self {
            rate: if rate.is_finite() && rate > 0.0 {
                rate
            } else {
                f64::MIN_POSITIVE
            },
            burst,
            state: Mutex::new(Bucket {
                tokens: burst,
                last: Instant::now(),
            }),
        }
    }

    /// Takes one token, or says how long until one is available.
    pub fn try_acquire(&self) -> Result<(), Duration> {
        self.try_acquire_at(Instant::now())
    }

    fn try_acquire_at(&self, now: Instant) -> Result<(), Duration> {
        let mut b = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let elapsed = now.saturating_duration_since(b.last).as_secs_f64();
        b.tokens = (b.tokens + elapsed * self.rate).min(self.burst);
        b.last = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            Ok(())
        } else {
            // A rate too small for a `Duration` (1e-30 a second) waits forever.
            Err(Duration::try_from_secs_f64((1.0 - b.tokens) / self.rate).unwrap_or(Duration::MAX))
        }
    }
}

#[cfg(test)]
#[path = "ratelimit_tests.rs"]
mod tests;
