use super::*;

use openapi2mcp_document::Document;

fn synth(schemas: Value, root: Value) -> Value {
    let doc = Document::from_value(
        "t",
        json!({"openapi": "3.0.3", "paths": {}, "components": {"schemas": schemas}}),
    )
    .unwrap();
    let mut bundler = SchemaBundler::new(&doc);
    synthesize(
        &mut Synth::new(0),
        &mut bundler,
        &Schema::inline(&doc, &root),
    )
}

#[test]
fn formats_bounds_and_lengths() {
    let v = synth(
        json!({}),
        json!({"type": "object", "required": ["a"], "properties": {
            "a": {"type": "string", "format": "date-time"},
            "b": {"type": "integer", "minimum": 10, "maximum": 20, "multipleOf": 4},
            "c": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 0.5},
            "d": {"type": "string", "minLength": 8},
            "e": {"type": "string", "enum": ["x", "y"]},
            "f": {"type": "string", "nullable": true},
            "g": {"type": ["null", "boolean"]},
            "h": {"type": "array", "items": {"type": "string", "format": "email"}, "minItems": 2}
        }}),
    );
    assert_eq!(
        v,
        json!({"a": "2024-01-01T00:00:00Z", "b": 12, "c": 0.5, "d": "stringxx", "e": "x",
               "f": "string", "g": true, "h": ["user@example.com", "user@example.com"]})
    );
}

#[test]
fn recursion_is_bounded() {
    let v = synth(
        json!({"Node": {"type": "object", "required": ["name", "parent"], "properties": {
            "name": {"type": "string", "example": "root"},
            "parent": {"$ref": "#/components/schemas/Node"},
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
            "next": {"$ref": "#/components/schemas/Node"}}}}),
        json!({"$ref": "#/components/schemas/Node"}),
    );
    assert_eq!(v, json!({"name": "root", "parent": {}, "children": []}));
}

#[test]
fn all_of_merges_and_one_of_takes_the_first() {
    let v = synth(
        json!({"A": {"type": "object", "properties": {"a": {"type": "integer"}}},
               "B": {"type": "object", "properties": {"b": {"type": "boolean"}}}}),
        json!({"allOf": [{"$ref": "#/components/schemas/A"},
                         {"required": ["c"], "properties": {"c": {"oneOf": [{"$ref": "#/components/schemas/B"}, {"type": "string"}]}}}]}),
    );
    assert_eq!(v, json!({"a": 1, "c": {"b": true}}));
}
