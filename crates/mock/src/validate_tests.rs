use super::*;

#[test]
fn query_strings_decode() {
    assert_eq!(
        parse_query("a=1&b=x+y%2Cz&c"),
        vec![
            ("a".into(), "1".into()),
            ("b".into(), "x y,z".into()),
            ("c".into(), String::new())
        ]
    );
}

#[test]
fn scalars_follow_the_schema_type() {
    let t = |ts: &[&str]| ts.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(scalar("42", &t(&["integer"])), Value::from(42));
    assert_eq!(scalar("4.5", &t(&["number"])), serde_json::json!(4.5));
    assert_eq!(scalar("true", &t(&["boolean"])), Value::Bool(true));
    assert_eq!(scalar("abc", &t(&["integer"])), Value::from("abc"));
    assert_eq!(scalar("42", &t(&["string"])), Value::from("42"));
}

#[test]
fn object_members_follow_their_branch_of_the_schema() {
    // Stripe's `created`: a range object or an integer, sent as a
    // deepObject (`created[gt]=7`) or exploded (`gt=7`).
    let param = |style: &str, explode: bool| Param {
        name: "created".into(),
        loc: Loc::Query,
        required: false,
        style: style.into(),
        explode,
        json_content: false,
        schema: Some(Schema::new(serde_json::json!({"anyOf": [
            {"$ref": "#/$defs/range"}, {"type": "integer"}],
            "$defs": {"range": {"type": "object", "properties": {
                "gt": {"type": "integer"}, "lte": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}}}}))),
    };
    let query = parse_query("created[gt]=7&created[lte]=9&limit=3");
    assert_eq!(
        query_value(&param("deepObject", true), &query),
        Some(serde_json::json!({"gt": 7, "lte": 9}))
    );
    let query = parse_query("gt=7&limit=3");
    assert_eq!(
        query_value(&param("form", true), &query),
        Some(serde_json::json!({"gt": 7}))
    );
    let query = parse_query("created=7");
    assert_eq!(
        query_value(&param("form", true), &query),
        Some(serde_json::json!(7))
    );
}

#[test]
fn deep_object_arrays_and_arrays_of_objects_read_back() {
    let param = |name: &str, style: &str, schema: Value| Param {
        name: name.into(),
        loc: Loc::Query,
        required: false,
        style: style.into(),
        explode: true,
        json_content: false,
        schema: Some(Schema::new(schema)),
    };
    // A deepObject's array member as older writers send it: the key
    // repeated.
    let range = param(
        "range",
        "deepObject",
        serde_json::json!({"type": "object",
        "properties": {"at": {"type": "array", "items": {"type": "integer"}}, "by": {"type": "string"}}}),
    );
    let query = parse_query("range[at]=1&range[by]=x&range[at]=2");
    assert_eq!(
        query_value(&range, &query),
        Some(serde_json::json!({"at": [1, 2], "by": "x"}))
    );
    let query = parse_query("range[at]=1");
    assert_eq!(
        query_value(&range, &query),
        Some(serde_json::json!({"at": [1]}))
    );
    // As the runtime sends it: indexed, as Stripe reads it.
    let query = parse_query("range[at][0]=1&range[by]=x&range[at][1]=2");
    assert_eq!(
        query_value(&range, &query),
        Some(serde_json::json!({"at": [1, 2], "by": "x"}))
    );
    let ids = param(
        "tax_id_data",
        "deepObject",
        serde_json::json!({"type": "array", "items": {"type": "object",
        "properties": {"type": {"type": "string"}, "n": {"type": "integer"}}}}),
    );
    let query =
        parse_query("tax_id_data[0][type]=eu_vat&tax_id_data[0][n]=3&tax_id_data[1][type]=gb");
    assert_eq!(
        query_value(&ids, &query),
        Some(serde_json::json!([{"type": "eu_vat", "n": 3}, {"type": "gb"}]))
    );
    // Objects in an exploded array travel as JSON text, one per item.
    let targets = param(
        "Targets",
        "form",
        serde_json::json!({"type": "array",
        "items": {"type": "object", "properties": {"Port": {"type": "integer"}}}}),
    );
    let query = parse_query("Targets=%7B%22Port%22%3A7%7D&Targets=%7B%22Port%22%3A8%7D");
    assert_eq!(
        query_value(&targets, &query),
        Some(serde_json::json!([{"Port": 7}, {"Port": 8}]))
    );
    let query = parse_query("Targets=%7B%22Port%22%3A7%7D");
    assert_eq!(
        query_value(&targets, &query),
        Some(serde_json::json!([{"Port": 7}]))
    );
    // An object whose member is an object: that member as JSON text.
    let template = param(
        "LaunchTemplate",
        "form",
        serde_json::json!({"type": "object",
        "properties": {"Spec": {"type": "object"}, "Count": {"type": "integer"}}}),
    );
    let query = parse_query("Spec=%7B%22Id%22%3A%22a%22%7D&Count=2");
    assert_eq!(
        query_value(&template, &query),
        Some(serde_json::json!({"Spec": {"Id": "a"}, "Count": 2}))
    );
}

#[test]
fn wildcards_cover_media_types() {
    assert!(covers("*/*", "application/json"));
    assert!(covers("image/*", "image/png"));
    assert!(!covers("image/*", "text/plain"));
    assert!(covers(
        "application/json; charset=utf-8",
        "application/json"
    ));
}
