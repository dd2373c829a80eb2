use super::*;

#[test]
fn tokens_round_trip() {
    for token in ["a/b", "~x", "~1", "plain", ""] {
        assert_eq!(unescape_token(&escape_token(token)), token);
    }
    assert_eq!(push_token("/paths", "/a~b"), "/paths/~1a~0b");
    assert_eq!(pointer_tokens("/a~1b/~01").unwrap(), ["a/b", "~1"]);
    assert_eq!(pointer_tokens("").unwrap(), Vec::<String>::new());
    assert!(pointer_tokens("a").is_err());
    assert!(matches!(unescaped("plain"), Cow::Borrowed("plain")));
    assert_eq!(tokens("/a/~1").unwrap().collect::<Vec<_>>(), ["a", "/"]);
}

#[test]
fn indexes_are_canonical() {
    assert_eq!(parse_index("0"), Some(0));
    assert_eq!(parse_index("12"), Some(12));
    for bad in ["", "01", "-1", "1a", "99999999999999999999999"] {
        assert_eq!(parse_index(bad), None, "{bad}");
    }
}
