use super::*;

#[test]
fn bursts_then_refills_at_the_rate() {
    let limiter = RateLimiter::new(2.0, 3);
    let t0 = Instant::now();
    for _ in 0..3 {
        assert!(limiter.try_acquire_at(t0).is_ok());
    }
    let wait = limiter.try_acquire_at(t0).unwrap_err();
    assert!((wait.as_secs_f64() - 0.5).abs() < 1e-6, "{wait:?}");
    assert!(
        limiter
            .try_acquire_at(t0 + Duration::from_millis(500))
            .is_ok()
    );
    assert!(
        limiter
            .try_acquire_at(t0 + Duration::from_millis(500))
            .is_err()
    );
    // Idle time never stores more than the burst.
    let later = t0 + Duration::from_secs(60);
    for _ in 0..3 {
        assert!(limiter.try_acquire_at(later).is_ok());
    }
    assert!(limiter.try_acquire_at(later).is_err());
}

#[test]
fn a_vanishing_rate_refuses_without_panicking() {
    let limiter = RateLimiter::new(1e-30, 1);
    let t0 = Instant::now();
    assert!(limiter.try_acquire_at(t0).is_ok());
    assert_eq!(limiter.try_acquire_at(t0), Err(Duration::MAX));
}
