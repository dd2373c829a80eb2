use super::*;

#[test]
fn every_definition_is_a_valid_tool() {
    for m in DISCOVERY.iter().chain(TOOLSETS).chain(CODE).chain(HANDLES) {
        let tool = m.tool("Pet Store").expect("valid tool");
        assert_eq!(tool.name, m.name());
        assert_eq!(
            MetaTool::find(
                DISCOVERY
                    .iter()
                    .chain(TOOLSETS)
                    .chain(CODE)
                    .chain(HANDLES)
                    .copied()
                    .collect::<Vec<_>>()
                    .as_slice(),
                m.name()
            ),
            Some(*m)
        );
    }
}

#[test]
fn call_annotations_are_truthful() {
    let ro = MetaTool::CallReadOnly.definition("X");
    assert_eq!(ro["annotations"]["readOnlyHint"], true);
    let rw = MetaTool::Call.definition("X");
    assert_eq!(rw["annotations"]["readOnlyHint"], false);
    assert_eq!(rw["annotations"]["destructiveHint"], true);
    assert_eq!(rw["annotations"]["idempotentHint"], false);
}

#[test]
fn the_call_result_tool_only_reads() {
    let def = MetaTool::CallResult.definition("X");
    assert_eq!(def["annotations"]["readOnlyHint"], true);
    assert_eq!(def["annotations"]["idempotentHint"], true);
    assert_eq!(def["inputSchema"]["required"], json!(["handle"]));
}

#[test]
fn argument_errors_name_the_argument() {
    let args = json!({"names": [1]});
    let text = names_arg(MetaTool::Describe, args.as_object().unwrap(), 5).unwrap_err();
    assert!(
        text.contains("names[0]") && text.contains("a number"),
        "{text}"
    );
    let args = json!({"names": "a"});
    assert_eq!(
        names_arg(MetaTool::Describe, args.as_object().unwrap(), 5).unwrap(),
        ["a"]
    );
    let args = json!({"query": ""});
    assert!(string_arg(MetaTool::Search, args.as_object().unwrap(), "query").is_err());
}
