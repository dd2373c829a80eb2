//! Unit tests of `jwks.rs` (kept out of generated crates).

use super::*;

#[test]
fn discovery_urls_follow_rfc_8414_and_oidc() {
    assert_eq!(
        discovery_urls("https://as.example.com/tenant1").unwrap(),
        [
            "https://as.example.com/.well-known/oauth-authorization-server/tenant1",
            "https://as.example.com/tenant1/.well-known/openid-configuration"
        ]
    );
    assert_eq!(
        discovery_urls("https://as.example.com/").unwrap()[0],
        "https://as.example.com/.well-known/oauth-authorization-server"
    );
    assert!(discovery_urls("not a url").is_err());
}

#[test]
fn jwks_without_keys_is_an_error_and_odd_keys_are_skipped() {
    assert!(parse_jwks(&serde_json::json!({})).is_err());
    let set = parse_jwks(&serde_json::json!({"keys": [{"kty": "weird"}]})).unwrap();
    assert!(set.keys.is_empty());
}
