use super::*;

#[test]
fn tasks_belong_to_their_creator_and_owners_of_gone_tasks_are_pruned() {
    let tasks = Tasks::default();
    tasks.remember("t1".into(), "alice".into());
    assert!(tasks.owned("t1", "alice").is_ok());
    let other = tasks.owned("t1", "bob").unwrap_err();
    let none = tasks.owned("t2", "alice").unwrap_err();
    // Someone else's task and no task read the same.
    assert_eq!(other.code, none.code);
    assert_eq!(other.message.replace("t1", "t2"), none.message);
    // None of these ids exist in the manager: reaching the threshold prunes them.
    for i in 0..PRUNE_FROM {
        tasks.remember(format!("gone-{i}"), "alice".into());
    }
    let owners = tasks.owners.lock().unwrap();
    assert!(
        owners.by_task.len() < PRUNE_FROM,
        "{}",
        owners.by_task.len()
    );
    assert!(owners.prune_at >= PRUNE_FROM);
}
