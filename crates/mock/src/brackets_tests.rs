use serde_json::json;

use super::*;

fn tree(pairs: &[(&str, &str)], name: &str) -> Value {
    let mut out = Value::Null;
    for (k, v) in pairs {
        if let Some(path) = segments(k, name) {
            insert(&mut out, &path, Value::from(*v));
        }
    }
    out
}

#[test]
fn indexed_members_nest_as_stripe_and_qs_read_them() {
    let got = tree(
        &[
            ("tax_id_data[0][type]", "eu_vat"),
            ("tax_id_data[0][value]", "DE1"),
            ("tax_id_data[1][type]", "gb_vat"),
            ("other", "x"),
        ],
        "tax_id_data",
    );
    assert_eq!(
        got,
        json!([{"type": "eu_vat", "value": "DE1"}, {"type": "gb_vat"}])
    );
    let got = tree(
        &[
            ("m[a][b]", "1"),
            ("m[tags][0]", "x"),
            ("m[tags][1]", "y"),
            ("m[r]", "1"),
            ("m[r]", "2"),
            ("m[e][]", "p"),
            ("m[e][]", "q"),
        ],
        "m",
    );
    assert_eq!(
        got,
        json!({"a": {"b": "1"}, "tags": ["x", "y"], "r": ["1", "2"], "e": ["p", "q"]})
    );
}

#[test]
fn hostile_keys_stay_small() {
    assert_eq!(segments("m", "m"), None);
    assert_eq!(segments("mx[a]", "m"), None);
    assert_eq!(segments("m[a", "m"), None);
    assert_eq!(segments("m[a]x", "m"), None);
    // A huge index appends; a name under an array is dropped.
    let got = tree(&[("m[99999999999]", "a"), ("m[x]", "b")], "m");
    assert_eq!(got, json!(["a"]));
}
