//! Unit tests of `token.rs` (kept out of generated crates).

use super::*;

#[test]
fn scopes_come_from_scope_and_scp() {
    let p = principal(Claims {
        iss: Some("https://issuer.example".into()),
        sub: Some("u".into()),
        scope: Some("a b".into()),
        scp: Some(serde_json::json!(["c", "a"])),
        nonce: None,
    });
    assert_eq!(p.issuer.as_deref(), Some("https://issuer.example"));
    assert_eq!(p.scopes.into_iter().collect::<Vec<_>>(), ["a", "b", "c"]);
}

#[test]
fn garbage_and_symmetric_tokens_are_refused() {
    let expect = Expectations {
        issuer: "i".into(),
        audiences: vec!["a".into()],
        leeway: 0,
    };
    let keys = KeySet::default();
    assert!(matches!(
        validate("not-a-jwt", &keys, &expect),
        Err(TokenError::Invalid(_))
    ));
    // {"alg":"HS256","typ":"JWT"}.{}.sig
    let hs = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.c2ln";
    let err = validate(hs, &keys, &expect).unwrap_err();
    assert!(err.to_string().contains("HS256"), "{err}");
}
