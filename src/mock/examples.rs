//! Picking documented examples: a media type's `example`, then its named
//! `examples` (each possibly a `$ref` to `components.examples`, whose
//! `value` is used; `externalValue` is never fetched).

use serde_json::Value;

use crate::document::Document;
use crate::document::refs::Located;

/// The examples of a media type object (or a parameter/header object), in
/// document order: `example` first (named `example`), then each entry of
/// `examples` that has an inline `value`.
pub fn named(doc: &Document, media: &Located<'_>) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    if let Some(v) = media.value.get("example") {
        out.push(("example".to_string(), v.clone()));
    }
    let Some(examples) = media.child("examples") else {
        return out;
    };
    let Value::Object(map) = examples.value else {
        return out;
    };
    for name in map.keys() {
        let Some(node) = examples.child(name) else {
            continue;
        };
        let Ok(example) = doc.deref(node) else {
            continue;
        };
        if let Some(v) = example.value.get("value") {
            out.push((name.clone(), v.clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inline_and_referenced_examples_in_order() {
        let doc = Document::from_value(
            "t",
            json!({"openapi": "3.0.3", "paths": {}, "components": {"examples": {
                "Cat": {"summary": "a cat", "value": {"name": "Tom"}},
                "Far": {"externalValue": "https://example.com/x.json"}}},
                "x": {"example": 1, "examples": {
                    "cat": {"$ref": "#/components/examples/Cat"},
                    "far": {"$ref": "#/components/examples/Far"},
                    "dog": {"value": {"name": "Rex"}},
                    "gone": {"$ref": "#/components/examples/Nope"}}}}),
        )
        .unwrap();
        let media = doc.root_node().child("x").unwrap();
        assert_eq!(
            named(&doc, &media),
            vec![
                ("example".to_string(), json!(1)),
                ("cat".to_string(), json!({"name": "Tom"})),
                ("dog".to_string(), json!({"name": "Rex"})),
            ]
        );
    }
}
