use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::*;

/// A nested struct as the generator writes one: derived serde under
/// `remote = "Self"`, wrapped to keep the member order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
struct Filter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    color: Option<String>,
    #[serde(
        default,
        deserialize_with = "present_integers",
        skip_serializing_if = "Option::is_none"
    )]
    size: Option<Option<i64>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    note: Option<Option<String>>,
    #[serde(flatten)]
    extra: Map<String, Value>,
    #[serde(skip)]
    member_order: MemberOrder,
}

impl Serialize for Filter {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_in_order(
            &self.member_order,
            Filter::serialize(self, serde_json::value::Serializer),
            s,
        )
    }
}

impl<'de> Deserialize<'de> for Filter {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (members, order) = members_in_order(d)?;
        let mut this = Filter::deserialize(members).map_err(de::Error::custom)?;
        this.member_order = order;
        Ok(this)
    }
}

fn round_trip(value: Value) -> Value {
    let typed: Filter = serde_json::from_value(value).unwrap();
    serde_json::to_value(&typed).unwrap()
}

#[test]
fn nested_structs_keep_member_order_unknown_members_and_nulls() {
    for value in [
        json!({}),
        json!({"color": "red"}),
        json!({"size": 3, "color": "red"}),
        json!({"x": [1, {"b": 2, "a": 1}], "size": null, "color": "dark blue"}),
        json!({"note": null, "size": 2.0, "y": null}),
        json!({"note": "n", "z": 1.5, "color": "c", "size": -7}),
    ] {
        let back = round_trip(value.clone());
        // Order-sensitive: compare the text.
        let want = value.to_string().replace("2.0", "2");
        assert_eq!(back.to_string(), want);
    }
}

#[test]
fn a_struct_built_in_code_serializes_in_field_order_with_added_members_last() {
    let mut typed: Filter = serde_json::from_value(json!({"note": "n", "color": "c"})).unwrap();
    typed.size = Some(Some(4));
    assert_eq!(
        serde_json::to_string(&typed).unwrap(),
        r#"{"note":"n","color":"c","size":4}"#
    );
    let built = Filter {
        color: Some("c".into()),
        size: None,
        note: Some(None),
        extra: Map::new(),
        member_order: MemberOrder::default(),
    };
    assert_eq!(
        serde_json::to_string(&built).unwrap(),
        r#"{"color":"c","note":null}"#
    );
    assert_eq!(
        built,
        serde_json::from_value(json!({"note": null, "color": "c"})).unwrap()
    );
}

#[test]
fn integers_read_integral_numbers_and_name_what_does_not_fit() {
    let read = |v: Value| <i64 as Integers>::from_json(v);
    assert_eq!(read(json!(5)), Ok(5));
    assert_eq!(read(json!(5.0)), Ok(5));
    assert_eq!(
        read(json!(-9_007_199_254_740_992.0)),
        Ok(-9_007_199_254_740_992)
    );
    assert_eq!(read(json!(i64::MAX)), Ok(i64::MAX));
    let err = read(json!(u64::MAX)).unwrap_err();
    assert!(
        err.contains("18446744073709551615 does not fit") && err.contains("i64"),
        "{err}"
    );
    let err = read(json!(1e300)).unwrap_err();
    assert!(err.contains("too large to read exactly"), "{err}");
    assert!(read(json!(1.5)).unwrap_err().contains("not an integer"));
    assert!(
        read(json!("5"))
            .unwrap_err()
            .contains("expected an integer")
    );
    let err = <i32 as Integers>::from_json(json!(3_000_000_000_u64)).unwrap_err();
    assert!(
        err.contains("3000000000 does not fit") && err.contains("i32"),
        "{err}"
    );
    assert_eq!(<u64 as Integers>::from_json(json!(u64::MAX)), Ok(u64::MAX));
    assert!(<u64 as Integers>::from_json(json!(-1)).is_err());
    assert_eq!(
        <Vec<Option<i64>> as Integers>::from_json(json!([1, null, 2.0])),
        Ok(vec![Some(1), None, Some(2)])
    );
    let err = <Vec<i32> as Integers>::from_json(json!([1, 1e10])).unwrap_err();
    assert!(err.starts_with("item 1: "), "{err}");
}

#[test]
fn a_value_that_does_not_fit_is_a_parse_error_naming_it() {
    let err = serde_json::from_value::<Filter>(json!({"size": 10_000_000_000_000_000_000_u64}))
        .unwrap_err();
    assert!(err.to_string().contains("10000000000000000000"), "{err}");
}
