use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::json;

use super::*;

#[test]
fn a_result_gives_the_script_its_structured_content_else_its_json_else_its_text() {
    let mut structured = CallToolResult::success(vec![ContentBlock::text("ignored")]);
    structured.structured_content = Some(json!({"id": 1}));
    assert_eq!(value_of(structured.clone(), None), json!({"id": 1}));
    // Not wrapped in `items`: as it is.
    assert_eq!(value_of(structured, Some("items")), json!({"id": 1}));
    let mut wrapped = CallToolResult::success(vec![ContentBlock::text("[1]")]);
    wrapped.structured_content = Some(json!({"items": [1]}));
    assert_eq!(value_of(wrapped, Some("items")), json!([1]));
    let json_text = CallToolResult::success(vec![ContentBlock::text("[1, 2]")]);
    assert_eq!(value_of(json_text, None), json!([1, 2]));
    let text = CallToolResult::success(vec![ContentBlock::text("plain words")]);
    assert_eq!(value_of(text, None), json!("plain words"));
}

#[test]
fn a_failure_carries_every_text_block() {
    let result = CallToolResult::error(vec![
        ContentBlock::text("HTTP 404"),
        ContentBlock::text("no pet 7"),
    ]);
    assert_eq!(text_of(&result), "HTTP 404\nno pet 7");
}
