use super::*;
use serde_json::json;

fn cut_at(text: &str, len: usize) -> Option<Cut> {
    cut(&text.as_bytes()[..len])
}

#[test]
fn top_level_array_keeps_whole_items() {
    let text = r#"[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"name":"c"}]"#;
    let c = cut_at(text, text.find(r#"{"id":3"#).unwrap() + 4).unwrap();
    assert_eq!(c.value, json!([{"id":1,"name":"a"},{"id":2,"name":"b"}]));
    assert_eq!((c.at.as_str(), c.array, c.kept), ("$", true, 2));
}

#[test]
fn partial_item_is_dropped_not_half_kept() {
    let text = r#"[{"id":1,"tags":["x","y"]},{"id":2,"tags":["z","w"]}]"#;
    // Cut inside the second item's tags: the second item goes whole.
    let c = cut_at(text, text.find(r#""w""#).unwrap() + 1).unwrap();
    assert_eq!(c.value, json!([{"id":1,"tags":["x","y"]}]));
    assert_eq!(c.kept, 1);
}

#[test]
fn wrapped_list_keeps_siblings_and_whole_items() {
    let text = r#"{"total":3,"items":[{"id":1},{"id":2},{"id":3}],"next":"c"}"#;
    let c = cut_at(text, text.find(r#"{"id":3"#).unwrap() + 3).unwrap();
    assert_eq!(c.value, json!({"total":3,"items":[{"id":1},{"id":2}]}));
    assert_eq!((c.at.as_str(), c.array, c.kept), ("$.items", true, 2));
}

#[test]
fn only_inner_array_has_whole_items() {
    let text = r#"[{"big":[1,2,3,4,5]}]"#;
    let c = cut_at(text, text.find('4').unwrap() + 1).unwrap();
    assert_eq!(c.value, json!([{"big":[1,2,3]}]));
    assert_eq!((c.at.as_str(), c.kept), ("$[0].big", 3));
}

#[test]
fn number_running_into_the_cut_is_not_kept() {
    let c = cut(b"[1,2,345").unwrap();
    assert_eq!(c.value, json!([1, 2]));
}

#[test]
fn object_without_arrays_keeps_whole_members() {
    let text = r#"{"a":"x","b":"a very long string that is cut"}"#;
    let c = cut_at(text, 25).unwrap();
    assert_eq!(c.value, json!({"a":"x"}));
    assert_eq!((c.at.as_str(), c.array, c.kept), ("$", false, 1));
}

#[test]
fn odd_keys_are_quoted_in_the_path() {
    let text = r#"{"the items":[1,2,3]}"#;
    let c = cut_at(text, text.find('3').unwrap()).unwrap();
    assert_eq!(c.at, r#"$["the items"]"#);
}

#[test]
fn escaped_quotes_and_brackets_inside_strings() {
    let text = r#"[{"s":"a\"]}["},{"s":"b"}]"#;
    let c = cut_at(text, text.len() - 3).unwrap();
    assert_eq!(c.value, json!([{"s":"a\"]}["}]));
}

#[test]
fn nothing_to_keep() {
    assert_eq!(cut(br#""a long string"#), None);
    assert_eq!(cut(br#"[{"id":1"#), None);
    assert_eq!(cut(b""), None);
    assert_eq!(cut(b"<html>"), None);
    assert_eq!(cut(br#"{"a" 1}"#), None);
}

#[test]
fn every_prefix_is_valid_or_none() {
    let text = r#"{"n":[1,2.5e3,true,null,"s\u00e9"],"o":{"k":[[],[{}],{"x":-0}]},"z":"end"}"#;
    for len in 0..=text.len() {
        if let Some(c) = cut_at(text, len) {
            let again = serde_json::to_string(&c.value).unwrap();
            assert!(serde_json::from_str::<Value>(&again).is_ok(), "at {len}");
        }
    }
}
