use std::collections::BTreeMap;

use super::super::binding::{
    BodyBinding, BodyProp, BodyShape, HttpBinding, Location, ParamBinding, Server, ServerVariable,
    Style,
};
use super::base::*;
use super::multipart::*;
use super::shape::*;
use super::*;
use serde_json::json;

#[test]
fn integral_floats_are_sent_as_integers() {
    let text = |v: Value| atom(&v).unwrap();
    assert_eq!(text(json!(1.0)), "1");
    assert_eq!(text(json!(-0.0)), "0");
    assert_eq!(text(json!(2.5)), "2.5");
    assert_eq!(text(json!(7)), "7");
    assert_eq!(text(json!(1e300)), "1e+300");
    assert_eq!(text(json!(u64::MAX)), u64::MAX.to_string());
}

const BASE: &str = "https://api.example.com/v1";

fn param(name: &str, location: Location, style: Style, explode: bool) -> ParamBinding {
    ParamBinding {
        arg: name.into(),
        name: name.into(),
        location,
        style,
        explode,
        required: false,
        allow_reserved: false,
        content_type: None,
    }
}

fn required(mut p: ParamBinding) -> ParamBinding {
    p.required = true;
    p
}

fn op(path: &str, params: Vec<ParamBinding>) -> HttpBinding {
    HttpBinding {
        method: "get".into(),
        path: path.into(),
        params,
        body: None,
        servers: Vec::new(),
        security: Vec::new(),
        output: None,
    }
}

fn with_body(media_type: &str, required: bool, shape: BodyShape) -> HttpBinding {
    let mut binding = op("/items", Vec::new());
    binding.method = "post".into();
    binding.body = Some(BodyBinding {
        media_type: media_type.into(),
        required,
        shape,
    });
    binding
}

fn prop(name: &str, binary: bool, content_type: Option<&str>) -> BodyProp {
    BodyProp {
        arg: name.into(),
        name: name.into(),
        binary,
        content_type: content_type.map(str::to_string),
    }
}

