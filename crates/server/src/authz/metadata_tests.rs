//! Unit tests of `metadata.rs` (kept out of generated crates).

use super::*;

#[test]
fn metadata_url_inserts_the_well_known_segment() {
    let r = Url::parse("https://mcp.example.com/mcp").unwrap();
    assert_eq!(
        metadata_url(&r),
        "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
    );
    let root = Url::parse("https://mcp.example.com:8443/").unwrap();
    assert_eq!(
        metadata_url(&root),
        "https://mcp.example.com:8443/.well-known/oauth-protected-resource"
    );
    assert_eq!(paths(&root), vec![WELL_KNOWN.to_string()]);
    assert_eq!(paths(&r).len(), 2);
}

#[test]
fn document_carries_the_required_fields() {
    let r = Url::parse("https://mcp.example.com/mcp").unwrap();
    let d = document(&r, &["https://as.example.com".into()], &[], None);
    assert_eq!(d["resource"], "https://mcp.example.com/mcp");
    assert_eq!(d["authorization_servers"][0], "https://as.example.com");
    assert!(d.get("scopes_supported").is_none());
}
