use super::*;

#[test]
fn a_handle_answer_names_the_tool_to_call_and_its_argument() {
    let result = handle_answer(
        "start_export",
        "h-1",
        "calling POST /exports",
        Duration::from_secs(30),
        false,
    );
    assert_ne!(result.is_error, Some(true));
    let block = serde_json::to_value(&result.content[0]).unwrap();
    let text = block["text"].as_str().unwrap_or_default().to_string();
    assert!(
        text.contains("`start_export` has not finished after 30 s"),
        "{text}"
    );
    assert!(
        text.contains(r#"`get_call_result` with {"handle":"h-1"}"#),
        "{text}"
    );
    assert_eq!(
        result.structured_content,
        Some(
            json!({"handle": "h-1", "status": "working", "statusMessage": "calling POST /exports"})
        )
    );
}

#[test]
fn a_tool_with_an_output_schema_gets_its_handle_as_an_error_without_structured_content() {
    let result = handle_answer(
        "get_report",
        "h-2",
        "running",
        Duration::from_millis(1500),
        true,
    );
    assert_eq!(result.is_error, Some(true));
    assert_eq!(result.structured_content, None);
}

#[test]
fn durations_read_as_people_write_them() {
    assert_eq!(trim_secs(Duration::from_millis(1500)), "1.5");
    assert_eq!(trim_secs(Duration::from_secs(30)), "30");
    assert_eq!(minutes(Duration::from_secs(3600)), "60 minutes");
    assert_eq!(minutes(Duration::from_secs(90)), "90 s");
}
