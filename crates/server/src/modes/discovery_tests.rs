use super::super::meta;
use super::*;

#[test]
fn summaries_skip_what_the_title_says() {
    assert_eq!(summary("Get a pet.", "Get a pet"), None);
    assert_eq!(
        summary("Returns one pet. Needs a key.\nMore", "Get a pet").as_deref(),
        Some("Returns one pet.")
    );
    assert_eq!(summary("", "x"), None);
    let long = "word ".repeat(100);
    assert!(summary(&long, "x").unwrap().ends_with('…'));
}

#[test]
fn meta_names_are_distinct() {
    let mut names: Vec<&str> = meta::DISCOVERY
        .iter()
        .chain(meta::TOOLSETS)
        .map(|m| m.name())
        .collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), meta::DISCOVERY.len() + meta::TOOLSETS.len());
}
