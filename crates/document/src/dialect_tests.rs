use super::*;

fn conv(v: Value) -> Value {
    convert(&v, SpecVersion::OpenApi30, Direction::Input, &mut |r| {
        format!("#/$defs/{}", r.rsplit('/').next().unwrap())
    })
}

#[test]
fn nullable_becomes_type_union_and_null_enum() {
    assert_eq!(
        conv(json!({"type": "string", "nullable": true, "enum": ["a", "b"]})),
        json!({"type": ["string", "null"], "enum": ["a", "b", null]})
    );
}

#[test]
fn nullable_without_type_wraps_in_any_of() {
    assert_eq!(
        conv(
            json!({"allOf": [{"$ref": "#/components/schemas/Pet"}], "nullable": true, "description": "d"})
        ),
        json!({"description": "d", "anyOf": [{"allOf": [{"$ref": "#/$defs/Pet"}]}, {"type": "null"}]})
    );
}

#[test]
fn boolean_exclusive_bounds_become_numbers() {
    assert_eq!(
        conv(
            json!({"type": "integer", "minimum": 1, "exclusiveMinimum": true, "maximum": 9, "exclusiveMaximum": false})
        ),
        json!({"type": "integer", "exclusiveMinimum": 1, "maximum": 9})
    );
}

#[test]
fn example_becomes_examples_and_openapi_keywords_go() {
    assert_eq!(
        conv(
            json!({"type": "object", "example": {"a": 1}, "x-foo": 1, "discriminator": {"propertyName": "t"}, "xml": {}})
        ),
        json!({"type": "object", "examples": [{"a": 1}]})
    );
}

#[test]
fn read_only_properties_leave_inputs_and_required() {
    let s = json!({"type": "object", "required": ["id", "name"], "properties": {
        "id": {"type": "integer", "readOnly": true}, "name": {"type": "string"},
        "secret": {"type": "string", "writeOnly": true}}});
    assert_eq!(
        conv(s.clone()),
        json!({"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"}, "secret": {"type": "string", "writeOnly": true}}})
    );
    let out = convert(&s, SpecVersion::OpenApi30, Direction::Output, &mut |r| {
        r.into()
    });
    assert!(out["properties"].get("secret").is_none());
    assert!(out["properties"].get("id").is_some());
    assert!(
        out.get("required").is_none(),
        "outputs do not enforce presence"
    );
}

#[test]
fn output_schemas_keep_types_but_not_brittle_constraints() {
    let s = json!({"type": "object", "required": ["a"], "additionalProperties": false,
        "properties": {"a": {"type": "string", "enum": ["x"], "maxLength": 3, "nullable": true},
                       "n": {"type": "integer", "minimum": 1}}});
    let out = convert(&s, SpecVersion::OpenApi30, Direction::Output, &mut |r| {
        r.into()
    });
    assert_eq!(
        out,
        json!({"type": ["object", "null"], "properties": {"a": {"type": ["string", "null"]}, "n": {"type": ["integer", "null"]}}})
    );
    let strict = convert(
        &s,
        SpecVersion::OpenApi30,
        Direction::StrictOutput,
        &mut |r| r.into(),
    );
    assert_eq!(
        strict,
        json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}, "n": {"type": "integer"}}}),
        "strict output keeps the types but not the constraints either"
    );
}

fn conv_as(v: Value, direction: Direction) -> Value {
    convert(&v, SpecVersion::OpenApi30, direction, &mut |r| {
        format!("#/$defs/{}", r.rsplit('/').next().unwrap())
    })
}

#[test]
fn tolerant_output_schemas_admit_null_wherever_a_type_is_given() {
    let s = json!({"type": "object", "properties": {
        "name": {"type": "string", "format": "dateTime"},
        "size": {"type": "integer", "nullable": true},
        "tags": {"type": "array", "items": {"type": "string"}},
        "owner": {"$ref": "#/components/schemas/User"},
        "kind": {"type": ["string", "number"]},
        "none": {"type": "null"}}});
    assert_eq!(
        conv_as(s.clone(), Direction::Output),
        json!({"type": ["object", "null"], "properties": {
            "name": {"type": ["string", "null"], "format": "dateTime"},
            "size": {"type": ["integer", "null"]},
            "tags": {"type": ["array", "null"], "items": {"type": ["string", "null"]}},
            "owner": {"$ref": "#/$defs/User"},
            "kind": {"type": ["string", "number", "null"]},
            "none": {"type": "null"}}})
    );
    // Strict: the document's types, `nullable` honoured.
    assert_eq!(
        conv_as(s, Direction::StrictOutput),
        json!({"type": "object", "properties": {
            "name": {"type": "string", "format": "dateTime"},
            "size": {"type": ["integer", "null"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "owner": {"$ref": "#/$defs/User"},
            "kind": {"type": ["string", "number"]},
            "none": {"type": "null"}}})
    );
}

#[test]
fn tolerant_output_schemas_drop_whole_value_assertions_and_make_one_of_any_of() {
    let s = json!({"type": "object", "not": {"type": "string"},
        "if": {"properties": {"a": {"const": 1}}}, "then": {"required": ["b"]},
        "propertyNames": {"pattern": "^[a-z]+$"}, "dependentRequired": {"a": ["b"]},
        "oneOf": [{"$ref": "#/components/schemas/A"}, {"$ref": "#/components/schemas/B"}]});
    assert_eq!(
        conv_as(s.clone(), Direction::Output),
        json!({"type": ["object", "null"], "anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]})
    );
    let strict = conv_as(s, Direction::StrictOutput);
    assert!(
        strict.get("oneOf").is_some() && strict.get("not").is_some(),
        "{strict}"
    );
}

#[test]
fn one_of_beside_any_of_joins_all_of() {
    let s = json!({"anyOf": [{"type": "string"}, {"type": "integer"}],
        "allOf": [{"description": "d"}],
        "oneOf": [{"minLength": 1}, {"maxLength": 3}]});
    assert_eq!(
        conv(s),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}],
            "allOf": [{"description": "d"}, {"anyOf": [{"minLength": 1}, {"maxLength": 3}]}]})
    );
}

