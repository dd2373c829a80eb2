use serde_json::{Map, Value, json};

use super::*;

fn object(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

fn pets_schema() -> Map<String, Value> {
    object(json!({
        "type": "object",
        "properties": {
            "petId": {"type": "integer", "minimum": 1, "description": "The pet's id."},
            "name": {"type": "string", "minLength": 1, "title": "Pet name"},
            "status": {"$ref": "#/$defs/Status"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "weight": {"type": ["number", "null"]},
            "vaccinated": {"type": "boolean"}
        },
        "required": ["petId", "name"],
        "$defs": {"Status": {"type": "string", "enum": ["available", "sold"]}}
    }))
}

#[test]
fn nothing_missing_asks_nothing() {
    let schema = pets_schema();
    let args = object(json!({"petId": 1, "name": "Rex"}));
    assert!(!lacks_required(&schema, &args));
    assert!(missing(&schema, &args).is_none());
}

#[test]
fn missing_primitives_become_one_form_in_required_order() {
    let schema = pets_schema();
    let args = object(json!({}));
    assert!(lacks_required(&schema, &args));
    let form = missing(&schema, &args).expect("a form");
    assert_eq!(form.names(), "`petId`, `name`");
    let request = serde_json::to_value(form.request("update_pet")).unwrap();
    assert_eq!(request["mode"], json!("form"), "{request}");
    let properties = &request["requestedSchema"]["properties"];
    assert_eq!(properties["petId"]["type"], json!("integer"));
    assert_eq!(properties["petId"]["minimum"], json!(1));
    assert_eq!(properties["petId"]["description"], json!("The pet's id."));
    assert_eq!(properties["name"]["title"], json!("Pet name"));
    assert_eq!(properties["name"]["minLength"], json!(1));
    assert_eq!(
        request["requestedSchema"]["required"],
        json!(["petId", "name"])
    );
    assert!(
        request["message"]
            .as_str()
            .unwrap()
            .contains("`update_pet` needs `petId`, `name`")
    );
}

#[test]
fn enums_behind_refs_and_nullable_types_are_fields() {
    let mut schema = pets_schema();
    schema.insert("required".into(), json!(["status", "weight", "vaccinated"]));
    let form = missing(&schema, &Map::new()).expect("a form");
    let request = serde_json::to_value(form.request("t")).unwrap();
    let properties = &request["requestedSchema"]["properties"];
    assert_eq!(properties["status"]["enum"], json!(["available", "sold"]));
    assert_eq!(properties["weight"]["type"], json!("number"));
    assert_eq!(properties["vaccinated"]["type"], json!("boolean"));
}

#[test]
fn an_argument_a_form_cannot_hold_means_no_form() {
    let mut schema = pets_schema();
    schema.insert("required".into(), json!(["petId", "tags"]));
    assert!(lacks_required(&schema, &Map::new()));
    assert!(missing(&schema, &Map::new()).is_none());
    // Given the array, the integer alone is asked.
    let form = missing(&schema, &object(json!({"tags": []}))).expect("a form");
    assert_eq!(form.names(), "`petId`");
    // A union of two shapes is no field either.
    let schema = object(json!({
        "properties": {"id": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
        "required": ["id"]
    }));
    assert!(missing(&schema, &Map::new()).is_none());
    // A required name with no property schema cannot be described.
    let schema = object(json!({"properties": {}, "required": ["ghost"]}));
    assert!(missing(&schema, &Map::new()).is_none());
}

#[test]
fn answers_are_checked_and_converted() {
    let mut schema = pets_schema();
    schema.insert("required".into(), json!(["petId", "status", "vaccinated"]));
    let form = missing(&schema, &Map::new()).unwrap();
    let given = form
        .answers(&object(
            json!({"petId": "7", "status": "sold", "vaccinated": "true", "extra": 1}),
        ))
        .unwrap();
    assert_eq!(
        Value::Object(given),
        json!({"petId": 7, "status": "sold", "vaccinated": true}),
        "strings converted, unasked keys dropped"
    );
    let given = form
        .answers(&object(
            json!({"petId": 7.0, "status": "sold", "vaccinated": false}),
        ))
        .unwrap();
    assert_eq!(given["petId"], json!(7));
    let wrong = form
        .answers(&object(
            json!({"petId": 7.5, "status": "sold", "vaccinated": false}),
        ))
        .unwrap_err();
    assert!(
        wrong.contains("`petId`") && wrong.contains("integer"),
        "{wrong}"
    );
    let wrong = form
        .answers(&object(
            json!({"petId": 7, "status": "lost", "vaccinated": false}),
        ))
        .unwrap_err();
    assert!(wrong.contains("`status`"), "{wrong}");
    let left = form
        .answers(&object(json!({"petId": 7, "status": null})))
        .unwrap_err();
    assert!(
        left.contains("`status`") && left.contains("`vaccinated`"),
        "{left}"
    );
}