fn args(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn run(binding: &HttpBinding, value: Value) -> Result<PreparedRequest, RequestError> {
    prepare(binding, &args(value), BASE)
}

fn url_of(binding: &HttpBinding, value: Value) -> String {
    match run(binding, value) {
        Ok(request) => request.url,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

fn ok(binding: &HttpBinding, value: Value) -> PreparedRequest {
    match run(binding, value) {
        Ok(request) => request,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

fn err(binding: &HttpBinding, value: Value) -> RequestError {
    match run(binding, value) {
        Ok(request) => panic!("expected an error, got {request:?}"),
        Err(e) => e,
    }
}

fn colors() -> [Value; 3] {
    [
        json!("blue"),
        json!(["blue", "black", "brown"]),
        json!({"R": 100, "G": 200, "B": 150}),
    ]
}

/// Checks the spec's `color` examples for one path style and explode.
fn assert_path_style(style: Style, explode: bool, expected: [&str; 3]) {
    let binding = op(
        "/colors/{color}",
        vec![required(param("color", Location::Path, style, explode))],
    );
    for (value, want) in colors().into_iter().zip(expected) {
        let got = url_of(&binding, json!({ "color": value }));
        assert_eq!(
            got,
            format!("{BASE}/colors/{want}"),
            "{style:?} explode={explode}"
        );
    }
}

/// Checks the spec's `color` examples for one query style and explode.
fn assert_query_style(style: Style, explode: bool, expected: [&str; 3]) {
    let binding = op("/c", vec![param("color", Location::Query, style, explode)]);
    for (value, want) in colors().into_iter().zip(expected) {
        let got = url_of(&binding, json!({ "color": value }));
        assert_eq!(
            got,
            format!("{BASE}/c?{want}"),
            "{style:?} explode={explode}"
        );
    }
}

fn header(request: &PreparedRequest, name: &str) -> Option<String> {
    request
        .headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.clone())
}

fn assert_invalid(error: &RequestError, arg: &str, needle: &str) {
    match error {
        RequestError::InvalidArgument { arg: a, reason } => {
            assert_eq!(a, arg);
            assert!(reason.contains(needle), "{reason}");
            assert!(error.to_string().contains(arg));
        }
        other => panic!("expected InvalidArgument, got {other:?}"),
    }
}

// --- path styles (OpenAPI 3.1 style examples) ---------------------------

#[test]
fn path_simple() {
    assert_path_style(
        Style::Simple,
        false,
        ["blue", "blue,black,brown", "R,100,G,200,B,150"],
    );
    assert_path_style(
        Style::Simple,
        true,
        ["blue", "blue,black,brown", "R=100,G=200,B=150"],
    );
}

#[test]
fn path_label() {
    assert_path_style(
        Style::Label,
        false,
        [".blue", ".blue,black,brown", ".R,100,G,200,B,150"],
    );
    assert_path_style(
        Style::Label,
        true,
        [".blue", ".blue.black.brown", ".R=100.G=200.B=150"],
    );
}

#[test]
fn path_matrix() {
    assert_path_style(
        Style::Matrix,
        false,
        [
            ";color=blue",
            ";color=blue,black,brown",
            ";color=R,100,G,200,B,150",
        ],
    );
    assert_path_style(
        Style::Matrix,
        true,
        [
            ";color=blue",
            ";color=blue;color=black;color=brown",
            ";R=100;G=200;B=150",
        ],
    );
}

#[test]
fn path_scalars_and_several_slots() {
    let binding = op(
        "/files/{name}.{ext}/{n}/{flag}",
        vec![
            required(param("name", Location::Path, Style::Simple, false)),
            required(param("ext", Location::Path, Style::Simple, false)),
            required(param("n", Location::Path, Style::Simple, false)),
            required(param("flag", Location::Path, Style::Simple, false)),
        ],
    );
    let got = url_of(
        &binding,
        json!({"name": "report 1", "ext": "pdf", "n": 2.5, "flag": true}),
    );
    assert_eq!(got, format!("{BASE}/files/report%201.pdf/2.5/true"));
}

#[test]
fn path_members_are_encoded_but_delimiters_are_not() {
    let binding = op(
        "/c/{c}",
        vec![required(param("c", Location::Path, Style::Simple, false))],
    );
    let got = url_of(&binding, json!({"c": ["a,b", "c d", "é"]}));
    assert_eq!(got, format!("{BASE}/c/a%2Cb,c%20d,%C3%A9"));
}

#[test]
fn path_wire_name_differs_from_argument() {
    let mut p = required(param("pet-id", Location::Path, Style::Simple, false));
    p.arg = "pet_id".into();
    let binding = op("/pets/{pet-id}", vec![p]);
    assert_eq!(
        url_of(&binding, json!({"pet_id": 7})),
        format!("{BASE}/pets/7")
    );
}

#[test]
fn path_content_param_is_json_text() {
    let mut p = required(param("filter", Location::Path, Style::Simple, false));
    p.content_type = Some("application/json".into());
    let binding = op("/f/{filter}", vec![p]);
    let got = url_of(&binding, json!({"filter": {"a": [1, "x/y"]}}));
    assert_eq!(
        got,
        format!("{BASE}/f/%7B%22a%22%3A%5B1%2C%22x%2Fy%22%5D%7D")
    );
}

// --- path injection ------------------------------------------------------

fn pet_binding() -> HttpBinding {
    op(
        "/pets/{id}/photos",
        vec![required(param("id", Location::Path, Style::Simple, false))],
    )
}

fn assert_stays_in_base(url: &str) {
    let parsed = url::Url::parse(url).map_err(|e| e.to_string());
    let parsed = match parsed {
        Ok(u) => u,
        Err(e) => panic!("{url}: {e}"),
    };
    assert_eq!(parsed.host_str(), Some("api.example.com"));
    assert!(parsed.path().starts_with("/v1/pets/"), "{}", parsed.path());
    assert!(parsed.path().ends_with("/photos"), "{}", parsed.path());
    assert_eq!(parsed.query(), None);
    assert_eq!(parsed.fragment(), None);
}

#[test]
fn path_injection_is_encoded() {
    let cases = [
        ("../../admin", "..%2F..%2Fadmin"),
        ("a/b?x=1", "a%2Fb%3Fx%3D1"),
        ("%2e%2e", "%252e%252e"),
        ("http://evil.com", "http%3A%2F%2Fevil.com"),
        ("@evil.com", "%40evil.com"),
        ("x#frag", "x%23frag"),
        ("a\\b", "a%5Cb"),
        ("//evil.com", "%2F%2Fevil.com"),
    ];
    for (value, encoded) in cases {
        let url = url_of(&pet_binding(), json!({ "id": value }));
        assert_eq!(url, format!("{BASE}/pets/{encoded}/photos"), "{value}");
        assert_stays_in_base(&url);
    }
}

#[test]
fn dot_segments_are_refused() {
    for value in [".", ".."] {
        let e = err(&pet_binding(), json!({ "id": value }));
        assert_invalid(&e, "id", "`.` and `..`");
    }
    let binding = op(
        "/files/{name}.{ext}",
        vec![
            required(param("name", Location::Path, Style::Simple, false)),
            required(param("ext", Location::Path, Style::Simple, false)),
        ],
    );
    // `%2E.` is a double-dot segment to URL parsers.
    let e = err(&binding, json!({"name": ".", "ext": ""}));
    assert_invalid(&e, "name", "`.` and `..`");
    // Inside a larger segment the encoded dots are harmless.
    let url = url_of(&binding, json!({"name": "..", "ext": "txt"}));
    assert_eq!(url, format!("{BASE}/files/%2E%2E.txt"));
}

#[test]
fn dots_inside_label_values_are_encoded() {
    let binding = op(
        "/c/{c}",
        vec![required(param("c", Location::Path, Style::Label, true))],
    );
    assert_eq!(
        url_of(&binding, json!({"c": ["..", "."]})),
        format!("{BASE}/c/.%2E%2E.%2E")
    );
}

#[test]
fn empty_path_segment_is_refused() {
    let e = err(&pet_binding(), json!({"id": ""}));
    assert_invalid(&e, "id", "empty path segment");
}

#[test]
fn unbound_slot_and_bad_template_are_errors() {
    let binding = op("/pets/{petId}", Vec::new());
    assert!(matches!(
        err(&binding, json!({})),
        RequestError::PathTemplate { .. }
    ));
    let binding = op("/pets/{petId", Vec::new());
    assert!(matches!(
        err(&binding, json!({})),
        RequestError::PathTemplate { .. }
    ));
}

#[test]
fn missing_path_argument_is_named() {
    let e = err(&pet_binding(), json!({"other": 1}));
    assert_eq!(e, RequestError::MissingArgument { arg: "id".into() });
    assert!(e.to_string().contains("`id`"));
}

#[test]
fn base_path_and_host_survive_template_without_slash() {
    let binding = op("pets", Vec::new());
    assert_eq!(url_of(&binding, json!({})), format!("{BASE}/pets"));
    let request = prepare(
        &op("/x", Vec::new()),
        &Map::new(),
        "https://api.example.com/",
    );
    assert_eq!(
        request.map(|r| r.url),
        Ok("https://api.example.com/x".to_string())
    );
}

#[test]
fn verify_url_rejects_a_changed_host_or_path() {
    let base = url::Url::parse(BASE).map_err(|e| e.to_string());
    let Ok(base) = base else { panic!("base") };
    let bad_host = verify_url(&base, "https://evil.com/v1/x", "/x");
    assert!(matches!(bad_host, Err(RequestError::UnsafeUrl { .. })));
    let climbed = verify_url(
        &base,
        "https://api.example.com/v1/a/%2E%2E/x",
        "/a/%2E%2E/x",
    );
    assert!(matches!(climbed, Err(RequestError::UnsafeUrl { .. })));
    assert_eq!(
        verify_url(&base, "https://api.example.com/v1/a?q=1", "/a"),
        Ok(())
    );
}

// --- query styles --------------------------------------------------------

#[test]
fn query_form() {
    assert_query_style(
        Style::Form,
        true,
        [
            "color=blue",
            "color=blue&color=black&color=brown",
            "R=100&G=200&B=150",
        ],
    );
    assert_query_style(
        Style::Form,
        false,
        [
            "color=blue",
            "color=blue,black,brown",
            "color=R,100,G,200,B,150",
        ],
    );
}

#[test]
fn query_space_delimited() {
    let binding = op(
        "/c",
        vec![param(
            "color",
            Location::Query,
            Style::SpaceDelimited,
            false,
        )],
    );
    let [_, array, object] = colors();
    assert_eq!(
        url_of(&binding, json!({"color": array})),
        format!("{BASE}/c?color=blue%20black%20brown")
    );
    assert_eq!(
        url_of(&binding, json!({"color": object})),
        format!("{BASE}/c?color=R%20100%20G%20200%20B%20150")
    );
}

#[test]
fn query_pipe_delimited() {
    let binding = op(
        "/c",
        vec![param("color", Location::Query, Style::PipeDelimited, false)],
    );
    let [_, array, object] = colors();
    assert_eq!(
        url_of(&binding, json!({"color": array})),
        format!("{BASE}/c?color=blue|black|brown")
    );
    assert_eq!(
        url_of(&binding, json!({"color": object})),
        format!("{BASE}/c?color=R|100|G|200|B|150")
    );
}

#[test]
fn query_delimited_exploded_falls_back_to_form() {
    let binding = op(
        "/c",
        vec![param("color", Location::Query, Style::PipeDelimited, true)],
    );
    assert_eq!(
        url_of(&binding, json!({"color": ["a", "b"]})),
        format!("{BASE}/c?color=a&color=b")
    );
}

#[test]
fn query_deep_object() {
    let binding = op(
        "/c",
        vec![param("color", Location::Query, Style::DeepObject, true)],
    );
    let [_, _, object] = colors();
    assert_eq!(
        url_of(&binding, json!({"color": object})),
        format!("{BASE}/c?color[R]=100&color[G]=200&color[B]=150")
    );
    let nested = json!({"color": {"range": {"gte": 1}, "tags": ["a b", "c"], "k&": null}});
    assert_eq!(
        url_of(&binding, nested),
        format!("{BASE}/c?color[range][gte]=1&color[tags]=a%20b&color[tags]=c")
    );
}

#[test]
fn query_values_are_encoded() {
    let binding = op(
        "/s",
        vec![
            param("q", Location::Query, Style::Form, true),
            param("a b", Location::Query, Style::Form, true),
        ],
    );
    let got = url_of(&binding, json!({"q": "a b&c=d+e#f%g/h?", "a b": true}));
    assert_eq!(
        got,
        format!("{BASE}/s?q=a%20b%26c%3Dd%2Be%23f%25g%2Fh%3F&a%20b=true")
    );
}

#[test]
fn query_allow_reserved_keeps_reserved_except_separators() {
    let mut p = param("path", Location::Query, Style::Form, true);
    p.allow_reserved = true;
    let binding = op("/s", vec![p]);
    let got = url_of(
        &binding,
        json!({"path": "/a/b?c:d@e,f;g+h!$'()*[]&i=j#k%l m"}),
    );
    assert_eq!(
        got,
        format!("{BASE}/s?path=/a/b?c:d@e,f;g+h!$'()*[]%26i%3Dj%23k%25l%20m")
    );
}

#[test]
fn query_content_param_is_encoded_json() {
    let mut p = param("filter", Location::Query, Style::Form, true);
    p.content_type = Some("application/json".into());
    p.allow_reserved = true;
    let binding = op("/s", vec![p]);
    let got = url_of(&binding, json!({"filter": {"lat": 1.5, "name": "x y"}}));
    assert_eq!(
        got,
        format!("{BASE}/s?filter=%7B%22lat%22%3A1.5%2C%22name%22%3A%22x%20y%22%7D")
    );
}

#[test]
fn query_skips_optional_null_and_empty_composites() {
    let binding = op(
        "/s",
        vec![
            param("limit", Location::Query, Style::Form, true),
            param("tags", Location::Query, Style::Form, true),
            param("empty", Location::Query, Style::Form, true),
        ],
    );
    assert_eq!(
        url_of(&binding, json!({"limit": null, "tags": []})),
        format!("{BASE}/s")
    );
    assert_eq!(
        url_of(&binding, json!({"empty": ""})),
        format!("{BASE}/s?empty=")
    );
}

#[test]
fn missing_required_query_is_named_and_unknown_args_ignored() {
    let binding = op(
        "/s",
        vec![required(param("q", Location::Query, Style::Form, true))],
    );
    assert_eq!(
        err(&binding, json!({"x": 1})),
        RequestError::MissingArgument { arg: "q".into() }
    );
    assert_eq!(
        err(&binding, json!({"q": null})),
        RequestError::MissingArgument { arg: "q".into() }
    );
}

// --- headers and cookies -------------------------------------------------

#[test]
fn header_simple_style() {
    let binding = op(
        "/h",
        vec![
            param("X-Color", Location::Header, Style::Simple, false),
            param("X-Rgb", Location::Header, Style::Simple, false),
            param("X-Rgb-E", Location::Header, Style::Simple, true),
            param("X-Count", Location::Header, Style::Simple, false),
            param("X-Absent", Location::Header, Style::Simple, false),
        ],
    );
    let [_, array, object] = colors();
    let request = ok(
        &binding,
        json!({"X-Color": array, "X-Rgb": object.clone(), "X-Rgb-E": object, "X-Count": 3}),
    );
    assert_eq!(
        request.headers,
        vec![
            ("X-Color".to_string(), "blue,black,brown".to_string()),
            ("X-Rgb".to_string(), "R,100,G,200,B,150".to_string()),
            ("X-Rgb-E".to_string(), "R=100,G=200,B=150".to_string()),
            ("X-Count".to_string(), "3".to_string()),
        ]
    );
}

#[test]
fn header_injection_is_refused() {
    let binding = op(
        "/h",
        vec![param("X-Note", Location::Header, Style::Simple, false)],
    );
    for value in ["a\r\nX-Evil: 1", "a\nb", "a\0b"] {
        let e = err(&binding, json!({ "X-Note": value }));
        assert_invalid(&e, "X-Note", "header injection is refused");
    }
    let e = err(&binding, json!({"X-Note": ["ok", "x\r\ny"]}));
    assert_invalid(&e, "X-Note", "header injection is refused");
    let e = err(&binding, json!({"X-Note": "bell\u{7}"}));
    assert_invalid(&e, "X-Note", "control characters");
}

#[test]
fn header_name_must_be_a_token() {
    let binding = op(
        "/h",
        vec![param("X Bad", Location::Header, Style::Simple, false)],
    );
    let e = err(&binding, json!({"X Bad": "v"}));
    assert_invalid(&e, "X Bad", "not a valid HTTP token");
}

#[test]
fn header_content_param_is_json() {
    let mut p = param("X-Meta", Location::Header, Style::Simple, false);
    p.content_type = Some("application/json".into());
    let binding = op("/h", vec![p]);
    let request = ok(&binding, json!({"X-Meta": {"a": "b"}}));
    assert_eq!(header(&request, "X-Meta").as_deref(), Some(r#"{"a":"b"}"#));
}

#[test]
fn cookies_join_into_one_header() {
    let binding = op(
        "/c",
        vec![
            param("session", Location::Cookie, Style::Form, true),
            param("ids", Location::Cookie, Style::Form, true),
            param("prefs", Location::Cookie, Style::Form, false),
            param("none", Location::Cookie, Style::Form, true),
        ],
    );
    let request = ok(
        &binding,
        json!({"session": "abc def;x,\"y\"\\%é", "ids": [1, 2, 3], "prefs": {"R": 1, "G": "a b"}}),
    );
    assert_eq!(
        header(&request, "Cookie").as_deref(),
        Some("session=abc%20def%3Bx%2C%22y%22%5C%25%C3%A9; ids=1,2,3; prefs=R,1,G,a%20b")
    );
}

#[test]
fn cookie_injection_is_refused() {
    let binding = op(
        "/c",
        vec![param("session", Location::Cookie, Style::Form, true)],
    );
    let e = err(&binding, json!({"session": "a\r\nSet-Cookie: x=1"}));
    assert_invalid(&e, "session", "header injection is refused");
    let bad_name = op(
        "/c",
        vec![param("se;ss", Location::Cookie, Style::Form, true)],
    );
    assert_invalid(
        &err(&bad_name, json!({"se;ss": "v"})),
        "se;ss",
        "not a valid HTTP token",
    );
}

#[test]
fn header_order_is_params_cookie_content_type() {
    let mut binding = with_body(
        "application/json",
        true,
        BodyShape::Whole {
            arg: "body".into(),
            binary: false,
        },
    );
    binding.params = vec![
        param("sid", Location::Cookie, Style::Form, true),
        param("X-B", Location::Header, Style::Simple, false),
        param("X-A", Location::Header, Style::Simple, false),
    ];
    let request = ok(
        &binding,
        json!({"sid": "s", "X-B": "b", "X-A": "a", "body": {"k": 1}}),
    );
    assert_eq!(request.method, "POST");
    let names: Vec<&str> = request.headers.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["X-B", "X-A", "Cookie", "Content-Type"]);
}

// --- bodies ----------------------------------------------------------------

#[test]
fn json_whole_body() {
    let binding = with_body(
        "application/vnd.api+json",
        true,
        BodyShape::Whole {
            arg: "body".into(),
            binary: false,
        },
    );
    let request = ok(&binding, json!({"body": [1, {"b": "x", "a": null}]}));
    assert_eq!(
        request.body.as_deref(),
        Some(&br#"[1,{"b":"x","a":null}]"#[..])
    );
    assert_eq!(
        header(&request, "Content-Type").as_deref(),
        Some("application/vnd.api+json")
    );
    let missing_body = err(&binding, json!({}));
    assert_eq!(
        missing_body,
        RequestError::MissingArgument { arg: "body".into() }
    );
}

#[test]
fn optional_body_absent_sends_nothing() {
    let binding = with_body(
        "application/json",
        false,
        BodyShape::Whole {
            arg: "body".into(),
            binary: false,
        },
    );
    let request = ok(&binding, json!({"body": null}));
    assert_eq!(request.body, None);
    assert!(request.headers.is_empty());
    let props = with_body(
        "application/json",
        false,
        BodyShape::Properties {
            props: vec![prop("name", false, None)],
        },
    );
    let request = ok(&props, json!({}));
    assert_eq!((request.body, request.headers.len()), (None, 0));
}

#[test]
fn json_properties_body_keeps_prop_order() {
    let mut renamed = prop("name", false, None);
    renamed.arg = "pet_name".into();
    let binding = with_body(
        "application/json",
        true,
        BodyShape::Properties {
            props: vec![renamed, prop("tag", false, None), prop("age", false, None)],
        },
    );
    let request = ok(
        &binding,
        json!({"tag": {"k": [1]}, "pet_name": "Rex", "unrelated": 1}),
    );
    assert_eq!(
        request.body.as_deref(),
        Some(&br#"{"name":"Rex","tag":{"k":[1]}}"#[..])
    );
    let empty = ok(&binding, json!({}));
    assert_eq!(empty.body.as_deref(), Some(&b"{}"[..]));
}

#[test]
fn form_body() {
    let binding = with_body(
        "application/x-www-form-urlencoded",
        true,
        BodyShape::Properties {
            props: vec![
                prop("name", false, None),
                prop("tags", false, None),
                prop("meta", false, None),
                prop("n", false, None),
                prop("icon", true, None),
            ],
        },
    );
    let request = ok(
        &binding,
        json!({"name": "a b+c", "tags": ["x", "y&z"], "meta": {"k": "v"}, "n": 1, "icon": "data:image/png;base64,aGk"}),
    );
    assert_eq!(
        request.body.as_deref(),
        Some(&b"name=a+b%2Bc&tags=x&tags=y%26z&meta=%7B%22k%22%3A%22v%22%7D&n=1&icon=aGk%3D"[..])
    );
    assert_eq!(
        header(&request, "Content-Type").as_deref(),
        Some("application/x-www-form-urlencoded")
    );
}

#[test]
fn whole_body_form_and_multipart_objects() {
    let whole = BodyShape::Whole {
        arg: "body".into(),
        binary: false,
    };
    let form = with_body("application/x-www-form-urlencoded", true, whole.clone());
    let request = ok(&form, json!({"body": {"a": "x y", "b": [1, 2]}}));
    assert_eq!(request.body.as_deref(), Some(&b"a=x+y&b=1&b=2"[..]));
    let multipart = with_body("multipart/form-data", true, whole);
    let request = ok(&multipart, json!({"body": {"a": "x"}}));
    let body = String::from_utf8(request.body.unwrap_or_default()).unwrap_or_default();
    assert!(body.contains("Content-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n"));
    assert_invalid(
        &err(&multipart, json!({"body": "raw"})),
        "body",
        "needs an object",
    );
}

fn multipart_binding() -> HttpBinding {
    with_body(
        "multipart/form-data",
        true,
        BodyShape::Properties {
            props: vec![
                prop("description", false, None),
                prop("photo", true, None),
                prop("thumb", true, Some("image/jpeg, image/png")),
            ],
        },
    )
}

fn multipart_args() -> Value {
    json!({
        "thumb": "aGVsbG8",
        "photo": "data:image/png;base64,iVBORw0KGgo=",
        "description": "A \"cat\"",
    })
}

#[test]
fn multipart_with_files_and_text() {
    let request = ok(&multipart_binding(), multipart_args());
    let png: &[u8] = &[0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
    let parts: [(&str, &[u8]); 3] = [
        (
            "Content-Disposition: form-data; name=\"description\"\r\n",
            b"A \"cat\"",
        ),
        (
            "Content-Disposition: form-data; name=\"photo\"; filename=\"photo\"\r\nContent-Type: image/png\r\n",
            png,
        ),
        (
            "Content-Disposition: form-data; name=\"thumb\"; filename=\"thumb\"\r\nContent-Type: image/jpeg\r\n",
            b"hello",
        ),
    ];
    let mut content = Vec::new();
    for (head, body) in parts {
        content.extend_from_slice(head.as_bytes());
        content.extend_from_slice(body);
    }
    let boundary = boundary_candidate(&content, 0);
    assert_eq!(boundary, "openapi2mcp-ccd2addf44e25e2c");
    let mut expected = Vec::new();
    for (head, body) in parts {
        expected.extend_from_slice(format!("--{boundary}\r\n{head}\r\n").as_bytes());
        expected.extend_from_slice(body);
        expected.extend_from_slice(b"\r\n");
    }
    expected.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    assert_eq!(request.body, Some(expected));
    assert_eq!(
        header(&request, "Content-Type"),
        Some(format!("multipart/form-data; boundary={boundary}"))
    );
}

#[test]
fn multipart_is_deterministic() {
    let first = ok(&multipart_binding(), multipart_args());
    let second = ok(&multipart_binding(), multipart_args());
    assert_eq!(first, second);
    let other = ok(&multipart_binding(), json!({"description": "B"}));
    assert_ne!(
        header(&first, "Content-Type"),
        header(&other, "Content-Type")
    );
}

#[test]
fn multipart_arrays_and_json_parts() {
    let binding = with_body(
        "multipart/form-data",
        true,
        BodyShape::Properties {
            props: vec![
                prop("files", true, None),
                prop("meta", false, None),
                prop("na\"m\r\ne", false, None),
            ],
        },
    );
    let request = ok(
        &binding,
        json!({"files": ["aGk=", "aG8="], "meta": {"a": 1}, "na\"m\r\ne": 5}),
    );
    let body = String::from_utf8(request.body.unwrap_or_default()).unwrap_or_default();
    assert_eq!(
        body.matches(
            "name=\"files\"; filename=\"files\"\r\nContent-Type: application/octet-stream\r\n"
        )
        .count(),
        2
    );
    assert!(body.contains("\r\n\r\nhi\r\n--") && body.contains("\r\n\r\nho\r\n--"));
    assert!(body.contains("name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"a\":1}\r\n"));
    assert!(body.contains("name=\"na\\\"me\"\r\nContent-Type: application/json\r\n\r\n5\r\n"));
}

#[test]
fn boundary_is_bumped_on_collision() {
    let first = boundary_candidate(b"x", 0);
    let picked = pick_boundary(b"x", |candidate| candidate == first.as_bytes());
    assert_eq!(picked, boundary_candidate(b"x", 1));
    assert_ne!(picked, first);
    assert!(picked.starts_with("openapi2mcp-") && picked.len() == 28);
}

#[test]
fn binary_whole_body() {
    let binding = with_body(
        "application/octet-stream",
        true,
        BodyShape::Whole {
            arg: "body".into(),
            binary: true,
        },
    );
    for encoded in [
        "aGVsbG8/Pz4=",
        "aGVsbG8_Pz4",
        "aGVs bG8/\nPz4=",
        "data:text/plain;base64,aGVsbG8/Pz4=",
    ] {
        let request = ok(&binding, json!({ "body": encoded }));
        assert_eq!(request.body.as_deref(), Some(&b"hello??>"[..]), "{encoded}");
        assert_eq!(
            header(&request, "Content-Type").as_deref(),
            Some("application/octet-stream")
        );
    }
    assert_invalid(
        &err(&binding, json!({"body": "not base64!!"})),
        "body",
        "base64",
    );
    assert_invalid(&err(&binding, json!({"body": 42})), "body", "base64");
    assert_invalid(
        &err(&binding, json!({"body": "data:image/png;base64"})),
        "body",
        "data:",
    );
}

#[test]
fn binary_range_takes_the_data_uri_type() {
    let binding = with_body(
        "*/*",
        true,
        BodyShape::Whole {
            arg: "body".into(),
            binary: true,
        },
    );
    let request = ok(&binding, json!({"body": "data:image/gif,GIF89a%00"}));
    assert_eq!(request.body.as_deref(), Some(&b"GIF89a\0"[..]));
    assert_eq!(
        header(&request, "Content-Type").as_deref(),
        Some("image/gif")
    );
    let plain = ok(&binding, json!({"body": "aGk="}));
    assert_eq!(
        header(&plain, "Content-Type").as_deref(),
        Some("application/octet-stream")
    );
}

/// Found by tests/it/props.rs: a media type key with a line break (from
/// the API description) became a Content-Type value carrying CR/LF.
#[test]
fn media_type_with_a_line_break_is_refused() {
    let props = BodyShape::Properties {
        props: vec![BodyProp {
            arg: "a".into(),
            name: "a".into(),
            binary: false,
            content_type: None,
        }],
    };
    let json = with_body("application/json\r\nX-Evil: 1", true, props);
    assert_invalid(&err(&json, json!({"a": "x"})), "body", "Content-Type");
    let multipart = with_body(
        "multipart/form-data\r\nX-Evil: 1",
        true,
        BodyShape::Whole {
            arg: "form".into(),
            binary: false,
        },
    );
    assert_invalid(
        &err(&multipart, json!({"form": {"f": "v"}})),
        "form",
        "control characters",
    );
    let tab = with_body("text/plain;\tcharset=utf-8", true, whole_text());
    assert!(ok(&tab, json!({"body": "hi"})).body.is_some());
}

/// Found by tests/it/props.rs: a header parameter named `Host` (or
/// `Connection`, `Content-Length`...) put an argument into a header the
/// HTTP client owns, choosing the virtual host behind the base URL.
#[test]
fn header_parameters_cannot_set_client_headers() {
    for name in ["Host", "content-length", "Transfer-Encoding", "Connection"] {
        let mut p = param("h", Location::Header, Style::Simple, false);
        p.name = name.into();
        let binding = op("/items", vec![p]);
        assert_invalid(&err(&binding, json!({"h": "evil.example"})), "h", name);
        assert!(ok(&binding, json!({})).headers.is_empty());
    }
}

fn whole_text() -> BodyShape {
    BodyShape::Whole {
        arg: "body".into(),
        binary: false,
    }
}

#[test]
fn text_body() {
    let binding = with_body(
        "text/plain; charset=utf-8",
        true,
        BodyShape::Whole {
            arg: "body".into(),
            binary: false,
        },
    );
    let request = ok(&binding, json!({"body": "héllo\nworld"}));
    assert_eq!(request.body, Some("héllo\nworld".as_bytes().to_vec()));
    assert_eq!(
        header(&request, "Content-Type").as_deref(),
        Some("text/plain; charset=utf-8")
    );
    let number = ok(&binding, json!({"body": 42}));
    assert_eq!(number.body.as_deref(), Some(&b"42"[..]));
    let xml = with_body(
        "application/xml",
        true,
        BodyShape::Whole {
            arg: "body".into(),
            binary: false,
        },
    );
    assert_eq!(
        ok(&xml, json!({"body": "<a/>"})).body.as_deref(),
        Some(&b"<a/>"[..])
    );
}

// --- base URL ----------------------------------------------------------------

fn server(url: &str, variables: Vec<ServerVariable>) -> Server {
    Server {
        url: url.into(),
        variables,
    }
}

fn variable(name: &str, default: &str, allowed: &[&str]) -> ServerVariable {
    ServerVariable {
        name: name.into(),
        default: default.into(),
        allowed: allowed.iter().map(|s| s.to_string()).collect(),
    }
}

fn templated() -> Vec<Server> {
    vec![
        server(
            "https://{region}.example.com:{port}/{version}/",
            vec![
                variable("region", "eu", &["eu", "us"]),
                variable("port", "8443", &[]),
                variable("version", "v2", &[]),
            ],
        ),
        server("https://second.example.com", Vec::new()),
    ]
}

#[test]
fn base_url_uses_first_server_defaults() {
    let got = base_url(&templated(), &BTreeMap::new(), None);
    assert_eq!(got, Ok("https://eu.example.com:8443/v2".to_string()));
}

#[test]
fn base_url_overrides_and_enum() {
    let overrides = BTreeMap::from([
        ("region".to_string(), "us".to_string()),
        ("port".to_string(), "1".to_string()),
    ]);
    assert_eq!(
        base_url(&templated(), &overrides, None),
        Ok("https://us.example.com:1/v2".to_string())
    );
    let bad = BTreeMap::from([("region".to_string(), "mars".to_string())]);
    let e = base_url(&templated(), &bad, None);
    assert!(
        matches!(&e, Err(RequestError::BaseUrl(m)) if m.contains("region") && m.contains("eu, us")),
        "{e:?}"
    );
}

#[test]
fn base_url_relative_server_needs_explicit_base() {
    let servers = vec![server("/v1", Vec::new())];
    let e = base_url(&servers, &BTreeMap::new(), None);
    assert!(
        matches!(&e, Err(RequestError::BaseUrl(m)) if m.contains("relative") && m.contains("base URL")),
        "{e:?}"
    );
    assert!(matches!(
        base_url(&[], &BTreeMap::new(), None),
        Err(RequestError::BaseUrl(_))
    ));
    let explicit = base_url(
        &servers,
        &BTreeMap::new(),
        Some("http://localhost:8080/v1/"),
    );
    assert_eq!(explicit, Ok("http://localhost:8080/v1".to_string()));
}

#[test]
fn base_url_explicit_wins_and_is_checked() {
    let got = base_url(
        &templated(),
        &BTreeMap::new(),
        Some(" https://proxy.example.org// "),
    );
    assert_eq!(got, Ok("https://proxy.example.org".to_string()));
    for bad in ["/relative", "ftp://h/x", "https://h/x?q=1", ""] {
        let e = base_url(&templated(), &BTreeMap::new(), Some(bad));
        assert!(matches!(e, Err(RequestError::BaseUrl(_))), "{bad}");
    }
    let undeclared = vec![server("https://{tenant}.example.com", Vec::new())];
    assert!(matches!(
        base_url(&undeclared, &BTreeMap::new(), None),
        Err(RequestError::BaseUrl(_))
    ));
}

#[test]
fn a_query_pair_added_to_the_draft_follows_the_parameters() {
    let binding = op(
        "/pets",
        vec![param("limit", Location::Query, Style::Form, true)],
    );
    let args = args(json!({"limit": 5}));
    let mut draft = draft(&binding, &args, BASE).unwrap();
    assert_eq!(
        draft.clone().finish(),
        prepare(&binding, &args, BASE).unwrap()
    );
    draft.push_query_pair("api key", "a&b=c d");
    assert_eq!(
        draft.finish().url,
        format!("{BASE}/pets?limit=5&api+key=a%26b%3Dc+d")
    );
    let bare = op("/pets", Vec::new());
    let mut draft = draft_of(&bare);
    draft.push_query_pair("k", "v");
    assert_eq!(draft.url(), format!("{BASE}/pets?k=v"));
}

fn draft_of(binding: &HttpBinding) -> RequestDraft {
    draft(binding, &Map::new(), BASE).unwrap()
}
