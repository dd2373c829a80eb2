//! Unit tests of `authz/mod.rs` (kept out of generated crates).

use super::*;

#[test]
fn tool_names_come_from_calls_only() {
    let b = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#;
    assert_eq!(called_tools(b), [("x".to_string(), None)]);
    let through = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"delete_pet"}}}"#;
    assert_eq!(
        called_tools(through),
        [("call_tool".to_string(), Some("delete_pet".to_string()))]
    );
    let list = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    assert!(called_tools(list).is_empty());
    assert!(called_tools(b"garbage").is_empty());
}

#[test]
fn challenge_params_are_quoted() {
    assert_eq!(quote("a \"b\"\n"), "a \\\"b\\\"");
}

#[test]
fn bad_urls_name_their_flag() {
    let e = Authorizer::new(AuthzOptions::new("/mcp", "https://as", None))
        .err()
        .unwrap();
    assert!(e.contains("--resource-url"), "{e}");
}
