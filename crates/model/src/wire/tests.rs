use super::header::*;
use super::media::*;
use super::*;

#[test]
fn essence_drops_parameters_and_case() {
    assert_eq!(
        essence(" Application/JSON ; charset=utf-8"),
        "application/json"
    );
    assert_eq!(essence(""), "");
    assert_eq!(
        well_formed_essence("Text/Plain; a=b").as_deref(),
        Some("text/plain")
    );
    for bad in ["", "text", "text/", "/plain", "a/b/c"] {
        assert_eq!(well_formed_essence(bad), None, "{bad}");
    }
}

#[test]
fn media_kinds() {
    assert!(is_json("application/vnd.api+json; charset=utf-8"));
    assert!(is_json("text/json"));
    assert!(!is_json("application/x-ndjson"));
    assert_eq!(MediaKind::of("multipart/mixed"), MediaKind::Multipart);
    assert_eq!(
        MediaKind::of("application/x-www-form-urlencoded"),
        MediaKind::Form
    );
    assert_eq!(MediaKind::of("application/x-yaml"), MediaKind::Text);
    assert_eq!(MediaKind::of("image/png"), MediaKind::Binary);
}

#[test]
fn tokens_cookies_and_header_text() {
    assert!(is_token("X-Api-Key"));
    assert!(!is_token(""));
    assert!(!is_token("api key"));
    assert!(!is_token("a:b"));
    assert!(is_cookie_octet(b'a') && !is_cookie_octet(b';') && !is_cookie_octet(b' '));
    assert!(has_line_break("a\r\nb") && has_line_break("a\0") && !has_line_break("a\tb"));
    assert!(has_control("a\u{7}") && has_control("a\u{85}") && !has_control("a\tb"));
    assert!(is_header_value("Bearer abc") && !is_header_value("a\nb"));
}

#[test]
fn error_chain_names_each_cause_once() {
    #[derive(Debug)]
    struct E(&'static str, Option<Box<E>>);
    impl std::fmt::Display for E {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }
    impl std::error::Error for E {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|e| e as _)
        }
    }
    let e = E(
        "send failed",
        Some(Box::new(E(
            "send failed",
            Some(Box::new(E("refused", None))),
        ))),
    );
    assert_eq!(error_chain(&e), "send failed: refused");
}

#[test]
fn redact_url_masks_user_info_and_query_values_only() {
    assert_eq!(
        redact_url("https://alice:pa55@api.example.com:8443/v1/openapi.json?token=abc&page=2#x"),
        "https://***@api.example.com:8443/v1/openapi.json?token=***&page=***#x"
    );
    assert_eq!(
        redact_url("https://ghp_TOKEN@raw.example.com/spec.yaml"),
        "https://***@raw.example.com/spec.yaml"
    );
    assert_eq!(
        redact_url("http://127.0.0.1/doc?s3cret&a=&b=c=d"),
        "http://127.0.0.1/doc?***&a=***&b=***"
    );
    assert_eq!(
        redact_url("https://h.example/cb#access_token=xyz&state=1"),
        "https://h.example/cb#access_token=***&state=***"
    );
    assert_eq!(
        redact_url("https://api.example.com/openapi.json"),
        "https://api.example.com/openapi.json"
    );
    for path in [
        "specs/petstore.yaml",
        "/abs/path?x=1.yaml",
        "C:\\api.json",
        "",
    ] {
        assert_eq!(redact_url(path), path);
    }
}

#[test]
fn display_url_masks_user_info_and_drops_query_and_fragment() {
    assert_eq!(
        display_url("http://user:pa55@127.0.0.1:8080/v1/items/1?api_key=k3y#frag"),
        "http://***@127.0.0.1:8080/v1/items/1"
    );
    assert_eq!(
        display_url("https://api.example.com/v1/pets?page=2"),
        "https://api.example.com/v1/pets"
    );
    // Not parseable, but a URL all the same: user info and query cut by hand.
    assert_eq!(
        display_url("http://user:pa55@[bad/path?token=t0k"),
        "http://***@[bad/path"
    );
    assert_eq!(
        mask_url("http://user:pa55@[bad/path?token=t0k", UrlQuery::Masked),
        "http://***@[bad/path?***"
    );
    assert_eq!(display_url("specs/petstore.yaml"), "specs/petstore.yaml");
}

#[test]
fn urls_inside_messages_are_masked() {
    assert_eq!(
        redact_urls_in(
            "error sending request for url (http://u:p4ss@127.0.0.1:9/x?api_key=k3y&page=2): refused"
        ),
        "error sending request for url (http://***@127.0.0.1:9/x?api_key=***&page=***): refused"
    );
    assert_eq!(
        redact_urls_in("see https://h.example/a?sig=abc and ftp://x@y/z"),
        "see https://h.example/a?sig=*** and ftp://***@y/z"
    );
    assert_eq!(redact_urls_in("no url here"), "no url here");
    assert_eq!(redact_urls_in("odd :// alone"), "odd :// alone");
}

#[test]
fn urls_after_non_ascii_text_are_masked_without_panicking() {
    assert_eq!(
        redact_urls_in("échec: éhttp://u:p@h/x?k=v"),
        "échec: éhttp://***@h/x?k=***"
    );
}
