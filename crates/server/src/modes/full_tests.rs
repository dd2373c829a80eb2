use super::*;

#[test]
fn a_page_written_from_bytes_is_the_answer_rmcp_would_write() {
    use rmcp::model::{ListToolsResult, NumberOrString, ServerResult};
    use rmcp::service::{RoleServer, TxJsonRpcMessage};
    let tools: Vec<Tool> = (0..3)
        .map(|i| {
            serde_json::from_value(serde_json::json!({
                "name": format!("t{i}"), "title": "T", "description": "d \"quoted\" é",
                "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}},
                "annotations": {"readOnlyHint": true}, "_meta": {"k": i}}))
            .unwrap()
        })
        .collect();
    let bytes: Vec<Vec<u8>> = tools
        .iter()
        .map(|t| serde_json::to_vec(t).unwrap())
        .collect();
    let pages = FullPages::assemble(bytes, usize::MAX);
    let page = pages.page(0).unwrap();
    let answer = |tools: Vec<Tool>| {
        let mut result = ListToolsResult::with_all_items(tools);
        result.next_cursor = Some("1".into());
        result.ttl_ms = Some(300_000);
        let message = TxJsonRpcMessage::<RoleServer>::response(
            ServerResult::ListToolsResult(result),
            NumberOrString::Number(7),
        );
        serde_json::to_vec(&message).unwrap()
    };
    let whole = answer(tools.clone());
    let spliced = splice_tools(&answer(Vec::new()), &page.bytes).unwrap();
    assert_eq!(
        String::from_utf8(spliced).unwrap(),
        String::from_utf8(whole).unwrap()
    );
    assert_eq!(page.values().unwrap(), tools);
    assert_eq!(tools_of(&page.bytes).unwrap(), tools);
    // Anything else is left alone.
    assert!(splice_tools(b"{\"result\":{}}", &page.bytes).is_none());
}

#[test]
fn the_outbox_hands_each_page_to_its_own_answer_once() {
    use rmcp::model::NumberOrString;
    let outbox = Outbox::default();
    let a = bytes::Bytes::from_static(b"a");
    let b = bytes::Bytes::from_static(b"b");
    outbox.put(NumberOrString::Number(1), a.clone());
    outbox.put(NumberOrString::String("x".into()), b.clone());
    assert_eq!(outbox.take(&NumberOrString::String("x".into())), Some(b));
    assert_eq!(outbox.take(&NumberOrString::Number(1)), Some(a));
    assert_eq!(outbox.take(&NumberOrString::Number(1)), None);
    // Pages never written (a cancelled request) are forgotten, not kept.
    for i in 0..1000 {
        outbox.put(NumberOrString::Number(i), bytes::Bytes::from_static(b"p"));
    }
    assert!(outbox.take(&NumberOrString::Number(0)).is_none());
    assert!(outbox.take(&NumberOrString::Number(999)).is_some());
}
