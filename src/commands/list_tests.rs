use super::*;
use crate::pipeline::{PipelineOptions, load_catalog};

fn written(options: ListOptions) -> String {
    let loaded = load_catalog("specs/petstore.yaml", &PipelineOptions::default()).expect("loads");
    let mut out = Vec::new();
    write(&mut out, &loaded.catalog, options).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn the_table_has_a_line_per_tool_between_header_and_summary() {
    let text = written(ListOptions::default());
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("NAME ") && lines[0].ends_with("HINTS  ARGS"));
    let get_pet = lines.iter().find(|l| l.starts_with("get_pet ")).unwrap();
    assert!(
        get_pet.contains(" GET ")
            && get_pet.contains("/pets/{petId}")
            && get_pet.ends_with("R-I    1"),
        "{get_pet}"
    );
    assert!(text.contains("\n\n7 tools from "), "{text}");
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("serve --tools auto lists full")
    );
}

#[test]
fn json_is_the_tools_list_payload() {
    let text = written(ListOptions {
        json: true,
        footprint: false,
    });
    let loaded = load_catalog("specs/petstore.yaml", &PipelineOptions::default()).expect("loads");
    let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(parsed, serde_json::json!(loaded.catalog.to_mcp_json()));
    assert!(text.ends_with("}\n") || text.ends_with("]\n"));
}
