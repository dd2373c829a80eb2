use super::*;
use serde_json::json;

fn tool(name: &str, pad: usize) -> Tool {
    serde_json::from_value(
        json!({"name": name, "description": "x".repeat(pad), "inputSchema": {"type": "object"}}),
    )
    .unwrap()
}

#[test]
fn pages_stay_under_the_limit_and_keep_order() {
    let tools: Vec<Tool> = (0..10).map(|i| tool(&format!("t{i}"), 300)).collect();
    let sizes: Vec<usize> = tools
        .iter()
        .map(|t| serde_json::to_vec(t).unwrap().len() + 1)
        .collect();
    let pages = paginate(&sizes, 1000);
    assert!(pages.len() > 3);
    let names: Vec<String> = pages
        .iter()
        .flat_map(|r| tools[r.clone()].iter())
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, (0..10).map(|i| format!("t{i}")).collect::<Vec<_>>());
    for p in &pages {
        assert!(serde_json::to_vec(&tools[p.clone()]).unwrap().len() <= 1000 + 2);
    }
    assert_eq!(paginate(&[], 10), vec![0..0]);
}
