use super::*;

#[test]
fn an_entry_account_is_the_store_key_on_one_line() {
    let key = "local\nhttps://login.example.com/token\nclient-1";
    assert_eq!(
        account(key),
        "local https://login.example.com/token client-1"
    );
}

#[test]
fn an_entry_that_is_not_ours_is_named_without_its_content() {
    let err = decode("local\nhttps://as/token\nc", b"hunter2-not-json").unwrap_err();
    let message = err.to_string();
    assert!(message.contains("local https://as/token c"), "{message}");
    assert!(message.contains("log in again"), "{message}");
    assert!(!message.contains("hunter2"), "{message}");
}

#[test]
fn tokens_round_trip_through_an_entry_secret() {
    let tokens = StoredTokens {
        access_token: "at".into(),
        refresh_token: Some("rt".into()),
        expires_at: Some(10),
        obtained_at: Some(5),
        scopes: vec!["pets:read".into()],
    };
    let secret = serde_json::to_vec(&tokens).unwrap();
    assert_eq!(decode("k", &secret).unwrap(), tokens);
}

#[test]
fn a_locked_keyring_is_said_to_be_locked() {
    let err = failure(&keyring::Error::NoStorageAccess(Box::new(
        std::io::Error::other("prompt dismissed"),
    )));
    assert!(err.to_string().contains("locked"), "{err}");
    assert!(err.to_string().contains(describe()), "{err}");
}
