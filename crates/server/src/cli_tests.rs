//! Unit tests of `cli.rs` (kept out of generated crates, which share its
//! flags: what is refused here is refused by every generated server too).

use clap::Parser;

use super::*;

/// The flags as a generated crate's `main` takes them.
#[derive(Parser, Debug)]
struct Cli {
    #[command(flatten)]
    flags: ServeFlags,
}

fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(std::iter::once("server").chain(args.iter().copied()))
}

#[test]
fn forwarding_the_authorization_of_a_token_meant_for_this_server_is_refused() {
    for other in [
        &["--auth-token", "s3cret"][..],
        &[
            "--oauth-issuer",
            "https://as.example.com",
            "--resource-url",
            "https://mcp.example.com/mcp",
        ],
    ] {
        let mut args = vec!["--transport", "http", "--forward-authorization"];
        args.extend_from_slice(other);
        let err = parse(&args).expect_err("token passthrough is refused");
        assert_eq!(
            err.kind(),
            clap::error::ErrorKind::ArgumentConflict,
            "{err}"
        );
        let text = err.to_string();
        assert!(
            text.contains("--forward-authorization") && text.contains(other[0]),
            "{text}"
        );
    }
    // Each alone is fine.
    assert!(parse(&["--transport", "http", "--forward-authorization"]).is_ok());
    assert!(parse(&["--transport", "http", "--auth-token", "s3cret"]).is_ok());
}

#[test]
fn every_numeric_flag_is_range_checked_and_its_bounds_accepted() {
    let refused: &[(&str, &str)] = &[
        ("--timeout", "1e-30"),
        ("--timeout", "86400.5"),
        ("--timeout", "NaN"),
        ("--lro-timeout", "0"),
        ("--lro-timeout", "86400.5"),
        ("--lro-timeout", "inf"),
        ("--max-response-bytes", "0"),
        ("--max-response-bytes", "1073741825"),
        ("--retries", "101"),
        ("--rate-limit", "0.0009"),
        ("--rate-limit", "1000001"),
        ("--rate-burst", "0"),
        ("--rate-burst", "1000001"),
        ("--tools-budget", "1000000001"),
        ("--shutdown-grace", "-0.5"),
        ("--shutdown-grace", "3600.5"),
        ("--header-timeout", "0.05"),
        ("--body-timeout", "3600.5"),
        ("--idle-timeout", "NaN"),
        ("--max-connections", "0"),
        ("--max-connections-per-ip", "1000001"),
        ("--ops-reserve", "10001"),
        ("--max-sessions", "0"),
        ("--session-idle-timeout", "0.5"),
        ("--task-ttl", "0"),
        ("--max-tasks", "0"),
        ("--task-results-bytes", "1023"),
        ("--threads", "0"),
        ("--threads", "1025"),
        ("--session-sleep-after", "0.05"),
        ("--session-sleep-after", "never"),
    ];
    for (flag, value) in refused {
        let arg = format!("{flag}={value}");
        let err = parse(&[&arg]).expect_err(&arg);
        assert_eq!(
            err.kind(),
            clap::error::ErrorKind::ValueValidation,
            "{arg}: {err}"
        );
        assert!(err.to_string().contains(flag), "{err}");
    }
    let bounds = parse(&[
        "--timeout=86400",
        "--lro-timeout=86400",
        "--max-response-bytes=1073741824",
        "--retries=100",
        "--rate-limit=0.001",
        "--rate-burst=1000000",
        "--tools-budget=1000000000",
        "--shutdown-grace=3600",
        "--header-timeout=3600",
        "--max-connections=1000000",
        "--max-connections-per-ip=1000000",
        "--ops-reserve=10000",
        "--max-sessions=1000000",
        "--task-ttl=604800",
        "--task-results-bytes=17179869184",
        "--threads=1024",
        "--session-sleep-after=86400",
    ])
    .unwrap();
    assert!(bounds.flags.options().is_ok());
    let low = parse(&[
        "--timeout=0.001",
        "--lro-timeout=0.001",
        "--max-response-bytes=1",
        "--retries=0",
        "--rate-limit=1000000",
        "--rate-burst=1",
        "--tools-budget=0",
        "--shutdown-grace=0",
        "--header-timeout=0.1",
        "--max-connections=1",
        "--max-connections-per-ip=0",
        "--ops-reserve=0",
        "--max-sessions=1",
        "--session-idle-timeout=1",
        "--task-ttl=1",
        "--max-tasks=1",
        "--task-results-bytes=1024",
        "--threads=1",
        "--session-sleep-after=0.1",
    ])
    .unwrap();
    assert!(low.flags.options().is_ok());
    assert_eq!(low.flags.threads, Some(1));
    assert!(crate::cli::default_http_threads() >= 1);
}

