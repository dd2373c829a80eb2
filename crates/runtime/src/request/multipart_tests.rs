//! Unit tests of multipart parts following the Encoding Object (style,
//! explode, allowReserved, default content types, part headers): the
//! helpers are the parent test module's.

use super::super::super::binding::PartHeader;
use super::*;

/// The parts of a multipart request as `(head lines, content)`, in order.
fn parts_of(request: &PreparedRequest) -> Vec<(Vec<String>, String)> {
    let content_type = header(request, "Content-Type").unwrap_or_default();
    let boundary = content_type
        .split_once("boundary=")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    let body = String::from_utf8(request.body.clone().unwrap_or_default()).unwrap();
    let closing = format!("--{boundary}--\r\n");
    assert!(body.ends_with(&closing), "{body}");
    body[..body.len() - closing.len()]
        .split(&format!("--{boundary}\r\n"))
        .skip(1)
        .map(|part| {
            let (head, content) = part.split_once("\r\n\r\n").unwrap();
            let content = content.strip_suffix("\r\n").unwrap();
            let lines = head.split("\r\n").map(str::to_string).collect();
            (lines, content.to_string())
        })
        .collect()
}

/// `(name, Content-Type, content)` of each part.
fn summary(request: &PreparedRequest) -> Vec<(String, Option<String>, String)> {
    parts_of(request)
        .into_iter()
        .map(|(head, content)| {
            let name = head[0]
                .strip_prefix("Content-Disposition: form-data; name=\"")
                .and_then(|rest| rest.split('"').next())
                .unwrap_or_default()
                .to_string();
            let content_type = head
                .iter()
                .find_map(|l| l.strip_prefix("Content-Type: "))
                .map(str::to_string);
            (name, content_type, content)
        })
        .collect()
}

fn styled_prop(name: &str, style: Style, explode: bool, allow_reserved: bool) -> BodyProp {
    let mut p = prop(name, false, Some("application/xml"));
    p.style = Some(FormStyle {
        style,
        explode,
        allow_reserved,
    });
    p
}

fn multipart(props: Vec<BodyProp>) -> HttpBinding {
    with_body("multipart/form-data", true, BodyShape::Properties { props })
}

fn rows(expected: &[(&str, &str)]) -> Vec<(String, Option<String>, String)> {
    expected
        .iter()
        .map(|(n, c)| (n.to_string(), None, c.to_string()))
        .collect()
}

/// OpenAPI 3.1's Encoding Object applies `style` and `explode` to
/// multipart/form-data: the readme `parameters-style` 3.1 cases. The
/// builder used to write every array one part per member and every
/// object as one JSON part, whatever the style.
#[test]
fn multipart_fields_follow_the_encoding_style() {
    let value =
        json!({"primitive": "p v", "array": ["a", "b c"], "object": {"foo": "f", "bar": "b"}});
    let case = |style: Style, explode: bool| {
        let names = ["primitive", "array", "object"];
        let binding = multipart(
            names
                .iter()
                .map(|n| styled_prop(n, style, explode, false))
                .collect(),
        );
        summary(&ok(&binding, value.clone()))
    };
    assert_eq!(
        case(Style::Form, false),
        rows(&[
            ("primitive", "p v"),
            ("array", "a,b c"),
            ("object", "foo,f,bar,b")
        ])
    );
    assert_eq!(
        case(Style::Form, true),
        rows(&[
            ("primitive", "p v"),
            ("array", "a"),
            ("array", "b c"),
            ("foo", "f"),
            ("bar", "b")
        ])
    );
    // Delimiters and values are sent as they are: multipart applies no
    // percent-encoding (OpenAPI 3.1.1 §4.8.15).
    assert_eq!(
        case(Style::SpaceDelimited, false),
        rows(&[
            ("primitive", "p v"),
            ("array", "a b c"),
            ("object", "foo f bar b")
        ])
    );
    assert_eq!(
        case(Style::PipeDelimited, false),
        rows(&[
            ("primitive", "p v"),
            ("array", "a|b c"),
            ("object", "foo|f|bar|b")
        ])
    );
    assert_eq!(
        case(Style::DeepObject, true),
        rows(&[
            ("primitive", "p v"),
            ("array[0]", "a"),
            ("array[1]", "b c"),
            ("object[foo]", "f"),
            ("object[bar]", "b")
        ])
    );
}

