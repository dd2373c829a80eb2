use super::*;
use serde_json::json;

fn defs(entries: Value) -> Defs {
    entries
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), Arc::new(v.clone())))
        .collect()
}

#[test]
fn all_of_merges_properties_and_required_through_refs() {
    let defs = defs(json!({
        "NewPet": {"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}},
        "Pet": {"allOf": [{"$ref": "#/$defs/NewPet"}, {"type": "object", "required": ["id"],
            "properties": {"id": {"type": ["integer", "null"], "format": "int64", "readOnly": true}}}]}
    }));
    let shape = object(&defs, &json!({"$ref": "#/$defs/Pet"})).unwrap();
    let names: Vec<&str> = shape.props.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["name", "tags", "id"]);
    assert_eq!(shape.required, ["name", "id"]);
    let id = shape.prop("id").unwrap();
    assert!(id.read_only && !id.write_only);
    assert_eq!(
        (id.ty.as_deref(), id.format.as_deref()),
        (Some("integer"), Some("int64"))
    );
    assert!(shape.prop("tags").unwrap().filterable());
    assert_eq!(
        shape.prop("tags").unwrap().item_ty.as_deref(),
        Some("string")
    );
}

#[test]
fn any_of_takes_the_first_object_branch_and_cycles_end() {
    let defs = defs(json!({
        "customer": {"type": "object", "properties": {"id": {"type": "string"}}},
        "loop": {"$ref": "#/$defs/loop"}
    }));
    let shape = object(
        &defs,
        &json!({"anyOf": [{"type": "string"}, {"$ref": "#/$defs/customer"}]}),
    )
    .unwrap();
    assert_eq!(shape.props[0].name, "id");
    assert!(object(&defs, &json!({"$ref": "#/$defs/loop"})).is_none());
    assert_eq!(
        type_of(&defs, &json!({"type": "array", "items": {}})).as_deref(),
        Some("array")
    );
    assert!(items(&defs, &json!({"type": "object"})).is_none());
}