#[test]
fn input_one_of_stays_only_for_exactly_one_of_these_fields() {
    // GitHub's attestations delete-request: send one list or the other.
    let idiom = json!({"type": "object", "oneOf": [
        {"required": ["subject_digests"]}, {"required": ["attestation_ids"], "description": "d"}]});
    assert_eq!(conv(idiom.clone())["oneOf"], idiom["oneOf"]);
    // Overlapping shapes (GitHub's set_labels body: `{}` fits both).
    let labels = json!({"oneOf": [
        {"type": "object", "properties": {"labels": {"type": "array", "items": {"type": "string"}}}},
        {"type": "object", "properties": {"labels": {"type": "array", "items": {"type": "object"}}}}]});
    let converted = conv(labels.clone());
    assert_eq!(converted["anyOf"], labels["oneOf"]);
    assert!(converted.get("oneOf").is_none());
    // GitHub's own form, with each branch's properties.
    let github = json!({"type": "object", "oneOf": [
        {"properties": {"subject_digests": {"type": "array"}}, "required": ["subject_digests"]},
        {"properties": {"attestation_ids": {"type": "array"}}, "required": ["attestation_ids"]}]});
    assert!(conv(github).get("oneOf").is_some());
    // A branch whose required fields another declares cannot be told
    // apart by its fields: anyOf.
    let fields = json!({"oneOf": [
        {"type": "object", "properties": {"name": {}, "options": {}}, "required": ["name"]},
        {"type": "object", "required": ["options"]}]});
    assert!(conv(fields).get("anyOf").is_some());
    // A required set within another can never match alone: anyOf.
    let nested = json!({"oneOf": [{"required": ["name"]}, {"required": ["name", "options"]}]});
    assert!(conv(nested).get("anyOf").is_some());
    // Branches that are other schemas, even disjoint ones: anyOf.
    let workflow_id = json!({"oneOf": [{"type": "integer"}, {"type": "string"}]});
    assert_eq!(
        conv(workflow_id),
        json!({"anyOf": [{"type": "integer"}, {"type": "string"}]})
    );
    // The document as written keeps every oneOf.
    assert!(conv_as(labels, Direction::Document).get("oneOf").is_some());
}

#[test]
fn what_input_validation_accepts_the_advertised_schema_accepts() {
    // The advertised schema is the validated one: a value two branches
    // describe is accepted by both, and the idiom still refuses both
    // fields at once.
    let labels = conv(json!({"oneOf": [
        {"type": "object", "properties": {"labels": {"type": "array", "items": {"type": "string"}}}},
        {"type": "object", "properties": {"labels": {"type": "array", "items": {"type": "object"}}}}]}));
    let v = jsonschema::draft202012::new(&labels).unwrap();
    assert!(v.is_valid(&json!({})));
    assert!(v.is_valid(&json!({"labels": []})));
    assert!(v.is_valid(&json!({"labels": ["bug"]})));
    assert!(!v.is_valid(&json!({"labels": [1]})));
    let idiom =
        conv(json!({"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}));
    let v = jsonschema::draft202012::new(&idiom).unwrap();
    assert!(v.is_valid(&json!({"a": 1})));
    assert!(!v.is_valid(&json!({"a": 1, "b": 2})));
}

#[test]
fn malformed_keywords_are_repaired() {
    assert_eq!(
        conv(
            json!({"type": "object", "properties": {"a": {"type": "file", "required": true}}, "required": ["a", "a"], "enum": "x", "minLength": -1})
        ),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
    );
    assert_eq!(conv(json!("string")), json!({}));
}

#[test]
fn ref_siblings_kept_when_meaningful() {
    assert_eq!(
        conv(
            json!({"$ref": "#/components/schemas/Pet", "description": "the pet", "x-a": 1, "type": "object"})
        ),
        json!({"$ref": "#/$defs/Pet", "description": "the pet"})
    );
}

#[test]
fn openapi_31_schemas_pass_through() {
    let s = json!({"type": ["string", "null"], "const": "a", "exclusiveMinimum": 3, "$ref": "#/components/schemas/X"});
    let out = convert(&s, SpecVersion::OpenApi31, Direction::Input, &mut |_| {
        "#/$defs/X".into()
    });
    assert_eq!(
        out,
        json!({"$ref": "#/$defs/X", "type": ["string", "null"], "const": "a", "exclusiveMinimum": 3})
    );
}

#[test]
fn literal_braces_in_patterns_are_escaped() {
    assert_eq!(repair_pattern("a{2}b{1,}c{1,3}"), "a{2}b{1,}c{1,3}");
    assert_eq!(
        repair_pattern("^(?:{[0-9a-f]{4}}|x)$"),
        "^(?:\\{[0-9a-f]{4}\\}|x)$"
    );
    assert_eq!(repair_pattern("[{}]\\{x{"), "[{}]\\{x\\{");
    assert_eq!(repair_pattern("{a}"), "\\{a\\}");
}

#[test]
fn tuple_items_become_prefix_items() {
    assert_eq!(
        conv(json!({"type": "array", "items": [{"type": "string"}]})),
        json!({"type": "array", "prefixItems": [{"type": "string"}]})
    );
}
