use super::body::*;
use super::lines::*;
use super::*;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::json;

const GET: &str = "GET https://api.example.com/pets/1";

fn resp(status: u16, content_type: Option<&str>, body: &[u8]) -> HttpResponse {
    let headers = content_type
        .map(|ct| vec![("Content-Type".to_string(), ct.to_string())])
        .unwrap_or_default();
    HttpResponse {
        status,
        headers,
        body: body.to_vec(),
        truncated: false,
    }
}

fn with_header(mut r: HttpResponse, name: &str, value: &str) -> HttpResponse {
    r.headers.push((name.to_string(), value.to_string()));
    r
}

fn map(r: &HttpResponse, output: Option<&OutputShape>) -> ToolOutcome {
    from_response(r, output, &ResponseLimits::default(), GET)
}

fn text(s: &str) -> Content {
    Content::Text(s.to_string())
}

fn wrapped(key: &str) -> OutputShape {
    OutputShape::Wrapped {
        key: key.to_string(),
    }
}

fn marker(n: usize) -> String {
    format!(
        "\n\n[truncated: the response exceeded the {n}-byte limit; request a smaller page, e.g. with a limit/per_page argument, or fewer fields]"
    )
}

#[test]
fn default_limit_is_one_mebibyte() {
    assert_eq!(ResponseLimits::default().max_body_bytes, 1_048_576);
}

