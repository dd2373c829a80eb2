use super::*;
use serde_json::json;

fn sel(e: &str, v: Value) -> Result<Value, SelectError> {
    run(e, &v, 1 << 20)
}

#[test]
fn selects_fields_and_maps_arrays() {
    let repo = json!({"id": 1, "name": "hello", "owner": {"login": "octo"}, "topics": ["a", "b"]});
    assert_eq!(
        sel("{name, owner: .owner.login}", repo.clone()).unwrap(),
        json!({"name": "hello", "owner": "octo"})
    );
    assert_eq!(sel(".topics[]", repo.clone()).unwrap(), json!(["a", "b"]));
    assert_eq!(
        sel("map(.id) | add", json!([{"id": 1}, {"id": 2}])).unwrap(),
        json!(3)
    );
    assert_eq!(
        sel(
            "[.[] | select(.x > 1)] | length",
            json!([{"x": 1}, {"x": 2}])
        )
        .unwrap(),
        json!(1)
    );
    // Field names that are also refused words are fine.
    assert_eq!(sel(".range", json!({"range": 5})).unwrap(), json!(5));
    assert_eq!(
        sel("{def: .a}", json!({"a": 1})).unwrap(),
        json!({"def": 1})
    );
    assert_eq!(sel(".. | numbers", json!({"a": [1]})).unwrap(), json!(1));
}

#[test]
fn bad_and_dangerous_selectors_are_named() {
    let invalid = |e: &str| match sel(e, json!({})) {
        Err(SelectError::Invalid { reason, .. }) => reason,
        other => panic!("{e}: {other:?}"),
    };
    assert!(invalid(".a |").contains("expected"), "{}", invalid(".a |"));
    assert!(invalid("nosuchfunction").contains("nosuchfunction"));
    assert!(invalid("repeat(.)").contains("repeat"));
    assert!(invalid("def f: f; f").contains("def"));
    assert!(invalid("[range(1e9)]").contains("range"));
    assert!(invalid("recurse(.a)").contains("recurse"));
    assert!(invalid("$ENV").contains("environment"));
    assert!(invalid("halt").contains("stop"));
    assert!(invalid(&".".repeat(MAX_EXPRESSION + 1)).contains("limit"));
    // "range" inside a string is text.
    assert_eq!(sel("\"range\"", json!(null)).unwrap(), json!("range"));
    match sel(".a.b", json!([1])) {
        Err(SelectError::Failed { reason, .. }) => assert!(!reason.is_empty()),
        other => panic!("{other:?}"),
    }
    match run(".[]", &json!(["x".repeat(100), "y".repeat(100)]), 150) {
        Err(SelectError::Limit { reason, .. }) => assert!(reason.contains("150")),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn apply_runs_off_the_async_thread() {
    let v = apply(".a", json!({"a": [1, 2]}), 1000).await.unwrap();
    assert_eq!(v, json!([1, 2]));
}
