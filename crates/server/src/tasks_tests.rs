use super::*;
use rmcp::model::ContentBlock;

fn limits(max_tasks: usize, max_result_bytes: usize, ttl: Duration) -> TaskLimits {
    TaskLimits {
        max_tasks,
        max_result_bytes,
        ttl,
    }
}

fn text(n: usize) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text("x".repeat(n))])
}

/// A task of `owner` whose call returns `result` at once; its id, once
/// settled.
async fn finished(tasks: &Tasks, owner: &str, result: CallToolResult) -> String {
    let (task, _) = tasks
        .reserve(owner.into(), "calling".into())
        .expect("a free slot");
    tasks.start(&task.task_id, async move { Ok(result) });
    for _ in 0..200 {
        match tasks.get(&task.task_id, owner) {
            Ok(t) if t.status() == TaskStatus::Working => {}
            // Settled (or settled and forgotten at once under a cap).
            _ => return task.task_id,
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("task did not settle");
}

fn live(tasks: &Tasks) -> Vec<String> {
    let book = tasks.book();
    book.order.values().cloned().collect()
}

#[tokio::test]
async fn tasks_belong_to_their_creator() {
    let tasks = Tasks::default();
    let id = finished(&tasks, "alice", text(3)).await;
    let got = tasks.get(&id, "alice").unwrap();
    assert_eq!(got.status(), TaskStatus::Completed);
    let TaskPayload::Completed { result } = got.payload else {
        panic!("not completed")
    };
    assert_eq!(result["content"][0]["text"], "xxx");
    let other = tasks.get(&id, "bob").unwrap_err();
    let none = tasks.get("t2", "alice").unwrap_err();
    // Someone else's task and no task read the same.
    assert_eq!(other.code, none.code);
    assert_eq!(other.message.replace(&id, "t2"), none.message);
    assert!(tasks.cancel(&id, "bob").is_err());
    assert!(tasks.check(&id, "bob").is_err());
    assert!(tasks.check(&id, "alice").is_ok());
}

#[tokio::test]
async fn past_the_count_cap_the_oldest_finished_task_is_forgotten() {
    let tasks = Tasks::new(limits(3, 1 << 20, Duration::from_secs(60)));
    let a = finished(&tasks, "p", text(1)).await;
    // A running task is never forgotten to make room.
    let (running, handle) = tasks.reserve("p".into(), "calling".into()).unwrap();
    let b = finished(&tasks, "p", text(1)).await;
    assert_eq!(
        live(&tasks),
        [a.clone(), running.task_id.clone(), b.clone()]
    );
    let c = finished(&tasks, "p", text(1)).await;
    assert_eq!(
        live(&tasks),
        [running.task_id.clone(), b.clone(), c.clone()]
    );
    assert!(
        tasks.get(&a, "p").is_err(),
        "the oldest finished task is gone"
    );
    let d = finished(&tasks, "p", text(1)).await;
    assert_eq!(live(&tasks), [running.task_id.clone(), c, d]);
    // Full of running tasks: no new task (the call is answered directly).
    let (second, _h2) = tasks.reserve("p".into(), "calling".into()).unwrap();
    let (third, _h3) = tasks.reserve("p".into(), "calling".into()).unwrap();
    assert_eq!(
        live(&tasks),
        [running.task_id, second.task_id, third.task_id]
    );
    assert!(tasks.reserve("p".into(), "calling".into()).is_none());
    drop(handle);
}

#[tokio::test]
async fn results_past_the_bytes_cap_are_forgotten_oldest_first_and_one_too_large_is_an_error() {
    // Each result's JSON is its text plus some 40 bytes.
    let tasks = Tasks::new(limits(100, 2_500, Duration::from_secs(60)));
    let a = finished(&tasks, "p", text(1_000)).await;
    let b = finished(&tasks, "p", text(1_000)).await;
    assert_eq!(live(&tasks), [a.clone(), b.clone()]);
    let c = finished(&tasks, "p", text(1_000)).await;
    assert_eq!(live(&tasks), [b.clone(), c.clone()]);
    assert!(tasks.book().result_bytes <= 2_500);
    let big = finished(&tasks, "p", text(3_000)).await;
    let got = tasks.get(&big, "p").unwrap();
    assert_eq!(got.status(), TaskStatus::Failed);
    let TaskPayload::Failed { error } = got.payload else {
        panic!("not failed")
    };
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("--task-results-bytes 2500"), "{message}");
    // The error costs no result bytes: the others stay.
    assert_eq!(live(&tasks), [b, c, big]);
}

#[tokio::test]
async fn tasks_past_their_ttl_are_forgotten_and_a_running_one_is_stopped() {
    let tasks = Tasks::new(limits(100, 1 << 20, Duration::from_millis(300)));
    let done = finished(&tasks, "p", text(1)).await;
    let (running, handle) = tasks.reserve("p".into(), "calling".into()).unwrap();
    let cancel = handle.cancel.clone();
    let (stopped_tx, stopped_rx) = tokio::sync::oneshot::channel::<()>();
    tasks.start(&running.task_id, async move {
        // Never finishes on its own; dropping it (abort) drops the sender.
        let _stopped = stopped_tx;
        std::future::pending::<()>().await;
        Ok(text(1))
    });
    assert_eq!(running.ttl_ms, Some(300));
    assert!(tasks.get(&done, "p").is_ok());
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(tasks.get(&done, "p").is_err());
    assert!(tasks.get(&running.task_id, "p").is_err());
    assert!(cancel.is_cancelled());
    tokio::time::timeout(Duration::from_secs(2), stopped_rx)
        .await
        .expect("the expired task's call was stopped")
        .unwrap_err();
    assert!(live(&tasks).is_empty());
    assert_eq!(tasks.book().result_bytes, 0);
}

#[test]
fn task_ids_look_like_uuids_and_differ() {
    let a = task_id();
    let b = task_id();
    assert_ne!(a, b);
    assert_eq!(a.len(), 36);
    assert_eq!(&a[14..15], "4");
}
