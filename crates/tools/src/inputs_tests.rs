use super::*;

#[test]
fn long_clashing_names_stay_distinct_and_finite() {
    let long = "x".repeat(80);
    let mut args: Vec<Arg> = (0..5)
        .map(|i| Arg {
            wire: long.clone(),
            location: Some(if i == 0 {
                Location::Query
            } else {
                Location::Header
            }),
            schema: json!({}),
            required: false,
            param: None,
            binding: ArgBinding::WholeBody { binary: false },
        })
        .collect();
    name_args(&mut args);
    let names: BTreeSet<&str> = args.iter().map(|a| a.wire.as_str()).collect();
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(names.iter().all(|n| n.len() <= MAX_ARG_LEN));
}

#[test]
fn body_examples_are_bounded_and_never_replace_the_schemas_own() {
    let big = json!("x".repeat(MAX_EXAMPLE_BYTES + 10));
    let (a, b, c) = (json!(1), json!(2), json!(3));
    let mut schema = json!({"type": "integer"});
    add_examples(&mut schema, vec![&a, &a, &big, &b, &c]);
    assert_eq!(
        schema["examples"],
        json!([1, 2]),
        "distinct, small, at most two"
    );
    let mut own = json!({"type": "integer", "examples": [9]});
    add_examples(&mut own, vec![&a]);
    assert_eq!(own["examples"], json!([9]));
    let mut none = json!({"type": "integer"});
    add_examples(&mut none, Vec::new());
    assert!(none.get("examples").is_none());
}

#[test]
fn arg_names_are_safe() {
    assert_eq!(arg_name("X-Request-ID"), "X-Request-ID");
    assert_eq!(arg_name("labels[]"), "labels");
    assert_eq!(arg_name("filter[name]"), "filter_name");
    assert_eq!(arg_name("[]"), "arg");
}

#[test]
fn media_type_preference() {
    let doc = openapi2mcp_document::Document::from_value(
        "t",
        json!({"openapi": "3.0.3", "paths": {
            "/a": {"post": {"requestBody": {"content": {"application/xml": {}, "application/json": {}}}}},
            "/b": {"post": {"requestBody": {"content": {"application/octet-stream": {}, "multipart/form-data": {}}}}}}}),
    )
    .unwrap();
    let pick = |path: &str| {
        let body = doc.operation(path, "post")?.request_body().ok()??;
        pick_media_type(body.media_types()).map(|m| m.name)
    };
    assert_eq!(pick("/a"), Some("application/json"));
    assert_eq!(pick("/b"), Some("multipart/form-data"));
}
