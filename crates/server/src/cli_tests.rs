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
    ])
    .unwrap();
    assert!(low.flags.options().is_ok());
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
