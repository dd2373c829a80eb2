use super::*;
use serde_json::json;

#[test]
fn first_sentences() {
    assert_eq!(first_sentence("One. Two.", 50), "One.");
    assert_eq!(first_sentence("v1.2 is here\nmore", 50), "v1.2 is here");
    assert_eq!(first_sentence("abcdefghij", 5), "abcd…");
}

#[test]
fn big_enums_are_compacted_small_ones_kept() {
    let values: Vec<String> = (0..100).map(|i| format!("property_{i}")).collect();
    let big = json!({"type": "string", "enum": values});
    let compact = without_big_enum(big.as_object().unwrap()).unwrap();
    assert_eq!(compact["type"], "string");
    assert!(compact.get("enum").is_none());
    assert!(
        compact["description"]
            .as_str()
            .unwrap()
            .starts_with("One of 100 values: property_0")
    );
    let small = json!({"type": "string", "enum": ["a", "b"]});
    assert!(without_big_enum(small.as_object().unwrap()).is_none());
}
