use super::*;

#[test]
fn auto_picks_full_only_within_budget() {
    assert_eq!(resolve(ToolsMode::Auto, 100, 100), ToolsMode::Full);
    assert_eq!(resolve(ToolsMode::Auto, 101, 100), ToolsMode::Discovery);
    assert_eq!(resolve(ToolsMode::Toolsets, 1, 100), ToolsMode::Toolsets);
    assert_eq!(resolve(ToolsMode::Full, 1000, 100), ToolsMode::Full);
    assert_eq!(estimate_tokens(33), 10);
}
