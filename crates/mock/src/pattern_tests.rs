use super::sample;

#[test]
fn common_patterns() {
    assert_eq!(
        sample("^[0-9a-f]{40}$").as_deref(),
        Some(&"0".repeat(40)[..])
    );
    assert_eq!(sample("^[A-Z]{2}-\\d+$").as_deref(), Some("AA-0"));
    assert_eq!(sample("^(foo|bar)/[^/]+$").as_deref(), Some("foo/a"));
    assert_eq!(sample("^(?:v)?\\d+\\.\\d+$").as_deref(), Some("0.0"));
    assert_eq!(sample("(?=x)a"), None);
    assert_eq!(sample("((a{64}){64}){64}"), None);
    assert_eq!(sample("[z-a]"), None, "an invalid pattern is no panic");
}
