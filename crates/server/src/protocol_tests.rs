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

fn caller(principal: Option<(&str, &str)>, authorization: Option<&str>) -> String {
    let mut extensions = axum::http::Extensions::new();
    if let Some((issuer, subject)) = principal {
        extensions.insert(super::super::authz::Principal {
            issuer: Some(issuer.into()),
            subject: Some(subject.into()),
            ..Default::default()
        });
    }
    let mut headers = axum::http::HeaderMap::new();
    if let Some(value) = authorization {
        headers.insert(axum::http::header::AUTHORIZATION, value.parse().unwrap());
    }
    caller_of(&extensions, &headers)
}

#[test]
fn a_person_stays_the_same_caller_across_refreshed_tokens() {
    let before = caller(Some(("https://as", "alice")), Some("Bearer one"));
    let after = caller(Some(("https://as", "alice")), Some("Bearer two"));
    assert_eq!(before, after, "the same person with a refreshed token");
    assert_ne!(
        before,
        caller(Some(("https://as", "bob")), Some("Bearer one"))
    );
    assert_ne!(
        before,
        caller(Some(("https://other", "alice")), Some("Bearer one"))
    );
    // Without a validated person, the header itself tells callers apart.
    let static_token = caller(None, Some("Bearer one"));
    assert_ne!(static_token, caller(None, Some("Bearer two")));
    assert_ne!(static_token, before);
    assert_eq!(caller(None, None), "", "one caller, none told apart");
    // A digest: nothing of the person or the token shows.
    assert!(!before.contains("alice") && !static_token.contains("one"));
}
