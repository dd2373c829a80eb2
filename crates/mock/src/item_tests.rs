use super::*;
use serde_json::json;

#[test]
fn merge_patch_follows_rfc_7396() {
    // RFC 7396 appendix A, a few of its cases.
    for (target, patch, result) in [
        (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
        (
            json!({"a": "b"}),
            json!({"b": "c"}),
            json!({"a": "b", "b": "c"}),
        ),
        (json!({"a": "b"}), json!({"a": null}), json!({})),
        (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
        (
            json!({"a": {"b": "c"}}),
            json!({"a": {"b": "d", "c": null}}),
            json!({"a": {"b": "d"}}),
        ),
        (
            json!({"e": null}),
            json!({"a": 1}),
            json!({"e": null, "a": 1}),
        ),
        (
            json!([1, 2]),
            json!({"a": "b", "c": null}),
            json!({"a": "b"}),
        ),
    ] {
        let mut t = target.clone();
        merge_patch(&mut t, &patch);
        assert_eq!(t, result, "{target} + {patch}");
    }
}

#[test]
fn uuids_are_version_4_shaped_distinct_and_stable() {
    let a = uuid("/v1/customers", 1);
    let b = uuid("/v1/customers", 2);
    let c = uuid("/v1/invoices", 1);
    assert_eq!(a, uuid("/v1/customers", 1));
    assert!(a != b && a != c);
    let schema = json!({"type": "string", "format": "uuid"});
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    for id in [&a, &b, &c] {
        assert!(validator.is_valid(&json!(id)), "{id}");
        assert_eq!(&id[14..15], "4", "{id}");
        assert_eq!(&id[19..20], "8", "{id}");
    }
}

#[test]
fn ids_compare_by_their_text_and_locations_escape_them() {
    assert!(same_id(Some(&json!(7)), "7"));
    assert!(same_id(Some(&json!("cus_1")), "cus_1"));
    assert!(!same_id(Some(&json!({"id": 7})), "7"));
    assert!(!same_id(None, "7"));
    assert_eq!(encode("a b/c_d-e.f~"), "a%20b%2Fc_d-e.f~");
    assert_eq!(path_id("12", &IdKind::Integer), json!(12));
    assert_eq!(path_id("x", &IdKind::Integer), json!("x"));
}
