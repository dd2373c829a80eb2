use super::*;

#[test]
fn headers_this_server_reads_are_refused_with_the_reason() {
    for name in ["X-Api-Key", "x-tenant", "Accept-Language", "X-Request-Id"] {
        assert_eq!(refusal(name), None, "{name}");
    }
    for (name, because) in [
        ("Authorization", "--forward-authorization"),
        ("mcp-session-id", "take the session over"),
        ("Cookie", "own cookies"),
        ("Content-Length", "framing"),
        ("Proxy-Authorization", "proxy"),
    ] {
        let why = refusal(name).unwrap_or_else(|| panic!("{name} accepted"));
        assert!(why.contains(because), "{name}: {why}");
        assert!(why.contains(&format!("`{name}`")), "{why}");
    }
    for bad in ["", "X Api Key", "X-Api-Key:", "é"] {
        assert!(
            refusal(bad).unwrap().contains("not an HTTP header name"),
            "{bad:?}"
        );
    }
}

#[test]
fn a_call_uses_only_what_the_operator_allowed() {
    let client = Forwarded {
        authorization: Some("Bearer caller".into()),
        headers: vec![
            ("x-api-key".into(), "k1".into()),
            ("x-other".into(), "o".into()),
        ],
    };
    assert_eq!(
        client.allowed(false, &["X-Api-Key".to_string()]),
        Forwarded {
            authorization: None,
            headers: vec![("x-api-key".into(), "k1".into())],
        }
    );
    assert_eq!(
        client.allowed(true, &[]).authorization.as_deref(),
        Some("Bearer caller")
    );
    assert!(client.allowed(true, &[]).headers.is_empty());
}
