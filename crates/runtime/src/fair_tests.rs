//! Unit tests of `fair.rs`.

use std::time::Duration;

use super::*;

const NO_WAIT: Duration = Duration::from_millis(0);

#[tokio::test]
async fn a_caller_holding_its_share_leaves_the_rest_to_others() {
    let pool = FairPool::new(4, 2);
    let x1 = pool.acquire(Some("x"), NO_WAIT).await.unwrap();
    let _x2 = pool.acquire(Some("x"), NO_WAIT).await.unwrap();
    // X's third waits for X's own share, not for the pool.
    let x3 = pool.acquire(Some("x"), Duration::from_secs(60));
    tokio::pin!(x3);
    assert!(
        tokio::time::timeout(Duration::from_millis(50), &mut x3)
            .await
            .is_err(),
        "x waits for its share"
    );
    // Y is served at once, while X waits.
    let y = pool.acquire(Some("y"), NO_WAIT).await;
    assert!(y.is_ok(), "y is not delayed by x: {:?}", y.err());
    // X's waiter gets the slot X gives back.
    drop(x1);
    let x3 = tokio::time::timeout(Duration::from_secs(5), x3)
        .await
        .expect("x's waiter is served once x returns a slot");
    assert!(x3.is_ok());
    // A caller over its share within the wait is told so.
    assert_eq!(
        pool.acquire(Some("x"), NO_WAIT).await.err(),
        Some(Busy::Caller { share: 2, total: 4 })
    );
}

#[tokio::test]
async fn the_total_bounds_every_caller_together() {
    let pool = FairPool::new(2, 1);
    let _a = pool.acquire(Some("a"), NO_WAIT).await.unwrap();
    let _b = pool.acquire(None, NO_WAIT).await.unwrap();
    assert_eq!(
        pool.acquire(Some("c"), NO_WAIT).await.err(),
        Some(Busy::Pool { total: 2 })
    );
    // A caller that never got a slot leaves nothing behind.
    assert_eq!(pool.callers(), 1);
}

#[tokio::test]
async fn callers_are_forgotten_once_idle() {
    let pool = FairPool::new(8, 2);
    for i in 0..100 {
        let permit = pool.acquire(Some(&format!("c{i}")), NO_WAIT).await.unwrap();
        drop(permit);
    }
    assert_eq!(pool.callers(), 0);
    assert_eq!(share_of(8), 2);
    assert_eq!(share_of(2), 1);
    assert_eq!(share_of(1), 1);
}

#[tokio::test]
async fn the_caller_travels_with_the_task() {
    assert_eq!(current_caller(), None);
    let seen = as_caller(Some("x".into()), async { current_caller() }).await;
    assert_eq!(seen.as_deref(), Some("x"));
}
