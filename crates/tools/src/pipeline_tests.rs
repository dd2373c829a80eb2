use super::*;

#[test]
fn reasons_account_for_every_operation() {
    let none = BuildStats::default();
    assert!(no_tools_reason(&none).contains("defines no operations"));
    let mixed = BuildStats {
        operations: 4,
        failed: 2,
        excluded: 1,
        unselected: 1,
        ..BuildStats::default()
    };
    let text = no_tools_reason(&mixed);
    assert!(text.contains("of its 4 operations"), "{text}");
    assert!(text.contains("2 could not be made into a tool"), "{text}");
    assert!(text.contains("1 is excluded by `x-mcp"), "{text}");
    assert!(text.contains("1 did not match the selection"), "{text}");
}
