use super::*;

fn sessions(max: usize) -> BoundedSessions {
    BoundedSessions::new(SessionLimits {
        max_sessions: max,
        ..SessionLimits::default()
    })
}

#[tokio::test]
async fn past_the_cap_the_least_recently_used_session_is_closed_and_watchers_told() {
    let manager = sessions(2);
    let ended = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&ended);
    manager.on_end(move |id, how| seen.lock().unwrap().push((id.clone(), how)));
    let (a, _ta) = manager.create_session().await.unwrap();
    let (b, _tb) = manager.create_session().await.unwrap();
    // `a` is used after `b`: `b` is now the least recently used.
    manager.state.book().touch(&a);
    let (c, _tc) = manager.create_session().await.unwrap();
    assert!(manager.is_live(&a) && manager.is_live(&c));
    assert!(!manager.is_live(&b));
    assert!(!manager.state.inner.has_session(&b).await.unwrap());
    assert_eq!(manager.len(), 2);
    assert_eq!(*ended.lock().unwrap(), [(b.clone(), SessionEnd::Evicted)]);
    // A client's DELETE (or the session's own end) is told once.
    manager.close_session(&a).await.unwrap();
    manager.close_session(&a).await.unwrap();
    assert!(!manager.is_live(&a));
    assert_eq!(
        *ended.lock().unwrap(),
        [(b, SessionEnd::Evicted), (a, SessionEnd::Closed)]
    );
}

#[test]
fn session_tags_are_short_digests_not_the_id() {
    let tag = session_tag("0f7c9a2e-secret-session-id");
    assert_eq!(tag.len(), 12);
    assert!(!"0f7c9a2e-secret-session-id".contains(&tag));
    assert_eq!(tag, session_tag("0f7c9a2e-secret-session-id"));
}
