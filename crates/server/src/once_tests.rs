use super::*;

#[test]
fn a_nonce_is_claimed_once_until_it_expires() {
    let used = UsedOnce::default();
    assert_eq!(used.claim_here("n1", 100, 50), Ok(()));
    assert_eq!(used.claim_here("n1", 100, 60), Err(ClaimError::Used));
    assert_eq!(used.claim_here("n2", 100, 60), Ok(()), "another nonce");
    // Past its expiry the state itself no longer opens; the mark may go.
    assert_eq!(used.claim_here("n1", 200, 101), Ok(()));
}

#[test]
fn expired_marks_are_pruned_and_a_full_memory_refuses() {
    let used = UsedOnce::default();
    for i in 0..PRUNE_FROM {
        used.claim_here(&format!("old{i}"), 10, 5).unwrap();
    }
    // The next claim prunes every expired mark.
    used.claim_here("fresh", 100, 50).unwrap();
    assert_eq!(used.memory.lock().unwrap().until.len(), 1);

    let used = UsedOnce::default();
    for i in 0..MAX_REMEMBERED {
        used.claim_here(&format!("n{i}"), 100, 50).unwrap();
    }
    assert_eq!(
        used.claim_here("one more", 100, 50),
        Err(ClaimError::Full),
        "refused rather than forgetting a mark"
    );
    assert_eq!(used.claim_here("n7", 100, 50), Err(ClaimError::Used));
    // Once they expire there is room again.
    assert_eq!(used.claim_here("one more", 300, 150), Ok(()));
}
