//! Unit tests of the Encoding Object's reading into body bindings.

use serde_json::{Value, json};

use super::*;
use openapi2mcp_document::Document;

/// A document of `version` (`"3.0.3"` or `"3.1.0"`) whose `POST /up` body
/// is `media` with these properties and this `encoding`.
fn doc(version: &str, media: &str, encoding: Value) -> Document {
    let properties = json!({
        "ids": {"type": "array", "items": {"type": "string"}},
        "meta": {"type": "object", "properties": {"a": {"type": "string"}}},
        "file": {"type": "string", "format": "binary"}
    });
    Document::from_value(
        "encoding.json",
        json!({
            "openapi": version,
            "info": {"title": "t", "version": "1"},
            "paths": {"/up": {"post": {
                "requestBody": {"content": {media: {
                    "schema": {"type": "object", "properties": properties},
                    "encoding": encoding
                }}},
                "responses": {"204": {"description": "done"}}
            }}},
            "components": {
                "headers": {"Trace": {"schema": {"type": "string", "const": "on"}}},
                "schemas": {"Version": {"type": "integer", "default": 2}}
            }
        }),
    )
    .unwrap()
}

/// The encoding of `property` in `doc`, with the warnings it raised.
fn encoding_of(doc: &Document, property: &str, binary: bool) -> (PropEncoding, Vec<Diagnostic>) {
    let op = doc.operation("/up", "post").unwrap();
    let body = op.request_body().unwrap().unwrap();
    let media = body.media_types().remove(0);
    let kind = MediaKind::of(media.name);
    let mut warnings = Vec::new();
    let got = prop_encoding(&media, property, kind, doc.version, binary, &mut warnings);
    (got, warnings)
}

const MULTIPART: &str = "multipart/form-data";
const FORM: &str = "application/x-www-form-urlencoded";

fn style(style: Style, explode: bool, allow_reserved: bool) -> Option<FormStyle> {
    Some(FormStyle {
        style,
        explode,
        allow_reserved,
    })
}

/// OpenAPI 3.1 applies `style`, `explode` and `allowReserved` to
/// multipart/form-data (3.1.0 §4.8.15); the builder used to keep them for
/// form bodies only, so 3.1 multipart parts ignored them.
#[test]
fn multipart_styles_apply_in_3_1_only() {
    let encoding = json!({
        "ids": {"style": "pipeDelimited"},
        "meta": {"style": "deepObject", "explode": true}
    });
    let v31 = doc("3.1.0", MULTIPART, encoding.clone());
    assert_eq!(
        encoding_of(&v31, "ids", false).0.style,
        style(Style::PipeDelimited, false, false)
    );
    assert_eq!(
        encoding_of(&v31, "meta", false).0.style,
        style(Style::DeepObject, true, false)
    );
    // 3.0.x: "SHALL be ignored if the request body media type is not
    // application/x-www-form-urlencoded".
    let v30 = doc("3.0.3", MULTIPART, encoding);
    assert_eq!(encoding_of(&v30, "ids", false).0.style, None);
    assert_eq!(encoding_of(&v30, "meta", false).0.style, None);
}

#[test]
fn any_style_field_selects_query_serialization_with_its_defaults() {
    let encoding = json!({
        "ids": {"explode": false},
        "meta": {"allowReserved": true, "contentType": "application/xml"},
        "file": {"style": "form"}
    });
    for media in [FORM, MULTIPART] {
        let d = doc("3.1.0", media, encoding.clone());
        assert_eq!(
            encoding_of(&d, "ids", false).0.style,
            style(Style::Form, false, false),
            "{media}"
        );
        let meta = encoding_of(&d, "meta", false).0;
        assert_eq!(meta.style, style(Style::Form, true, true), "{media}");
        // The declared type is kept; the runtime ignores it for a styled field.
        assert_eq!(meta.content_type.as_deref(), Some("application/xml"));
        // A file stays a file part whatever the style says.
        assert_eq!(encoding_of(&d, "file", true).0.style, None, "{media}");
    }
    // Form bodies follow the style in 3.0 too (allowReserved included).
    let v30 = doc("3.0.3", FORM, encoding);
    assert_eq!(
        encoding_of(&v30, "meta", false).0.style,
        style(Style::Form, true, true)
    );
    // A bare contentType is no style.
    let plain = doc(
        "3.1.0",
        MULTIPART,
        json!({"meta": {"contentType": "text/csv"}}),
    );
    let meta = encoding_of(&plain, "meta", false).0;
    assert_eq!(meta.style, None);
    assert_eq!(meta.content_type.as_deref(), Some("text/csv"));
}

#[test]
fn part_headers_with_fixed_values_are_kept_others_reported() {
    let encoding = json!({"file": {
        "contentType": "image/png",
        "headers": {
            "X-Trace": {"$ref": "#/components/headers/Trace"},
            "Content-Transfer-Encoding": {"schema": {"type": "string", "enum": ["binary"]}},
            "X-Version": {"schema": {"$ref": "#/components/schemas/Version"}},
            "X-Tags": {"schema": {"type": "array", "items": {"type": "string"}, "const": ["a", "b"]}},
            "X-Rate-Limit": {"required": true, "schema": {"type": "integer"}},
            "X-Optional": {"schema": {"type": "string"}},
            "Content-Type": {"schema": {"type": "string", "const": "text/plain"}},
            "Content-Disposition": {"schema": {"type": "string", "const": "inline"}},
            "Bad Name": {"schema": {"type": "string", "const": "x"}},
            "X-Evil": {"schema": {"type": "string", "const": "a\r\nX-Injected: 1"}}
        }
    }});
    let d = doc("3.0.3", MULTIPART, encoding);
    let (got, warnings) = encoding_of(&d, "file", true);
    let headers: Vec<(&str, &str)> = got
        .headers
        .iter()
        .map(|h| (h.name.as_str(), h.value.as_str()))
        .collect();
    assert_eq!(
        headers,
        [
            ("X-Trace", "on"),
            ("Content-Transfer-Encoding", "binary"),
            ("X-Version", "2"),
            ("X-Tags", "a,b"),
        ]
    );
    let messages: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(messages.len(), 4, "{messages:#?}");
    for needle in [
        "`X-Rate-Limit` of `file` has no value its schema fixes",
        "`Content-Disposition` of `file` is not sent",
        "`Bad Name` of `file` is not a valid header name",
        "`X-Evil` of `file` cannot be sent",
    ] {
        assert!(
            messages.iter().any(|m| m.contains(needle)),
            "{needle}: {messages:#?}"
        );
    }
    // Form bodies have no parts: headers SHALL be ignored there.
    let form = doc(
        "3.1.0",
        FORM,
        json!({"meta": {"headers": {"X-Trace": {"$ref": "#/components/headers/Trace"}}}}),
    );
    let (got, warnings) = encoding_of(&form, "meta", false);
    assert!(got.headers.is_empty() && warnings.is_empty());
}

#[test]
fn a_property_without_encoding_gets_nothing() {
    let d = doc("3.1.0", MULTIPART, json!({"ids": {"style": "form"}}));
    let (got, warnings) = encoding_of(&d, "meta", false);
    assert_eq!(got, PropEncoding::default());
    assert!(warnings.is_empty());
}
