use std::collections::BTreeMap;

use super::super::binding::{
    BodyBinding, BodyProp, BodyShape, FormStyle, HttpBinding, Location, ParamBinding, Server,
    ServerVariable, Style, split_fragment,
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
        response_media_types: Vec::new(),
        response_headers: Vec::new(),
        lro: None,
        workflow: None,
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
        style: None,
        headers: Vec::new(),
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
    let bad_host = verify_url(&base, "https://evil.com/v1/x".into(), "/x");
    assert!(matches!(bad_host, Err(RequestError::UnsafeUrl { .. })));
    let climbed = verify_url(
        &base,
        "https://api.example.com/v1/a/%2E%2E/x".into(),
        "/a/%2E%2E/x",
    );
    assert!(matches!(climbed, Err(RequestError::UnsafeUrl { .. })));
    // The accepted URL comes back parsed, and is what the client sends.
    let url = "https://api.example.com/v1/a?q=1";
    assert_eq!(
        verify_url(&base, url.into(), "/a").map(|u| u.to_string()),
        Ok(url.to_string())
    );
}

#[test]
fn the_checked_url_is_sent_only_while_it_is_the_url() {
    let binding = op(
        "/pets/{id}",
        vec![required(param("id", Location::Path, Style::Simple, false))],
    );
    let request = ok(&binding, json!({"id": "a b"}));
    assert_eq!(
        request.parsed_url().map(url::Url::as_str),
        Some(request.url.as_str())
    );
    // A credential added to the query after the check: parsed again.
    let mut draft = draft(&binding, &args(json!({"id": 1})), BASE).unwrap();
    draft.push_query_pair("key", "k");
    let request = draft.finish();
    assert_eq!(request.url, format!("{BASE}/pets/1?key=k"));
    assert!(request.parsed.is_none() && request.parsed_url().is_none());
    // A URL changed after the fact is never sent stale.
    let mut request = ok(&binding, json!({"id": 1}));
    request.url.push_str("?x=1");
    assert!(request.parsed_url().is_none());
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
        format!("{BASE}/c?color[range][gte]=1&color[tags][0]=a%20b&color[tags][1]=c")
    );
    // Objects in arrays, as Stripe reads them (`tax_id_data[0][type]=…`).
    let listed = json!({"color": {"ids": [{"type": "eu_vat", "value": "x"}, {"type": "gb"}]}});
    assert_eq!(
        url_of(&binding, listed),
        format!(
            "{BASE}/c?color[ids][0][type]=eu_vat&color[ids][0][value]=x&color[ids][1][type]=gb"
        )
    );
}

#[test]
fn a_path_keys_fragment_is_not_sent() {
    // APIs.guru's AWS descriptions key each action by a fragment; the
    // action travels as the parameter the fragment names.
    let binding = op(
        "/#Action=DescribeTags",
        vec![required(param(
            "Action",
            Location::Query,
            Style::Form,
            true,
        ))],
    );
    assert_eq!(
        url_of(&binding, json!({"Action": "DescribeTags"})),
        format!("{BASE}/?Action=DescribeTags")
    );
    // The URL of `template` with its one slot `{id}` filled with `id`.
    let with_id = |template: &str, id: &str| {
        let slot = required(param("id", Location::Path, Style::Simple, false));
        url_of(&op(template, vec![slot]), json!({ "id": id }))
    };
    assert_eq!(
        with_id("/v1/{id}/tags#X-Amz-Target=Tags.List", "a#b"),
        format!("{BASE}/v1/a%23b/tags")
    );
    assert_eq!(split_fragment("/a/{b#c}/d"), ("/a/{b#c}/d", None));
    assert_eq!(split_fragment("/#"), ("/", Some("")));
    // More path after the `#`: a placeholder, sent as it is written.
    assert_eq!(
        split_fragment("/send/#env/v1/{id}"),
        ("/send/#env/v1/{id}", None)
    );
    assert_eq!(
        with_id("/send/#env/v1/{id}", "p1"),
        format!("{BASE}/send/%23env/v1/p1")
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

#[path = "bodies_tests.rs"]
mod bodies;

#[path = "multipart_tests.rs"]
mod multipart_parts;

fn querystring(media_type: &str) -> ParamBinding {
    let mut p = param("q", Location::Querystring, Style::Form, true);
    p.content_type = Some(media_type.into());
    p
}

#[test]
fn a_querystring_argument_is_the_whole_query_string() {
    // Form pairs, an array member repeated, form-encoded.
    let form = op(
        "/items",
        vec![querystring("application/x-www-form-urlencoded")],
    );
    assert_eq!(
        url_of(
            &form,
            json!({"q": {"a": "x y&z", "tag": ["p", "q"], "n": 2}})
        ),
        format!("{BASE}/items?a=x%20y%26z&tag=p&tag=q&n=2")
    );
    assert_eq!(url_of(&form, json!({"q": {}})), format!("{BASE}/items"));
    let err = run(&form, json!({"q": [1]})).unwrap_err().to_string();
    assert!(err.contains("`q`") && err.contains("object"), "{err}");
    // JSON: the compact text, percent-encoded, one piece (OpenAPI 3.2's
    // own example).
    let json_qs = op("/foo", vec![querystring("application/json")]);
    assert_eq!(
        url_of(&json_qs, json!({"q": {"numbers": [1, 2], "flag": null}})),
        format!("{BASE}/foo?%7B%22numbers%22%3A%5B1%2C2%5D%2C%22flag%22%3Anull%7D")
    );
    // Another media type: the string as is, percent-encoded.
    let path = op("/foo", vec![querystring("application/jsonpath")]);
    assert_eq!(
        url_of(&path, json!({"q": "$.a.b[1:1]"})),
        format!("{BASE}/foo?%24.a.b%5B1%3A1%5D")
    );
}