#[test]
fn the_lro_timeout_reaches_the_runtime_options() {
    let default = parse(&[]).unwrap().flags.options().unwrap();
    assert_eq!(
        default.http.lro.timeout,
        std::time::Duration::from_secs(600)
    );
    let set = parse(&["--lro-timeout", "2.5"]).unwrap();
    assert_eq!(
        set.flags.options().unwrap().http.lro.timeout,
        std::time::Duration::from_millis(2500)
    );
}

#[test]
fn the_listener_session_and_task_bounds_reach_their_options_with_production_defaults() {
    use std::time::Duration;
    let default = parse(&[]).unwrap().flags;
    let listener = default.listener_limits().unwrap();
    assert_eq!(listener, crate::listener::ListenerLimits::default());
    assert_eq!(listener.header_timeout, Duration::from_secs(10));
    assert_eq!(listener.max_connections, 1024);
    assert_eq!(listener.max_connections_per_ip, 128);
    let sessions = default.session_limits().unwrap();
    assert_eq!(sessions, crate::sessions::SessionLimits::default());
    assert_eq!(
        default.options().unwrap().tasks,
        crate::tasks::TaskLimits::default()
    );
    let set = parse(&[
        "--header-timeout=2.5",
        "--body-timeout=7",
        "--idle-timeout=90",
        "--max-connections=64",
        "--max-connections-per-ip=0",
        "--ops-reserve=4",
        "--max-sessions=10",
        "--session-idle-timeout=60",
        "--task-ttl=120",
        "--max-tasks=5",
        "--task-results-bytes=4096",
    ])
    .unwrap()
    .flags;
    assert_eq!(
        set.listener_limits().unwrap(),
        crate::listener::ListenerLimits {
            header_timeout: Duration::from_millis(2500),
            body_timeout: Duration::from_secs(7),
            idle_timeout: Duration::from_secs(90),
            max_connections: 64,
            max_connections_per_ip: 0,
            ops_reserve: 4,
        }
    );
    assert_eq!(
        set.session_limits().unwrap(),
        crate::sessions::SessionLimits {
            max_sessions: 10,
            idle_timeout: Duration::from_secs(60),
            sleep_after: Some(Duration::from_secs(30)),
        }
    );
    assert_eq!(
        set.options().unwrap().tasks,
        crate::tasks::TaskLimits {
            max_tasks: 5,
            max_result_bytes: 4096,
            ttl: Duration::from_secs(120),
        }
    );
}

#[test]
fn asking_for_missing_arguments_is_on_by_default_and_switched_off_by_a_flag() {
    let ask = |args: &[&str]| parse(args).unwrap().flags.options().unwrap().ask_missing;
    assert!(ask(&[]));
    assert!(!ask(&["--no-ask-missing"]));
    // The older spelling with a value is still read, and wins.
    assert!(!ask(&["--ask-missing", "false"]));
    assert!(ask(&["--no-ask-missing", "--ask-missing", "true"]));
    assert!(parse(&["--ask-missing", "maybe"]).is_err());
}

#[test]
fn session_sleep_takes_seconds_or_off() {
    let sleep = |args: &[&str]| {
        parse(args)
            .unwrap()
            .flags
            .session_limits()
            .unwrap()
            .sleep_after
    };
    assert_eq!(sleep(&[]), Some(std::time::Duration::from_secs(30)));
    assert_eq!(
        sleep(&["--session-sleep-after", "2.5"]),
        Some(std::time::Duration::from_millis(2500))
    );
    assert_eq!(sleep(&["--session-sleep-after", "off"]), None);
}

#[test]
fn handle_after_takes_seconds_or_off() {
    let after = |args: &[&str]| parse(args).unwrap().flags.options().unwrap().handle_after;
    assert_eq!(after(&[]), Some(std::time::Duration::from_secs(30)));
    assert_eq!(
        after(&["--handle-after", "2.5"]),
        Some(std::time::Duration::from_millis(2500))
    );
    assert_eq!(after(&["--handle-after", "off"]), None);
    assert!(
        parse(&["--handle-after", "0"]).is_err(),
        "0 is not a duration here: off is"
    );
}
