use serde_json::json;

use super::*;

fn scope() -> Scope {
    let mut steps = BTreeMap::new();
    steps.insert(
        "find-pet".to_string(),
        Map::from_iter([("pet_id".to_string(), json!(7))]),
    );
    Scope {
        inputs: json!({"tags": ["dog"], "owner": {"name": "Ann", "pets": [{"id": 3}]}}),
        steps,
        current: Some(Exchange {
            status: Some(200),
            method: "GET".into(),
            url: "/pets".into(),
            request_body: json!({}),
            headers: vec![("X-Rate".into(), "5".into())],
            body: json!([{"id": 1, "status": "Available"}]),
            outputs: Map::new(),
        }),
    }
}

#[test]
fn expressions_read_inputs_steps_and_the_response() {
    let s = scope();
    assert_eq!(s.eval("$inputs.tags"), Some(json!(["dog"])));
    assert_eq!(s.eval("$inputs.owner.name"), Some(json!("Ann")));
    assert_eq!(s.eval("$inputs.owner.pets[0].id"), Some(json!(3)));
    assert_eq!(s.eval("$inputs.owner#/pets/0/id"), Some(json!(3)));
    assert_eq!(s.eval("$steps.find-pet.outputs.pet_id"), Some(json!(7)));
    assert_eq!(s.eval("$statusCode"), Some(json!(200)));
    assert_eq!(s.eval("$response.body#/0/id"), Some(json!(1)));
    assert_eq!(s.eval("$response.header.x-rate"), Some(json!("5")));
    assert_eq!(s.eval("$steps.nope.outputs.x"), None);
    assert_eq!(
        s.fill(&json!({"id": "$steps.find-pet.outputs.pet_id", "note": "pet {$inputs.owner.name}", "n": 1}))
            .unwrap(),
        json!({"id": 7, "note": "pet Ann", "n": 1})
    );
    let err = s.fill(&json!("$inputs.missing")).unwrap_err();
    assert!(err.contains("$inputs.missing"), "{err}");
}

#[test]
fn simple_conditions_follow_the_specification() {
    let s = scope();
    for (condition, expected) in [
        ("$statusCode == 200", true),
        ("$statusCode != 200", false),
        ("$statusCode >= 200 && $statusCode < 300", true),
        ("$statusCode == 404 || $statusCode == 200", true),
        ("!($statusCode == 200)", false),
        ("$response.body#/0/status == 'available'", true),
        ("$response.body#/0/status == 'it''s'", false),
        ("$response.header.X-Rate > 4", true),
        ("$response.body#/0/missing == null", true),
        ("{$statusCode == 200}", true),
    ] {
        assert_eq!(s.holds(condition), Ok(expected), "{condition}");
    }
    let err = s.holds("$statusCode == available").unwrap_err();
    assert!(err.contains("single quotes"), "{err}");
    assert!(s.holds("($statusCode == 200").is_err());
}
