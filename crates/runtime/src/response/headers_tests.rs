use super::*;

fn h(name: &str, value: &str) -> (String, String) {
    (name.to_string(), value.to_string())
}

#[test]
fn declared_and_well_known_headers_are_shown_and_framing_and_credentials_never() {
    let headers = vec![
        h("Content-Type", "application/json"),
        h("ETag", "W/\"abc\""),
        h("X-RateLimit-Remaining", "59"),
        h("RateLimit-Policy", "100;w=60"),
        h("Set-Cookie", "session=s3cret"),
        h("X-Subject-Token", "s3cret"),
        h("x-request-id", "r1"),
        h("X-Served-By", "cache-1"),
        h("Next-Page", "https://api.example.com/x?_token=1"),
        h("Total-Records", "7"),
    ];
    let declared = vec![
        "X-Request-Id".to_string(),
        "Total-Records".to_string(),
        "X-Subject-Token".to_string(),
    ];
    let picked = shown(&headers, &declared);
    let names: Vec<&str> = picked.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "ETag",
            "X-RateLimit-Remaining",
            "RateLimit-Policy",
            "X-Request-Id",
            "Next-Page",
            "Total-Records"
        ]
    );
    let text = render(&picked).unwrap();
    assert!(
        text.starts_with("Response headers:\nETag: W/\"abc\"\n"),
        "{text}"
    );
    assert!(!text.contains("s3cret"), "{text}");
    assert_eq!(render(&[]), None);
    // A presigned URL's signature is a credential the call did not send.
    let located = shown(
        &[h("Location", "https://s.example/op/1?sig=abc123&v=2")],
        &[],
    );
    assert_eq!(located[0].1, "https://s.example/op/1?sig=***&v=***");
    let linked = shown(
        &[h(
            "Link",
            "<https://a.example/x?page=2&key=k>; rel=\"next\"",
        )],
        &[],
    );
    assert_eq!(
        linked[0].1,
        "<https://a.example/x?page=***&key=***>; rel=\"next\""
    );
}

#[test]
fn repeated_headers_are_joined_and_everything_is_bounded() {
    let headers = vec![h("Link", "<a>; rel=next"), h("link", "<b>; rel=last")];
    assert_eq!(
        shown(&headers, &[]),
        vec![h("Link", "<a>; rel=next, <b>; rel=last")]
    );
    let long = "é".repeat(MAX_VALUE_BYTES);
    let cut = shown(&[h("ETag", &long)], &[]);
    assert!(cut[0].1.len() <= MAX_VALUE_BYTES + '…'.len_utf8());
    assert!(cut[0].1.ends_with('…'));
    let many: Vec<(String, String)> = (0..100)
        .map(|i| h(&format!("X-RateLimit-{i}"), "1"))
        .collect();
    assert_eq!(shown(&many, &[]).len(), MAX_SHOWN);
    let repeated: Vec<(String, String)> = (0..1000).map(|_| h("Link", "<x>; rel=next")).collect();
    assert!(shown(&repeated, &[])[0].1.len() <= MAX_VALUE_BYTES + '…'.len_utf8());
}

#[test]
fn next_page_headers_are_named_by_the_word_next() {
    for name in ["next-page", "x-next-cursor", "x-pagination-next", "next"] {
        assert!(names_next(name), "{name}");
    }
    for name in ["x-nextcloud-version", "context", "x-total-count"] {
        assert!(!names_next(name), "{name}");
    }
}
