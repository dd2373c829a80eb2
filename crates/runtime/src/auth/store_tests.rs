use super::*;

fn tokens(access: &str) -> StoredTokens {
    StoredTokens {
        access_token: access.into(),
        refresh_token: Some("refresh-secret-value".into()),
        expires_at: Some(1_900_000_000),
        obtained_at: Some(1_899_996_400),
        scopes: vec!["pets:read".into()],
    }
}

/// A token file path in a scratch directory (`sub/` not created yet),
/// removed with the returned guard.
fn temp_path(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix(&format!("openapi2mcp-store-{name}-"))
        .tempdir()
        .unwrap();
    let path = dir.path().join("sub").join("tokens.enc");
    (dir, path)
}

#[test]
fn tokens_round_trip_encrypted_and_private() {
    let (_dir, path) = temp_path("round");
    let store = FileStore::with_secret(&path, &"k".repeat(40)).unwrap();
    assert_eq!(store.get_now("alice").unwrap(), None, "absent file: empty");
    store
        .put_now("alice", &tokens("access-secret-value"))
        .unwrap();
    store.put_now("bob", &tokens("other")).unwrap();
    assert_eq!(
        store.get_now("alice").unwrap(),
        Some(tokens("access-secret-value"))
    );
    let raw = std::fs::read_to_string(&path).unwrap();
    assert!(
        !raw.contains("access-secret-value")
            && !raw.contains("refresh-secret-value")
            && !raw.contains("alice"),
        "nothing readable at rest: {raw}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    // Another process (a new store on the same file) sees them.
    let again = FileStore::with_secret(&path, &"k".repeat(40)).unwrap();
    assert_eq!(
        again.remove_now("alice").unwrap(),
        Some(tokens("access-secret-value"))
    );
    assert_eq!(store.get_now("alice").unwrap(), None);
    assert!(store.get_now("bob").unwrap().is_some());
}

#[test]
fn another_key_or_an_altered_file_is_refused_by_name() {
    let (_dir, path) = temp_path("keys");
    let store = FileStore::with_secret(&path, &"k".repeat(40)).unwrap();
    store.put_now("alice", &tokens("a")).unwrap();
    let other = FileStore::with_secret(&path, &"x".repeat(40)).unwrap();
    let err = other.get_now("alice").unwrap_err();
    assert!(matches!(err, StoreError::Undecryptable { .. }), "{err}");
    assert!(err.to_string().contains(TOKEN_KEY_ENV));
    std::fs::write(&path, b"{\"v\":1,\"nonce\":\"AAAA\",\"data\":\"AAAA\"}").unwrap();
    assert!(matches!(
        store.get_now("alice"),
        Err(StoreError::Undecryptable { .. })
    ));
}

#[test]
fn a_short_key_is_refused_saying_how_to_make_one() {
    let err = FileStore::with_secret(Path::new("/tmp/x"), "short").unwrap_err();
    assert!(err.to_string().contains("openssl rand -hex 32"), "{err}");
}

#[test]
fn a_location_is_described_without_a_password() {
    assert!(describe_location("keyring:").starts_with("the OS keyring"));
    assert_eq!(describe_location("/tmp/t.enc"), "/tmp/t.enc (encrypted)");
    let redis = describe_location("redis://u:hunter2@cache:6379/0");
    assert!(!redis.contains("hunter2"), "{redis}");
    assert!(redis.contains("cache:6379"), "{redis}");
}

/// One refresh lock holder at a time among the stores sharing a file
/// (each `FileStore` here stands for a process), and a login removed only
/// while it is still the one read.
#[tokio::test]
async fn refresh_lock_and_compare_and_delete() {
    let (_dir, path) = temp_path("lock");
    let secret = "k".repeat(40);
    let a = FileStore::with_secret(&path, &secret).unwrap();
    let b = FileStore::with_secret(&path, &secret).unwrap();
    let held = a
        .lock("alice")
        .await
        .unwrap()
        .expect("a free lock is taken");
    let lock_file = beside(&path, ".refresh.lock");
    let short = std::time::Duration::from_millis(100);
    assert!(
        flock_file(&lock_file, short).await.unwrap().is_none(),
        "held by a: b waits, then gives up"
    );
    held.release().await;
    let taken = flock_file(&lock_file, short).await.unwrap();
    assert!(taken.is_some(), "released: b takes it");
    drop(taken);

    let old = tokens("old-access");
    let new = tokens("new-access");
    a.put_now("alice", &old).unwrap();
    b.put_now("alice", &new).unwrap();
    assert!(!a.remove_if("alice", &old).await.unwrap());
    assert_eq!(a.get_now("alice").unwrap(), Some(new.clone()), "newer kept");
    assert!(a.remove_if("alice", &new).await.unwrap());
    assert_eq!(b.get_now("alice").unwrap(), None);
    // Writes of two processes to one file lose nothing.
    a.put_now("alice", &old).unwrap();
    b.put_now("bob", &new).unwrap();
    assert_eq!(a.get_now("alice").unwrap(), Some(old));
    assert_eq!(a.get_now("bob").unwrap(), Some(new));
}
