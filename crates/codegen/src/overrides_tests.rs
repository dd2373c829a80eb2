use super::{StaleOverride, stale};

const OPERATIONS: &str = r#"
pub trait Hooks: Send + Sync + 'static {
    fn before_call(&self) {}
    fn after_call(&self) {}
    fn list_pets(&self) {}
    fn get_pet_by_id(&self) {}
}
"#;

#[test]
fn overrides_of_tools_that_left_the_document_are_named_with_their_line() {
    let hooks = r#"
use crate::operations::Hooks;
pub struct Custom;
impl Hooks for Custom {
    fn after_call(&self) {}
    fn list_pets(&self) {}
    fn get_pet(&self) {}
    fn delete_store_order(&self) {}
}
impl Custom {
    fn helper(&self) {}
}
"#;
    assert_eq!(
        stale(hooks, OPERATIONS, None),
        [
            StaleOverride {
                method: "get_pet".into(),
                line: 7,
                closest: Some("get_pet_by_id".into()),
            },
            StaleOverride {
                method: "delete_store_order".into(),
                line: 8,
                closest: None,
            },
        ]
    );
    let message = stale(hooks, OPERATIONS, None)[0].to_string();
    assert!(
        message.starts_with("src/hooks.rs:7: `fn get_pet`"),
        "{message}"
    );
    assert!(
        message.ends_with("(renamed to `get_pet_by_id`?)"),
        "{message}"
    );
}

#[test]
fn nothing_is_named_when_every_override_is_declared_or_a_file_does_not_parse() {
    let hooks = "impl Hooks for Custom { fn list_pets(&self) {} }";
    assert!(stale(hooks, OPERATIONS, None).is_empty());
    assert!(stale("impl Hooks for {", OPERATIONS, None).is_empty());
    assert!(
        stale(
            "impl Hooks for Custom { fn gone(&self) {} }",
            "fn not_a_trait() {}",
            None
        )
        .is_empty()
    );
}

#[test]
fn a_renamed_tool_is_looked_for_among_the_new_ones_first() {
    let before = "pub trait Hooks { fn list_pets(&self) {} fn create_pet(&self) {} fn delete_pet(&self) {} }";
    let after = "pub trait Hooks { fn list_pets(&self) {} fn create_pet(&self) {} fn remove_pet(&self) {} }";
    let hooks = "impl Hooks for Custom { fn delete_pet(&self) {} }";
    assert_eq!(
        stale(hooks, after, Some(before))[0].closest.as_deref(),
        Some("remove_pet")
    );
    // Without the last generation, the first that says what it acts on.
    assert_eq!(
        stale(hooks, after, None)[0].closest.as_deref(),
        Some("create_pet")
    );
    // A tool none says the words of has no likely new name.
    let hooks = "impl Hooks for Custom { fn get_pet_photo(&self) {} }";
    assert_eq!(stale(hooks, after, Some(before))[0].closest, None);
}
