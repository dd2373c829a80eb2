//! Unit tests of request bodies (JSON, form, multipart, binary): the
//! helpers are the parent test module's.

use super::*;

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
fn a_json_range_is_sent_as_application_json() {
    // `application/*+json` (ASP.NET documents list it) is no Content-Type.
    let binding = with_body(
        "application/*+json",
        true,
        BodyShape::Whole {
            arg: "body".into(),
            binary: false,
        },
    );
    let request = ok(&binding, json!({"body": {"a": 1}}));
    assert_eq!(request.body.as_deref(), Some(&br#"{"a":1}"#[..]));
    assert_eq!(
        header(&request, "Content-Type").as_deref(),
        Some("application/json")
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
fn requests_sending_no_bytes_say_content_length_zero_where_content_is_meant() {
    let whole = BodyShape::Whole {
        arg: "body".into(),
        binary: false,
    };
    let mut binding = with_body("text/plain", false, whole);
    for (method, expected) in [
        ("post", true),
        ("put", true),
        ("patch", true),
        ("get", false),
        ("delete", false),
        ("head", false),
        ("options", false),
    ] {
        binding.method = method.into();
        let request = ok(&binding, json!({}));
        assert_eq!(request.body, None);
        assert_eq!(request.empty_content_length(), expected, "{method}");
        // An empty body announces content with its Content-Type: its length
        // is said whatever the method.
        let request = ok(&binding, json!({"body": ""}));
        assert_eq!(request.body.as_deref(), Some(&b""[..]));
        assert!(
            request.empty_content_length(),
            "{method} with an empty body"
        );
        // A body with bytes gets its length from the HTTP client.
        let request = ok(&binding, json!({"body": "x"}));
        assert!(!request.empty_content_length(), "{method} with a body");
    }
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
        Some(&b"name=a%20b%2Bc&tags=x&tags=y%26z&meta=%7B%22k%22%3A%22v%22%7D&n=1&icon=aGk%3D"[..])
    );
    assert_eq!(
        header(&request, "Content-Type").as_deref(),
        Some("application/x-www-form-urlencoded")
    );
}

fn styled(name: &str, style: Style, explode: bool) -> BodyProp {
    let mut p = prop(name, false, None);
    p.style = Some(FormStyle {
        style,
        explode,
        allow_reserved: false,
    });
    p
}

/// Found by the Prism oracle's reading of OpenAPI's Encoding Object
/// (scripts/oracles/README.md): form fields ignored `style` and `explode`,
/// so Stripe's `metadata` (`deepObject`) went as JSON text.
#[test]
fn form_fields_follow_the_encoding_style() {
    let binding = with_body(
        "application/x-www-form-urlencoded",
        true,
        BodyShape::Properties {
            props: vec![
                styled("metadata", Style::DeepObject, true),
                styled("ids", Style::Form, false),
                styled("colors", Style::Form, true),
                styled("point", Style::Form, true),
                styled("box", Style::Form, false),
                styled("words", Style::SpaceDelimited, false),
                styled("pipes", Style::PipeDelimited, false),
                styled("none", Style::Form, false),
                prop("plain", false, None),
            ],
        },
    );
    let request = ok(
        &binding,
        json!({
            "metadata": {"order": "a b", "nested": {"x": 1}, "tags": ["t1", "t2"]},
            "ids": [1, 2],
            "colors": ["red", "blue"],
            "point": {"x": 1, "y": 2},
            "box": {"w": 3, "h": 4},
            "words": ["a", "b c"],
            "pipes": ["a", "b"],
            "none": [],
            "plain": {"k": "v"}
        }),
    );
    let body = String::from_utf8(request.body.unwrap()).unwrap();
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(body.as_bytes())
        .into_owned()
        .collect();
    let expected: Vec<(String, String)> = [
        ("metadata[order]", "a b"),
        ("metadata[nested][x]", "1"),
        ("metadata[tags][0]", "t1"),
        ("metadata[tags][1]", "t2"),
        ("ids", "1,2"),
        ("colors", "red"),
        ("colors", "blue"),
        ("x", "1"),
        ("y", "2"),
        ("box", "w,3,h,4"),
        ("words", "a b c"),
        ("pipes", "a|b"),
        ("plain", r#"{"k":"v"}"#),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(pairs, expected, "{body}");
    // Names and values are form-encoded after the style is applied.
    assert!(body.starts_with("metadata%5Border%5D=a%20b&"), "{body}");
    assert!(body.contains("&ids=1%2C2&"), "{body}");
}

/// `allowReserved` in a form field's encoding keeps RFC 3986 reserved
/// characters literal in values, except those the form syntax or a query
/// gives a meaning (`& = + # [ ]`) and `%`; names are encoded as always.
#[test]
fn form_fields_with_allow_reserved_keep_reserved_characters() {
    let mut open = styled("p[ath]", Style::Form, false);
    if let Some(style) = &mut open.style {
        style.allow_reserved = true;
    }
    let binding = with_body(
        "application/x-www-form-urlencoded",
        true,
        BodyShape::Properties {
            props: vec![open, styled("strict", Style::Form, false)],
        },
    );
    let value = json!(["a/b:c?d@e!$'()*,;", "x&y=z+1 #[]%"]);
    let request = ok(&binding, json!({"p[ath]": value, "strict": value}));
    assert_eq!(
        String::from_utf8(request.body.unwrap()).unwrap(),
        "p%5Bath%5D=a/b:c?d@e!$'()*,;,x%26y%3Dz%2B1%20%23%5B%5D%25\
         &strict=a%2Fb%3Ac%3Fd%40e%21%24%27%28%29*%2C%3B%2Cx%26y%3Dz%2B1%20%23%5B%5D%25"
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
    assert_eq!(request.body.as_deref(), Some(&b"a=x%20y&b=1&b=2"[..]));
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
    // A number is text/plain (the Encoding Object's default for
    // primitives), which a part without `Content-Type` is (RFC 7578 §4.4).
    assert!(body.contains("name=\"na\\\"me\"\r\n\r\n5\r\n"));
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
            style: None,
            headers: Vec::new(),
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