#[test]
fn styled_parts_encode_nothing_and_skip_empty_values() {
    let binding = multipart(vec![
        styled_prop("path", Style::Form, false, false),
        styled_prop("open", Style::Form, false, true),
        styled_prop("meta", Style::DeepObject, true, false),
        styled_prop("none", Style::Form, false, false),
        {
            // A file stays a file part whatever the style says.
            let mut file = prop("file", true, None);
            file.style = Some(FormStyle {
                style: Style::Form,
                explode: false,
                allow_reserved: false,
            });
            file
        },
    ]);
    let request = ok(
        &binding,
        json!({
            "path": ["a/b", "c%2Cd", "é"],
            "open": ["x&y", "1+1=2"],
            "meta": {"n": {"deep": 1.0}, "list": [true, null, 2]},
            "none": [],
            "file": "aGk="
        }),
    );
    assert_eq!(
        summary(&request),
        vec![
            ("path".into(), None, "a/b,c%2Cd,é".into()),
            ("open".into(), None, "x&y,1+1=2".into()),
            ("meta[n][deep]".into(), None, "1".into()),
            ("meta[list][0]".into(), None, "true".into()),
            ("meta[list][2]".into(), None, "2".into()),
            (
                "file".into(),
                Some("application/octet-stream".into()),
                "hi".into()
            ),
        ]
    );
}

/// The Encoding Object's default content types: primitives `text/plain`
/// (a part without `Content-Type`, RFC 7578 §4.4), objects
/// `application/json`, arrays by their items; a declared type wins where
/// the value can be written in it.
#[test]
fn multipart_parts_take_the_default_content_type_of_their_value() {
    let binding = multipart(vec![
        prop("s", false, None),
        prop("n", false, None),
        prop("b", false, None),
        prop("o", false, None),
        prop("mixed", false, None),
        prop("csv", false, Some("text/csv")),
        prop("jn", false, Some("application/json")),
        prop("xml", false, Some("application/xml")),
    ]);
    let request = ok(
        &binding,
        json!({
            "s": "text", "n": 1.0, "b": false, "o": {"k": 1},
            "mixed": ["a", 2.5, {"k": "v"}, [1, 2]],
            "csv": "a,b", "jn": 5, "xml": {"k": 1}
        }),
    );
    let json = Some("application/json".to_string());
    assert_eq!(
        summary(&request),
        vec![
            ("s".into(), None, "text".into()),
            ("n".into(), None, "1".into()),
            ("b".into(), None, "false".into()),
            ("o".into(), json.clone(), r#"{"k":1}"#.into()),
            ("mixed".into(), None, "a".into()),
            ("mixed".into(), None, "2.5".into()),
            ("mixed".into(), json.clone(), r#"{"k":"v"}"#.into()),
            ("mixed".into(), json.clone(), "[1,2]".into()),
            ("csv".into(), Some("text/csv".into()), "a,b".into()),
            ("jn".into(), json.clone(), "5".into()),
            // No XML writer: the object goes as JSON, typed as such.
            ("xml".into(), json, r#"{"k":1}"#.into()),
        ]
    );
}

fn part_header(name: &str, value: &str) -> PartHeader {
    PartHeader {
        name: name.into(),
        value: value.into(),
    }
}

/// The Encoding Object's `headers` (the tool model keeps those whose value
/// the document fixes) go on every part of the property, after the
/// disposition and type; a binding's unsafe header is still left out.
#[test]
fn multipart_parts_carry_their_documented_headers() {
    let mut photos = prop("photos", true, Some("image/png"));
    photos.headers = vec![
        part_header("X-Trace", "on"),
        part_header("Content-Transfer-Encoding", "binary"),
        part_header("X-Evil", "a\r\nX-Injected: 1"),
        part_header("Bad Name", "x"),
        part_header("content-type", "text/plain"),
        part_header("Content-Disposition", "inline"),
    ];
    let mut tags = styled_prop("tags", Style::Form, true, false);
    tags.headers = vec![part_header("X-Kind", "tag")];
    let binding = multipart(vec![photos, tags]);
    let request = ok(
        &binding,
        json!({"photos": ["aGk=", "aG8="], "tags": ["a", "b"]}),
    );
    let heads: Vec<Vec<String>> = parts_of(&request).into_iter().map(|(h, _)| h).collect();
    let photo = [
        "Content-Disposition: form-data; name=\"photos\"; filename=\"photos\"",
        "Content-Type: image/png",
        "X-Trace: on",
        "Content-Transfer-Encoding: binary",
    ];
    let tag = [
        "Content-Disposition: form-data; name=\"tags\"",
        "X-Kind: tag",
    ];
    assert_eq!(
        heads,
        vec![
            photo.map(String::from).to_vec(),
            photo.map(String::from).to_vec(),
            tag.map(String::from).to_vec(),
            tag.map(String::from).to_vec(),
        ]
    );
}
