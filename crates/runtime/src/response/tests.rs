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
        stream_open: false,
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

#[path = "errors_tests.rs"]
mod errors;
