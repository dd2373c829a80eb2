use super::*;

#[test]
fn the_send_tool_is_for_the_app_only() {
    let tool = send_tool().expect("a valid tool");
    assert_eq!(tool.name, SEND_TOOL);
    let meta = serde_json::to_value(tool.meta.unwrap()).unwrap();
    assert_eq!(meta["ui"]["visibility"], json!(["app"]));
    assert_eq!(meta["ui"]["resourceUri"], REVIEW_URI);
    let annotations = tool.annotations.unwrap();
    assert_eq!(annotations.destructive_hint, Some(true));
}

#[test]
fn a_gated_tool_names_the_form_in_both_spellings() {
    let mut tool = Tool::new(
        "delete_pet",
        "Delete a pet",
        std::sync::Arc::new(serde_json::Map::new()),
    );
    name_the_form(&mut tool);
    let meta = serde_json::to_value(tool.meta.unwrap()).unwrap();
    assert_eq!(meta["ui"]["resourceUri"], REVIEW_URI);
    assert_eq!(meta["ui/resourceUri"], REVIEW_URI);
    assert_eq!(meta["ui"]["visibility"], json!(["model"]));
}

#[test]
fn the_form_loads_nothing_and_needs_no_network() {
    // The extension's default content security policy allows inline
    // script and style only: no external script, style, image or fetch.
    let html = REVIEW_HTML.to_ascii_lowercase();
    for banned in [
        "src=",
        "href=",
        "fetch(",
        "xmlhttprequest",
        "import(",
        "innerhtml",
        "eval(",
    ] {
        assert!(!html.contains(banned), "the form uses {banned}");
    }
    assert!(html.contains("ui/initialize") && html.contains("ui/notifications/initialized"));
    assert!(REVIEW_HTML.contains(REVIEW_KEY) && REVIEW_HTML.contains("sendTool"));
}
