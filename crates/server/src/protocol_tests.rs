use super::*;

#[test]
fn listen_streams_get_list_changes_only_when_asked() {
    let mut all = SubscriptionFilter::new();
    all.tools_list_changed = Some(true);
    all.prompts_list_changed = Some(true);
    all.resources_list_changed = Some(true);
    all.resource_subscriptions = Some(vec!["openapi2mcp://document".into()]);
    let got = deliverable(&all);
    assert_eq!(got.tools_list_changed, Some(true));
    assert_eq!(got.resources_list_changed, Some(true));
    // No prompts, and no per-resource updates: nothing would ever send them.
    assert_eq!(got.prompts_list_changed, None);
    assert_eq!(got.resource_subscriptions, None);
    let mut prompts_only = SubscriptionFilter::new();
    prompts_only.prompts_list_changed = Some(true);
    assert_eq!(deliverable(&prompts_only), SubscriptionFilter::default());
}
