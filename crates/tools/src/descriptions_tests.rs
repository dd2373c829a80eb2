use super::*;

#[test]
fn links_become_text_and_urls_go() {
    assert_eq!(
        clean("See [the docs](https://docs.github.com/x) or https://example.com/y for more."),
        "See the docs or for more."
    );
    assert_eq!(clean("a <https://x.y/z> b"), "a b");
    assert_eq!(clean("[not a link] (x y)"), "[not a link] (x y)");
}

#[test]
fn summaries_keep_their_first_paragraph() {
    assert_eq!(
        first_paragraphs("Get a pet\n\nReturns it.\n\nMore."),
        "Get a pet\n\nReturns it."
    );
    assert_eq!(
        first_paragraphs("One paragraph only."),
        "One paragraph only."
    );
}

#[test]
fn boilerplate_repeated_across_tools_is_dropped() {
    use openapi2mcp_model::binding::HttpBinding;
    use openapi2mcp_model::catalog::{Origin, ToolAnnotations, ToolDef};
    let tool = |d: &str| ToolDef {
        name: "t".into(),
        title: "T".into(),
        description: d.into(),
        input_schema: serde_json::json!({"type": "object"}),
        output_schema: None,
        input_full: None,
        output_full: None,
        annotations: ToolAnnotations {
            title: "T".into(),
            read_only_hint: true,
            destructive_hint: false,
            idempotent_hint: true,
            open_world_hint: true,
        },
        origin: Origin {
            operation_id: None,
            method: "GET".into(),
            path: "/".into(),
            tags: vec![],
            deprecated: false,
        },
        http: HttpBinding {
            method: "GET".into(),
            path: "/".into(),
            params: vec![],
            body: None,
            servers: vec![],
            security: vec![],
            output: None,
            response_media_types: Vec::new(),
            response_headers: Vec::new(),
            lro: None,
            workflow: None,
        },
    };
    let mut tools: Vec<ToolDef> = (0..6)
        .map(|i| {
            tool(&format!(
                "Does thing {i}. Tokens need the `repo` scope.\n\nDetails."
            ))
        })
        .collect();
    tools.push(tool("Tokens need the `repo` scope."));
    let mut tools: Vec<ToolHead> = tools.iter().map(ToolHead::of).collect();
    shorten_all(&mut tools);
    assert_eq!(tools[0].description, "Does thing 0.");
    // A description that is all boilerplate keeps it.
    assert_eq!(tools[6].description, "Tokens need the `repo` scope.");
}
