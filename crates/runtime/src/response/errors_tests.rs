//! Unit tests of error responses, redirects, unexpected statuses and
//! transport failures. The helpers are the parent test module's.

use super::*;

#[test]
fn not_found_with_json_body() {
    let r = resp(404, Some("application/json"), br#"{"error":"no pet"}"#);
    assert_eq!(
        map(&r, Some(&OutputShape::Object)),
        ToolOutcome {
            content: vec![
                text(
                    "HTTP 404 Not Found from GET https://api.example.com/pets/1\nThe resource does not exist, or an identifier in the arguments is wrong. Check the identifiers (for example by listing or searching first) instead of retrying unchanged."
                ),
                text("{\n  \"error\": \"no pet\"\n}"),
            ],
            structured: None,
            is_error: true,
        }
    );
}

#[test]
fn unauthorized_hint() {
    let r = resp(401, None, b"");
    assert_eq!(
        map(&r, None),
        ToolOutcome {
            content: vec![text(
                "HTTP 401 Unauthorized from GET https://api.example.com/pets/1\nAuthentication failed: credentials are missing or invalid. Credentials are configured for the MCP server (environment or configuration), not passed as tool arguments; ask the user to configure them. Retrying unchanged will not help."
            )],
            structured: None,
            is_error: true,
        }
    );
}

#[test]
fn forbidden_and_unprocessable_hints() {
    let forbidden = map(&resp(403, None, b""), None);
    assert!(
        matches!(&forbidden.content[0], Content::Text(t) if t.starts_with("HTTP 403 Forbidden from GET") && t.contains("not passed as tool arguments"))
    );
    let bad = map(&resp(422, Some("text/plain"), b"name is required"), None);
    assert_eq!(
        bad.content,
        vec![
            text(
                "HTTP 422 Unprocessable Content from GET https://api.example.com/pets/1\nThe API rejected the arguments. Check them against the tool's input schema (required properties, types, formats, allowed values) and the error details below, then call again with corrected arguments."
            ),
            text("name is required"),
        ]
    );
    assert!(bad.is_error);
}

#[test]
fn rate_limited_with_retry_after() {
    let r = with_header(resp(429, None, b""), "RETRY-AFTER", " 30 ");
    assert_eq!(
        map(&r, None).content,
        vec![text(
            "HTTP 429 Too Many Requests from GET https://api.example.com/pets/1\nRate limited: too many requests. Wait 30 seconds (Retry-After: 30) before calling again."
        )]
    );
    let dated = with_header(
        resp(429, None, b""),
        "Retry-After",
        "Wed, 21 Oct 2015 07:28:00 GMT",
    );
    assert_eq!(
        map(&dated, None).content,
        vec![text(
            "HTTP 429 Too Many Requests from GET https://api.example.com/pets/1\nRate limited: too many requests. Wait until Wed, 21 Oct 2015 07:28:00 GMT (Retry-After) before calling again."
        )]
    );
}

#[test]
fn rate_limited_without_retry_after() {
    let out = map(&resp(429, None, b""), None);
    assert_eq!(
        out.content,
        vec![text(
            "HTTP 429 Too Many Requests from GET https://api.example.com/pets/1\nRate limited: too many requests. Wait before calling again, and make fewer calls (for example larger pages instead of many small ones)."
        )]
    );
}

#[test]
fn server_error() {
    let r = resp(500, Some("text/html"), b"<h1>oops</h1>");
    assert_eq!(
        map(&r, Some(&OutputShape::Object)),
        ToolOutcome {
            content: vec![
                text(
                    "HTTP 500 Internal Server Error from GET https://api.example.com/pets/1\nThe API failed while handling the request; this is a server-side problem. Retrying later may help."
                ),
                text("<h1>oops</h1>"),
            ],
            structured: None,
            is_error: true,
        }
    );
    let busy = with_header(resp(503, None, b""), "Retry-After", "1");
    assert_eq!(
        map(&busy, None).content,
        vec![text(
            "HTTP 503 Service Unavailable from GET https://api.example.com/pets/1\nThe API failed while handling the request; this is a server-side problem. Retrying later may help. Wait 1 second (Retry-After: 1) first."
        )]
    );
}

#[test]
fn error_body_truncated_gets_marker() {
    let mut r = resp(500, Some("application/json"), br#"{"trace":"#);
    r.truncated = true;
    let limits = ResponseLimits { max_body_bytes: 9 };
    let out = from_response(&r, None, &limits, GET);
    assert_eq!(out.content[1], text(&format!("{{\"trace\":{}", marker(9))));
}

#[test]
fn redirect_names_location() {
    let r = with_header(
        resp(302, Some("text/html"), b"<a>moved</a>"),
        "Location",
        "https://new.example.com/pets/1",
    );
    assert_eq!(
        map(&r, None),
        ToolOutcome {
            content: vec![text(
                "HTTP 302 Found from GET https://api.example.com/pets/1\nThe server redirected to https://new.example.com/pets/1, which was not followed. If the new location is on the same API, the configured base URL may be out of date; otherwise this operation may not be usable through this tool."
            )],
            structured: None,
            is_error: true,
        }
    );
}

#[test]
fn redirect_without_location() {
    let out = map(&resp(307, None, b""), None);
    assert!(out.is_error);
    assert!(
        matches!(&out.content[0], Content::Text(t) if t.contains("a redirect but no Location header"))
    );
}

#[test]
fn not_modified_is_not_an_error() {
    let out = map(&resp(304, None, b""), None);
    assert!(!out.is_error);
    assert!(
        matches!(&out.content[0], Content::Text(t) if t.starts_with("HTTP 304 Not Modified from GET"))
    );
}

#[test]
fn unexpected_status_codes() {
    for status in [0, 101, 600, 999] {
        let out = map(&resp(status, None, b"x"), None);
        assert!(out.is_error, "{status}");
        assert!(
            matches!(&out.content[0], Content::Text(t) if t.starts_with(&format!("HTTP {status}")))
        );
    }
    let odd = map(&resp(499, None, b""), None);
    assert!(matches!(&odd.content[0], Content::Text(t) if t.starts_with("HTTP 499 from GET")));
    let odd_ok = map(&resp(299, None, b""), None);
    assert_eq!(
        odd_ok.content,
        vec![text(
            "HTTP 299: the request succeeded with no response body."
        )]
    );
}

#[test]
fn transport_connect() {
    let out = from_transport_failure(&TransportFailure::Connect("connection refused".into()), GET);
    assert_eq!(
        out,
        ToolOutcome {
            content: vec![text(
                "Could not connect to https://api.example.com (connection refused). The API server may be down or the base URL wrong; retrying will not help until it is reachable."
            )],
            structured: None,
            is_error: true,
        }
    );
}

#[test]
fn transport_dns() {
    let out = from_transport_failure(&TransportFailure::Dns(String::new()), GET);
    assert_eq!(
        out.content,
        vec![text(
            "Could not resolve the host name of https://api.example.com. The host name in the base URL may be misspelled, or this machine has no DNS or network access; retrying will not help until it resolves."
        )]
    );
    assert!(out.is_error);
}

#[test]
fn transport_timeout_safe_and_unsafe() {
    let get = from_transport_failure(&TransportFailure::Timeout { seconds: 30.0 }, GET);
    assert_eq!(
        get.content,
        vec![text(
            "GET https://api.example.com/pets/1 timed out after 30 seconds without a response. The API may be slow or overloaded; retrying later may help, or narrow the request (fewer items, a smaller page) so it completes sooner."
        )]
    );
    assert!(get.is_error);
    let post = from_transport_failure(
        &TransportFailure::Timeout { seconds: 2.5 },
        "POST https://api.example.com/pets",
    );
    assert_eq!(
        post.content,
        vec![text(
            "POST https://api.example.com/pets timed out after 2.5 seconds without a response. The API may be slow or overloaded; retrying later may help, or narrow the request (fewer items, a smaller page) so it completes sooner. The request may still have taken effect: check before repeating it."
        )]
    );
    let weird = from_transport_failure(&TransportFailure::Timeout { seconds: f64::NAN }, GET);
    assert!(
        matches!(&weird.content[0], Content::Text(t) if t.starts_with("GET https://api.example.com/pets/1 timed out without"))
    );
}

#[test]
fn transport_tls() {
    let out = from_transport_failure(&TransportFailure::Tls("certificate expired".into()), GET);
    assert_eq!(
        out.content,
        vec![text(
            "The secure (TLS) connection to https://api.example.com failed (certificate expired). The server's certificate may be invalid, expired or self-signed, or the server may not speak HTTPS on that port; retrying will not help until the server or the base URL is fixed."
        )]
    );
    assert!(out.is_error);
}

#[test]
fn transport_other() {
    let out = from_transport_failure(&TransportFailure::Other("connection reset".into()), GET);
    assert_eq!(
        out,
        ToolOutcome {
            content: vec![text(
                "GET https://api.example.com/pets/1 failed before any response arrived (connection reset). This may be a passing network problem; retrying may help."
            )],
            structured: None,
            is_error: true,
        }
    );
}

#[test]
fn transport_with_odd_request_lines() {
    for line in ["", "GET", "https://host", "GET not-a-url", "  "] {
        let out = from_transport_failure(&TransportFailure::Connect("x".into()), line);
        assert!(out.is_error);
    }
    let bare = from_transport_failure(
        &TransportFailure::Connect("refused".into()),
        "https://h:8080",
    );
    assert!(
        matches!(&bare.content[0], Content::Text(t) if t.starts_with("Could not connect to https://h:8080 (refused)."))
    );
}

#[test]
fn invalid_arguments_outcome() {
    assert_eq!(
        invalid_arguments("missing required argument `petId`"),
        ToolOutcome {
            content: vec![text(
                "Invalid arguments: missing required argument `petId`\nNo request was sent. Correct the arguments to match the tool's input schema and call the tool again."
            )],
            structured: None,
            is_error: true,
        }
    );
}

#[test]
fn request_line_parsing() {
    assert_eq!(url_origin("https://a.b:1/x?y"), "https://a.b:1");
    assert_eq!(url_origin("https://a.b?y"), "https://a.b");
    assert_eq!(url_path("https://a.b/x/y?z#w"), "/x/y");
    assert_eq!(url_path("https://a.b"), "");
    assert_eq!(url_path("/rel/path?q"), "/rel/path");
    assert_eq!(resource_uri("GET"), "openapi2mcp://response/");
    assert_eq!(
        resource_uri("GET https://h//a//b/"),
        "openapi2mcp://response/a/b"
    );
    assert_eq!(
        resource_uri("GET https://h/é/x y"),
        "openapi2mcp://response/_/x_y"
    );
}

#[test]
fn never_panics_on_odd_input() {
    let bodies: [&[u8]; 6] = [b"", b"\xff", b"\xf0", b"{", b"\xe2\x82", b"\x00\x00"];
    let types = [
        None,
        Some(""),
        Some("/"),
        Some("a/b/c"),
        Some("text/plain; charset"),
        Some("image/"),
        Some("image/gif"),
    ];
    for status in [0u16, 100, 200, 204, 301, 404, 500, 700] {
        for body in bodies {
            for ct in types {
                for truncated in [false, true] {
                    let mut r = resp(status, ct, body);
                    r.truncated = truncated;
                    r.headers.push((String::new(), String::new()));
                    for max in [0, 1, 2, 1024] {
                        let limits = ResponseLimits {
                            max_body_bytes: max,
                        };
                        let _ = from_response(&r, Some(&OutputShape::Object), &limits, "");
                        let _ = from_response(&r, Some(&wrapped("k")), &limits, "X");
                    }
                }
            }
        }
    }
}
