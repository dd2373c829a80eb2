use super::*;

fn tokens(expires_in: Option<u64>, lifetime: u64) -> StoredTokens {
    let now = now_secs();
    StoredTokens {
        access_token: "a".into(),
        refresh_token: None,
        expires_at: expires_in.map(|e| now + e),
        obtained_at: expires_in.map(|e| now + e - lifetime),
        scopes: Vec::new(),
    }
}

#[test]
fn tokens_are_refreshed_a_minute_or_half_their_life_early() {
    assert!(fresh(&tokens(None, 0)), "no expiry: kept");
    assert!(fresh(&tokens(Some(3_000), 3_600)));
    assert!(
        !fresh(&tokens(Some(30), 3_600)),
        "within a minute of expiry"
    );
    assert!(
        fresh(&tokens(Some(3), 4)),
        "short-lived: half its life ahead"
    );
    assert!(!fresh(&tokens(Some(1), 4)));
}

#[tokio::test]
async fn the_person_of_a_call_is_scoped() {
    assert_eq!(current_user(), LOCAL_USER);
    let inside = as_user(Some("iss|alice".into()), async { current_user() }).await;
    assert_eq!(inside, "iss|alice");
    assert_eq!(current_user(), LOCAL_USER);
}
