//! Each command's `--help` as a user reads it: a golden file per command
//! (insta snapshots in `tests/it/snapshots/`, reviewed like code when a
//! flag changes), and `serve`'s flags grouped under headings by concern
//! (issue #44: 77 flags had shared one heading).

use assert_cmd::Command;

/// Every command of the binary.
const COMMANDS: &[&str] = &[
    "list", "serve", "generate", "mock", "config", "lint", "login", "logout",
];

/// `openapi2mcp ARGS --help`, run with no environment: a help line
/// `[env: NAME=value]` shows a set variable's value, which would make the
/// text depend on the machine.
fn help(args: &[&str]) -> String {
    let out = Command::cargo_bin("openapi2mcp")
        .unwrap()
        .env_clear()
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?} --help failed: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The headings of a help text (`Options:`, `Transport:`…) and the long
/// flags listed under each, in order.
fn sections(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_suffix(':').filter(|h| {
            h.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && !h.contains("  ")
        }) {
            out.push((heading.to_string(), Vec::new()));
            continue;
        }
        let trimmed = line.trim_start();
        // A flag line is indented by two to six spaces; deeper lines are
        // the descriptions of values.
        if line.len() - trimmed.len() > 6 || !trimmed.starts_with('-') {
            continue;
        }
        let long = trimmed
            .split([' ', ','])
            .find(|w| w.starts_with("--"))
            .map(|w| w.trim_end_matches(['=']).to_string());
        if let (Some((_, flags)), Some(long)) = (out.last_mut(), long) {
            flags.push(long);
        }
    }
    out
}

#[test]
fn each_commands_help_is_its_golden_file() {
    insta::assert_snapshot!("help", help(&[]));
    for command in COMMANDS {
        insta::assert_snapshot!(format!("help_{command}"), help(&[command]));
    }
}

#[test]
fn serve_groups_its_flags_under_headings_by_concern() {
    let text = help(&["serve"]);
    let sections = sections(&text);
    let general = sections
        .iter()
        .find(|(h, _)| h == "Options")
        .expect("an Options heading");
    // Only what applies to every command stays under "Options".
    assert_eq!(general.1, ["--log", "--quiet", "--help"], "{text}");
    let named: Vec<&(String, Vec<String>)> = sections
        .iter()
        .filter(|(h, _)| h != "Options" && h != "Arguments")
        .collect();
    for heading in [
        "Document",
        "Selection",
        "Tool shape",
        "Transport",
        "Identity",
        "API calls",
        "Confirmations and tasks",
        "Observability",
    ] {
        assert!(
            named.iter().any(|(h, _)| h == heading),
            "no {heading:?} heading in serve --help: {:?}",
            named.iter().map(|(h, _)| h).collect::<Vec<_>>()
        );
    }
    let flags: usize = named.iter().map(|(_, f)| f.len()).sum();
    assert!(flags >= 70, "{flags} flags under headings");
    for (heading, flags) in &named {
        assert!(
            !flags.is_empty() && flags.len() <= 15,
            "{heading}: {flags:?}"
        );
    }
}

#[test]
fn only_serve_offers_config() {
    for command in ["list", "generate", "lint", "mock"] {
        assert!(
            !help(&[command]).contains("--config"),
            "{command} --help offers --config"
        );
    }
    assert!(help(&["serve"]).contains("--config <FILE>"));
    // And a command that does not offer it refuses it as clap refuses any
    // unknown flag, before anything is read.
    let out = Command::cargo_bin("openapi2mcp")
        .unwrap()
        .args(["list", "--config", "apis.yaml", "specs/petstore.yaml"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unexpected argument '--config'"),
        "{stderr}"
    );
}
