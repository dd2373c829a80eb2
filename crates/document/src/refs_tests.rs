use super::*;
use serde_json::json;

fn doc(v: Value) -> Document {
    Document::from_value("t.json", v).unwrap()
}

#[test]
fn references_resolve_against_and_find_self() {
    let d = doc(
        json!({"openapi": "3.2.0", "$self": "https://example.com/api/openapi",
        "paths": {}, "components": {"schemas": {"A": {"type": "string"}}}}),
    );
    let key = d.root_key().to_string();
    for reference in [
        "https://example.com/api/openapi#/components/schemas/A",
        "openapi#/components/schemas/A",
        "../api/openapi#/components/schemas/A",
        "#/components/schemas/A",
    ] {
        let found = d.resolve_ref(&key, reference);
        assert_eq!(
            found.map(|n| n.value.clone()).ok(),
            Some(json!({"type": "string"})),
            "{reference}"
        );
    }
    assert!(d.resolve_ref(&key, "https://example.com/other#/x").is_err());
    // Without `$self`, the URI names nothing.
    let plain = doc(json!({"openapi": "3.1.0", "paths": {},
        "components": {"schemas": {"A": {"type": "string"}}}}));
    let key = plain.root_key().to_string();
    assert!(
        plain
            .resolve_ref(
                &key,
                "https://example.com/api/openapi#/components/schemas/A"
            )
            .is_err()
    );
}

#[test]
fn pointers_unescape_and_percent_decode() {
    let d = doc(json!({"openapi": "3.0.0", "paths": {"/a/{b}": {"get": {"x~y": 1}}}}));
    let n = d
        .resolve_ref(d.root_key(), "#/paths/~1a~1%7Bb%7D/get/x~0y")
        .unwrap();
    assert_eq!(n.value, &json!(1));
    assert_eq!(n.pointer, "/paths/~1a~1{b}/get/x~0y");
}

#[test]
fn array_indices_are_strict() {
    let v = json!({"a": [1, 2]});
    assert_eq!(get_pointer(&v, "/a/1"), Some(&json!(2)));
    assert_eq!(get_pointer(&v, "/a/01"), None);
    assert_eq!(get_pointer(&v, "/a/-"), None);
    assert_eq!(get_pointer(&v, "a"), None);
}

#[test]
fn chains_are_followed_and_loops_named() {
    let d = doc(
        json!({"openapi": "3.0.0", "paths": {}, "components": {"parameters": {
            "a": {"$ref": "#/components/parameters/b"},
            "b": {"name": "x", "in": "query"},
            "c": {"$ref": "#/components/parameters/d"},
            "d": {"$ref": "#/components/parameters/c"},
            "e": {"$ref": "#/components/parameters/nope"}
        }}}),
    );
    let params = d
        .root_node()
        .child("components")
        .unwrap()
        .child("parameters")
        .unwrap();
    let b = d.deref(params.child("a").unwrap()).unwrap();
    assert_eq!(b.value["name"], "x");
    let err = d.deref(params.child("c").unwrap()).unwrap_err();
    assert!(err.message.starts_with("circular $ref"), "{err}");
    assert!(err.message.contains("parameters/c -> "), "{err}");
    let err = d.deref(params.child("e").unwrap()).unwrap_err();
    assert!(err.message.contains("points at nothing"), "{err}");
    assert_eq!(err.pointer, "/components/parameters/e/$ref");
}
