use super::*;
use serde_json::json;

/// A tool named `name` with a description of `pad` bytes.
pub(crate) fn tool(name: &str, pad: usize) -> Tool {
    serde_json::from_value(
        json!({"name": name, "description": "x".repeat(pad), "inputSchema": {"type": "object"}}),
    )
    .unwrap()
}

#[test]
fn pages_stay_under_the_limit_and_keep_order() {
    let tools: Vec<Tool> = (0..10).map(|i| tool(&format!("t{i}"), 300)).collect();
    let bytes: Vec<Vec<u8>> = tools
        .iter()
        .map(|t| serde_json::to_vec(t).unwrap())
        .collect();
    let pages = modes::FullPages::assemble(bytes, 1000);
    assert!(pages.len() > 3);
    assert_eq!(pages.tools(), 10);
    let mut names = Vec::new();
    for i in 0..pages.len() {
        let page = pages.page(i).unwrap();
        assert!(page.bytes.len() + 2 <= 1000 + 2);
        let values = page.values().unwrap();
        assert_eq!(values.len(), page.count);
        // The values are the tools, and serialize back to the same bytes.
        let again: Vec<u8> = serde_json::to_vec(&values).unwrap();
        assert_eq!(&again[1..again.len() - 1], &page.bytes[..]);
        names.extend(values.iter().map(|t| t.name.to_string()));
    }
    assert_eq!(names, (0..10).map(|i| format!("t{i}")).collect::<Vec<_>>());
    let empty = modes::FullPages::assemble(Vec::<Vec<u8>>::new(), 10);
    assert_eq!(empty.len(), 1);
    assert_eq!(empty.page(0).unwrap().count, 0);
}
