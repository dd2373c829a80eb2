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