#[test]
fn json_object_with_object_shape_is_structured() {
    let r = resp(200, Some("application/json"), br#"{"id":1,"name":"Rex"}"#);
    let out = map(&r, Some(&OutputShape::Object));
    assert_eq!(
        out,
        ToolOutcome {
            content: vec![text("{\n  \"id\": 1,\n  \"name\": \"Rex\"\n}")],
            structured: Some(json!({"id": 1, "name": "Rex"})),
            is_error: false,
        }
    );
}

#[test]
fn json_preserves_key_order() {
    let r = resp(200, Some("application/json"), br#"{"z":1,"a":2}"#);
    let out = map(&r, Some(&OutputShape::Object));
    assert_eq!(out.content, vec![text("{\n  \"z\": 1,\n  \"a\": 2\n}")]);
    let keys: Vec<_> = out
        .structured
        .as_ref()
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    assert_eq!(keys, vec!["z".to_string(), "a".to_string()]);
}

#[test]
fn json_array_with_wrapped_shape() {
    let r = resp(200, Some("application/json; charset=utf-8"), b"[1,2]");
    let out = map(&r, Some(&wrapped("items")));
    assert_eq!(
        out,
        ToolOutcome {
            content: vec![text("[\n  1,\n  2\n]")],
            structured: Some(json!({"items": [1, 2]})),
            is_error: false,
        }
    );
}

#[test]
fn json_without_output_shape_is_text_only() {
    let r = resp(200, Some("application/problem+json"), br#"{"a":true}"#);
    let out = map(&r, None);
    assert_eq!(out.content, vec![text("{\n  \"a\": true\n}")]);
    assert_eq!(out.structured, None);
    assert!(!out.is_error);
}

#[test]
fn json_non_object_with_object_shape_is_an_error() {
    let r = resp(200, Some("application/json"), b"[1]");
    let out = map(&r, Some(&OutputShape::Object));
    assert!(out.is_error);
    assert_eq!(out.structured, None);
    let Content::Text(headline) = &out.content[0] else {
        panic!("{out:?}")
    };
    assert!(
        headline.contains("a JSON array where this tool's output schema describes an object"),
        "{headline}"
    );
    assert_eq!(out.content[1], text("[\n  1\n]"));
}

#[test]
fn invalid_json_with_json_content_type() {
    let r = resp(200, Some("application/json"), b"{not json");
    assert_eq!(
        map(&r, None),
        ToolOutcome {
            content: vec![text("{not json")],
            structured: None,
            is_error: false,
        }
    );
    // A tool with an output schema cannot return it: an error saying why.
    let shaped = map(&r, Some(&wrapped("value")));
    assert!(shaped.is_error);
    assert_eq!(shaped.structured, None);
    let Content::Text(headline) = &shaped.content[0] else {
        panic!("{shaped:?}")
    };
    assert!(headline.contains("is not valid JSON"), "{headline}");
    assert_eq!(shaped.content[1], text("{not json"));
}

#[test]
fn empty_success_with_output_shape_is_an_empty_object() {
    for (status, body) in [(200, &b""[..]), (204, b""), (201, b"  \n")] {
        let r = resp(status, Some("application/json"), body);
        for shape in [OutputShape::Object, wrapped("result")] {
            let out = map(&r, Some(&shape));
            assert!(!out.is_error, "{status}");
            assert_eq!(out.structured, Some(json!({})), "{status}");
        }
        assert_eq!(map(&r, None).structured, None);
    }
}

#[test]
fn json_mislabelled_as_text_is_structured_for_json_tools() {
    let r = resp(200, Some("text/plain"), br#"{"id":1}"#);
    let out = map(&r, Some(&OutputShape::Object));
    assert_eq!(out.structured, Some(json!({"id": 1})));
    assert!(!out.is_error);
}

#[test]
fn pretty_json_over_the_cap_keeps_original_text() {
    let body = br#"{"a":[1,2,3]}"#;
    let r = resp(200, Some("application/json"), body);
    let limits = ResponseLimits {
        max_body_bytes: body.len(),
    };
    let out = from_response(&r, Some(&OutputShape::Object), &limits, GET);
    assert_eq!(out.content, vec![text(r#"{"a":[1,2,3]}"#)]);
    assert_eq!(out.structured, Some(json!({"a": [1, 2, 3]})));
}

#[test]
fn text_plain() {
    let r = resp(200, Some("text/plain"), b"hello\nworld");
    assert_eq!(
        map(&r, None),
        ToolOutcome {
            content: vec![text("hello\nworld")],
            structured: None,
            is_error: false,
        }
    );
}

#[test]
fn text_with_charset_and_unusual_type() {
    let r = resp(
        200,
        Some("application/vnd.custom; Charset=\"UTF-8\""),
        "héllo".as_bytes(),
    );
    assert_eq!(map(&r, None).content, vec![text("héllo")]);
    let xml = resp(200, Some("application/atom+xml"), b"<feed/>");
    assert_eq!(map(&xml, None).content, vec![text("<feed/>")]);
    let yaml = resp(200, Some("application/x-yaml"), b"a: 1");
    assert_eq!(map(&yaml, None).content, vec![text("a: 1")]);
}

#[test]
fn text_under_output_shape_is_an_error_with_the_text() {
    let r = resp(200, Some("text/html"), b"<p>maintenance</p>");
    let out = map(&r, Some(&OutputShape::Object));
    assert!(out.is_error);
    assert_eq!(out.structured, None);
    let Content::Text(headline) = &out.content[0] else {
        panic!("{out:?}")
    };
    assert!(headline.contains("with text content where this tool returns JSON"));
    assert_eq!(out.content[1], text("<p>maintenance</p>"));
}

#[test]
fn invalid_utf8_text_is_lossy() {
    let r = resp(200, Some("text/plain"), b"a\xffb");
    assert_eq!(map(&r, None).content, vec![text("a\u{FFFD}b")]);
}

#[test]
fn image_png() {
    let bytes = b"\x89PNG\r\n\x1a\nrest";
    let r = resp(200, Some("image/png"), bytes);
    assert_eq!(
        map(&r, None),
        ToolOutcome {
            content: vec![Content::Image {
                data_base64: BASE64.encode(bytes),
                mime_type: "image/png".to_string(),
            }],
            structured: None,
            is_error: false,
        }
    );
}

#[test]
fn svg_is_text() {
    let r = resp(200, Some("image/svg+xml"), b"<svg/>");
    assert_eq!(map(&r, None).content, vec![text("<svg/>")]);
}

#[test]
fn octet_stream_is_blob() {
    let r = resp(200, Some("application/octet-stream"), b"\x00\x01\x02");
    let out = from_response(
        &r,
        None,
        &ResponseLimits::default(),
        "GET https://api.example.com/v1/files/a%20b.bin?x=1#frag",
    );
    assert_eq!(
        out,
        ToolOutcome {
            content: vec![Content::Blob {
                uri: "openapi2mcp://response/v1/files/a_20b.bin".to_string(),
                mime_type: "application/octet-stream".to_string(),
                blob_base64: "AAEC".to_string(),
            }],
            structured: None,
            is_error: false,
        }
    );
}

#[test]
fn pdf_blob_uri_is_stable() {
    let r = resp(200, Some("Application/PDF"), b"%PDF-1.7");
    let line = "GET https://api.example.com/docs/../7/";
    let a = from_response(&r, None, &ResponseLimits::default(), line);
    let b = from_response(&r, None, &ResponseLimits::default(), line);
    assert_eq!(a, b);
    assert_eq!(
        a.content,
        vec![Content::Blob {
            uri: "openapi2mcp://response/docs/_/7".to_string(),
            mime_type: "application/pdf".to_string(),
            blob_base64: BASE64.encode(b"%PDF-1.7"),
        }]
    );
}

#[test]
fn sniff_json_without_content_type() {
    let r = resp(200, None, br#"{"a":1}"#);
    let out = map(&r, Some(&OutputShape::Object));
    assert_eq!(out.content, vec![text("{\n  \"a\": 1\n}")]);
    assert_eq!(out.structured, Some(json!({"a": 1})));
}

#[test]
fn sniff_text_without_content_type() {
    let r = resp(200, None, b"plain words");
    assert_eq!(map(&r, None).content, vec![text("plain words")]);
}

#[test]
fn sniff_binary_without_content_type() {
    let r = resp(200, None, b"\x00\xff\xfe");
    assert_eq!(
        map(&r, None).content,
        vec![Content::Blob {
            uri: "openapi2mcp://response/pets/1".to_string(),
            mime_type: "application/octet-stream".to_string(),
            blob_base64: BASE64.encode(b"\x00\xff\xfe"),
        }]
    );
}

#[test]
fn sniff_image_without_content_type() {
    let bytes = b"\xff\xd8\xff\xe0jpeg";
    let r = resp(200, None, bytes);
    assert_eq!(
        map(&r, None).content,
        vec![Content::Image {
            data_base64: BASE64.encode(bytes),
            mime_type: "image/jpeg".to_string(),
        }]
    );
}

#[test]
fn malformed_content_type_sniffs() {
    let r = resp(200, Some(";;garbage"), b"[true]");
    assert_eq!(map(&r, None).content, vec![text("[\n  true\n]")]);
    let empty = resp(200, Some(""), b"words");
    assert_eq!(map(&empty, None).content, vec![text("words")]);
}

#[test]
fn empty_204() {
    let r = resp(204, None, b"");
    assert_eq!(
        map(&r, Some(&wrapped("result"))),
        ToolOutcome {
            content: vec![text(
                "HTTP 204 No Content: the request succeeded with no response body."
            )],
            structured: Some(json!({})),
            is_error: false,
        }
    );
}

#[test]
fn empty_201_names_location() {
    let r = with_header(
        resp(201, Some("application/json"), b" \n"),
        "location",
        "/pets/9",
    );
    assert_eq!(
        map(&r, Some(&OutputShape::Object)).content,
        vec![text(
            "HTTP 201 Created: the request succeeded with no response body. Location: /pets/9"
        )]
    );
}

#[test]
fn truncated_json_is_cut_at_whole_items_and_stays_structured() {
    let mut r = resp(200, Some("application/json"), br#"{"items":[1,2,3"#);
    r.truncated = true;
    let limits = ResponseLimits { max_body_bytes: 15 };
    let out = from_response(&r, Some(&OutputShape::Object), &limits, GET);
    assert!(!out.is_error);
    assert_eq!(out.structured, Some(json!({"items": [1, 2]})));
    assert_eq!(
        out.content,
        vec![text(
            "{\"items\":[1,2]}\n\n[truncated: the response exceeded the 15-byte limit; the first 2 items of `$.items` were kept and later items dropped. Request a smaller page (e.g. a limit/per_page argument) or fewer fields to see the rest]"
        )]
    );
    // Without an output schema the model gets the same valid JSON.
    let plain = from_response(&r, None, &limits, GET);
    assert_eq!(plain.content, out.content);
    assert_eq!(plain.structured, None);
}

#[test]
fn truncated_json_that_cannot_be_cut_is_an_error_for_json_tools() {
    let mut r = resp(200, Some("application/json"), br#"{"items":"aaaa"#);
    r.truncated = true;
    let limits = ResponseLimits { max_body_bytes: 14 };
    let out = from_response(&r, Some(&OutputShape::Object), &limits, GET);
    assert!(out.is_error);
    assert_eq!(
        out.content[1],
        text(&format!("{{\"items\":\"aaaa{}", marker(14)))
    );
    let plain = from_response(&r, None, &limits, GET);
    assert!(!plain.is_error);
}

#[test]
fn truncated_marker_text_is_exact_for_default_limit() {
    let mut r = resp(200, Some("text/plain"), b"abc");
    r.truncated = true;
    assert_eq!(
        map(&r, None).content,
        vec![text(
            "abc\n\n[truncated: the response exceeded the 1048576-byte limit; request a smaller page, e.g. with a limit/per_page argument, or fewer fields]"
        )]
    );
}

#[test]
fn oversized_body_is_cut_even_if_caller_did_not() {
    let r = resp(200, Some("application/json"), br#"{"a":1234}"#);
    let limits = ResponseLimits { max_body_bytes: 5 };
    let out = from_response(&r, None, &limits, GET);
    assert_eq!(out.content, vec![text(&format!("{{\"a\":{}", marker(5)))]);
    assert_eq!(out.structured, None);
    assert!(from_response(&r, Some(&OutputShape::Object), &limits, GET).is_error);
}

#[test]
fn truncated_image_is_explained() {
    let mut r = resp(200, Some("image/png"), b"\x89PNG");
    r.truncated = true;
    let limits = ResponseLimits { max_body_bytes: 4 };
    assert_eq!(
        from_response(&r, None, &limits, GET),
        ToolOutcome {
            content: vec![text(
                "The response is an image (image/png) that exceeded the size cap of 4 bytes, so it cannot be shown. Request a smaller version (for example a thumbnail, a lower resolution or a byte range) if the API offers one."
            )],
            structured: None,
            is_error: false,
        }
    );
}

#[test]
fn truncated_binary_is_explained() {
    let mut r = resp(200, Some("application/zip"), b"PK\x03\x04");
    r.truncated = true;
    let limits = ResponseLimits { max_body_bytes: 4 };
    assert_eq!(
        from_response(&r, None, &limits, GET).content,
        vec![text(
            "The response is binary data (application/zip) that exceeded the size cap of 4 bytes, so it cannot be shown. Request a smaller version (for example a thumbnail, a lower resolution or a byte range) if the API offers one."
        )]
    );
}

#[test]
fn truncated_utf8_multibyte_boundary() {
    // "aé€" is 61 C3 A9 E2 82 AC; the cap cut "€" after two of its bytes.
    let mut r = resp(200, Some("text/plain; charset=utf-8"), b"a\xc3\xa9\xe2\x82");
    r.truncated = true;
    let limits = ResponseLimits { max_body_bytes: 5 };
    assert_eq!(
        from_response(&r, None, &limits, GET).content,
        vec![text(&format!("aé{}", marker(5)))]
    );
}

#[test]
fn truncated_utf8_keeps_complete_final_character() {
    let mut r = resp(200, None, "a€".as_bytes());
    r.truncated = true;
    let limits = ResponseLimits { max_body_bytes: 4 };
    assert_eq!(
        from_response(&r, None, &limits, GET).content,
        vec![text(&format!("a€{}", marker(4)))]
    );
}

#[test]
fn trim_partial_tail_cases() {
    assert_eq!(trim_partial_utf8_tail(b""), b"");
    assert_eq!(trim_partial_utf8_tail(b"ab"), b"ab");
    assert_eq!(trim_partial_utf8_tail(b"a\xf0\x9f\x98"), b"a");
    assert_eq!(
        trim_partial_utf8_tail(b"a\xf0\x9f\x98\x80"),
        b"a\xf0\x9f\x98\x80"
    );
    assert_eq!(
        trim_partial_utf8_tail(b"\x80\x80\x80\x80"),
        b"\x80\x80\x80\x80"
    );
}

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
