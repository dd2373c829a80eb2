//! Unit tests of `scopes.rs` (kept out of generated crates).

use super::*;

fn set(s: &[&str]) -> BTreeSet<String> {
    s.iter().map(|x| x.to_string()).collect()
}

#[test]
fn one_alternative_suffices_and_the_closest_is_named() {
    let rule = vec![
        vec!["a".to_string(), "b".to_string()],
        vec!["c".to_string()],
    ];
    assert!(check(&rule, &set(&["c"])).is_ok());
    assert!(check(&rule, &set(&["a", "b"])).is_ok());
    assert_eq!(check(&rule, &set(&["a"])).unwrap_err(), ["a", "b"]);
    assert_eq!(check(&rule, &set(&["x"])).unwrap_err(), ["c"]);
    assert!(check(&[], &set(&[])).is_ok());
}

fn rule(alternatives: &[&[&str]]) -> ScopeRule {
    alternatives
        .iter()
        .map(|a| a.iter().map(|s| s.to_string()).collect())
        .collect()
}

#[test]
fn both_rules_must_be_met_and_alternatives_stay_minimal() {
    assert_eq!(both(&[], &rule(&[&["a"]])), rule(&[&["a"]]));
    assert_eq!(both(&rule(&[&["a"]]), &[]), rule(&[&["a"]]));
    assert_eq!(
        both(&rule(&[&["a"]]), &rule(&[&["b"]])),
        rule(&[&["a", "b"]])
    );
    // (a or b) and a: a suffices; {a, b} holds {a} and is dropped.
    assert_eq!(
        both(&rule(&[&["a"], &["b"]]), &rule(&[&["a"]])),
        rule(&[&["a"]])
    );
    let combined = both(&rule(&[&["a"], &["b"]]), &rule(&[&["c"], &["d"]]));
    assert_eq!(combined.len(), 4);
    assert!(check(&combined, &set(&["b", "c"])).is_ok());
    assert!(check(&combined, &set(&["a", "b"])).is_err());
    // Past the cap: every scope at once (stricter, never looser).
    let wide = |p: &str| -> ScopeRule { (0..9).map(|i| vec![format!("{p}{i}")]).collect() };
    assert_eq!(both(&wide("s"), &wide("s")), wide("s"));
    let capped = both(&wide("s"), &wide("t"));
    assert_eq!(capped.len(), 1);
    assert_eq!(capped[0].len(), 18);
}

fn head(name: &str, read_only: bool, steps: &[&str]) -> ToolHead {
    use openapi2mcp_runtime::catalog::{Origin, ToolAnnotations};
    ToolHead {
        name: name.into(),
        title: name.into(),
        description: String::new(),
        annotations: ToolAnnotations {
            title: name.into(),
            read_only_hint: read_only,
            destructive_hint: false,
            idempotent_hint: false,
            open_world_hint: true,
        },
        origin: Origin {
            operation_id: None,
            method: if steps.is_empty() { "GET" } else { "WORKFLOW" }.into(),
            path: "/x".into(),
            tags: Vec::new(),
            deprecated: false,
        },
        security: Vec::new(),
        args: Vec::new(),
        steps: steps.iter().map(|s| s.to_string()).collect(),
    }
}

#[test]
fn a_workflow_needs_every_scope_its_steps_need() {
    let tools = [
        head("get_pet", true, &[]),
        head("create_pet", false, &[]),
        head("copy_pet", false, &["get_pet", "create_pet"]),
        head("look", true, &["get_pet"]),
        // Nested, and a cycle: counted once, no endless recursion.
        head("outer", false, &["look", "outer", "copy_pet"]),
    ];
    let policy = ToolScopePolicy::ReadWrite {
        read: Some("read".into()),
        write: Some("write".into()),
    };
    let rules = for_tools(&tools, &BTreeMap::new(), &policy);
    assert_eq!(rules["copy_pet"], rule(&[&["read", "write"]]));
    assert_eq!(rules["look"], rule(&[&["read"]]));
    assert_eq!(rules["outer"], rule(&[&["read", "write"]]));
    assert!(check(&rules["copy_pet"], &set(&["read"])).is_err());
    // No policy: no rule, workflows included.
    assert!(for_tools(&tools, &BTreeMap::new(), &ToolScopePolicy::None).is_empty());
}
