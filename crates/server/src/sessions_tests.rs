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

fn sleepy(max: usize, idle: Duration) -> BoundedSessions {
    BoundedSessions::new(SessionLimits {
        max_sessions: max,
        idle_timeout: idle,
        sleep_after: Some(Duration::from_millis(1)),
    })
}

fn client_state() -> SessionState {
    SessionState::new(rmcp::model::InitializeRequestParams::new(
        rmcp::model::ClientCapabilities::default(),
        rmcp::model::Implementation::new("sleepy-client", "1.0"),
    ))
}

#[tokio::test]
async fn an_idle_session_falls_asleep_keeps_its_client_and_wakes_on_restore() {
    let manager = Arc::new(sleepy(10, Duration::from_secs(60)));
    let store = manager.store().expect("sessions sleep");
    let (id, _transport) = manager.create_session().await.unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    // Without the client's initialize parameters it cannot be woken: awake.
    manager.sweep().await;
    assert_eq!(manager.asleep(), 0);
    assert!(manager.has_session(&id).await.unwrap());
    store.store(&id, &client_state()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    manager.sweep().await;
    // Falling asleep: rmcp no longer has it, so it asks the store, whose
    // answer waits for the worker's end.
    assert!(!manager.has_session(&id).await.unwrap());
    assert!(manager.is_live(&id));
    let loading = tokio::spawn({
        let (store, id) = (Arc::clone(&store), id.clone());
        async move { store.load(&id).await.map_err(|e| e.to_string()) }
    });
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(!loading.is_finished(), "loaded before the worker ended");
    // The worker's end, as rmcp reports it: asleep, not ended.
    manager.close_session(&id).await.unwrap();
    let state = loading
        .await
        .unwrap()
        .unwrap()
        .expect("an asleep session's state");
    assert_eq!(state.initialize_params.client_info.name, "sleepy-client");
    assert_eq!(manager.asleep(), 1);
    assert!(manager.is_live(&id));
    // rmcp's restore wakes it.
    assert!(matches!(
        manager.restore_session(id.clone()).await.unwrap(),
        RestoreOutcome::Restored(_)
    ));
    assert_eq!(manager.asleep(), 0);
    assert!(manager.has_session(&id).await.unwrap());
    // An unknown session is not restored.
    let unknown: SessionId = Arc::from("no-such-session");
    assert!(store.load(&unknown).await.unwrap().is_none());
    assert!(matches!(
        manager.restore_session(unknown).await.unwrap(),
        RestoreOutcome::NotSupported
    ));
}

#[tokio::test]
async fn asleep_sessions_expire_and_count_under_the_cap() {
    let manager = sleepy(2, Duration::from_millis(200));
    let store = manager.store().unwrap();
    let ended = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&ended);
    manager.on_end(move |id, how| seen.lock().unwrap().push((id.clone(), how)));
    let (a, _ta) = manager.create_session().await.unwrap();
    store.store(&a, &client_state()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    manager.sweep().await;
    manager.close_session(&a).await.unwrap();
    assert_eq!(manager.asleep(), 1);
    assert!(ended.lock().unwrap().is_empty(), "falling asleep is no end");
    // Asleep, it still counts: two more sessions evict it first.
    let (b, _tb) = manager.create_session().await.unwrap();
    let (c, _tc) = manager.create_session().await.unwrap();
    assert!(!manager.is_live(&a) && manager.is_live(&b) && manager.is_live(&c));
    assert_eq!(*ended.lock().unwrap(), [(a, SessionEnd::Evicted)]);
    // An asleep session idle past the timeout ends as an awake one would.
    store.store(&b, &client_state()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    manager.sweep().await;
    manager.close_session(&b).await.unwrap();
    tokio::time::sleep(Duration::from_millis(250)).await;
    manager.sweep().await;
    assert!(!manager.is_live(&b));
    assert!(store.load(&b).await.unwrap().is_none());
    assert_eq!(ended.lock().unwrap().last(), Some(&(b, SessionEnd::Closed)));
}
