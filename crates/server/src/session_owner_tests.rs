use super::*;

fn owners_with_live(live: &'static [&'static str]) -> SessionOwners {
    SessionOwners::new(Arc::new(move |id: String| {
        Box::pin(async move { live.contains(&id.as_str()) })
    }))
}

#[tokio::test]
async fn a_session_is_owned_by_its_opener_only() {
    let owners = owners_with_live(&["s1"]);
    owners.opened("s1".into(), "alice".into()).await;
    assert!(owners.owned_by("s1", "alice"));
    assert!(!owners.owned_by("s1", "bob"));
    assert!(!owners.owned_by("s2", "alice"), "never handed out");
    owners.closed("s1");
    assert!(!owners.owned_by("s1", "alice"), "ended");
}

#[tokio::test]
async fn ended_sessions_are_pruned_as_the_map_grows() {
    let owners = owners_with_live(&["keep"]);
    owners.opened("keep".into(), "alice".into()).await;
    for i in 0..PRUNE_FROM {
        owners.opened(format!("gone{i}"), "bob".into()).await;
    }
    // The prune ran when the map reached PRUNE_FROM: only live sessions
    // and those opened since are left.
    let len = owners.lock().by_session.len();
    assert!(len < PRUNE_FROM, "{len}");
    assert!(owners.owned_by("keep", "alice"));
}
