//! Numeric flags: every numeric flag of every command is range-checked
//! at parse time.

use crate::support::run_binary;

// Every numeric flag of every command is range-checked when parsed:
// exit status 2 and a message naming the flag, never a panic.
#[test]
fn extreme_numeric_flags_are_refused_at_parse_time_by_every_command() {
    const HUGE: &str = "18446744073709551615"; // u64::MAX
    const HUGER: &str = "99999999999999999999999";
    let spec_flags: &[(&str, &[&str])] = &[
        ("--schema-budget", &[HUGE, HUGER, "-1"]),
        ("--output-schema-budget", &[HUGE, "-1"]),
        ("--max-document-bytes", &["0", HUGE, "-1"]),
    ];
    let serve_flags: &[(&str, &[&str])] = &[
        (
            "--timeout",
            &["1e-30", "0", "-1", "1e20", "NaN", "inf", "abc"],
        ),
        ("--max-response-bytes", &["0", HUGE, HUGER]),
        ("--retries", &["101", "4294967295", "-1"]),
        ("--rate-limit", &["1e-30", "0", "-5", "1e300", "NaN"]),
        ("--rate-burst", &["0", "4294967295"]),
        ("--tools-budget", &[HUGE]),
        ("--shutdown-grace", &["-1", "1e20", "inf"]),
        ("--watch-interval", &["0", "1e-30", "1e20", "NaN"]),
    ];
    let out = tempfile::tempdir().unwrap();
    let out = out.path().join("crate");
    let spec = crate::support::local("specs/petstore.yaml");
    let spec = spec.to_str().unwrap();
    let mut table: Vec<(Vec<&str>, &str, &str)> = Vec::new();
    let commands: [(&str, &[&str]); 4] = [
        ("serve", &[]),
        ("list", &[]),
        ("lint", &[]),
        ("generate", &["--out", out.to_str().unwrap()]),
    ];
    for (command, extra) in commands {
        for (flag, values) in spec_flags {
            for value in *values {
                let mut args = vec![command, spec];
                args.extend_from_slice(extra);
                table.push((args, flag, value));
            }
        }
    }
    for (flag, values) in serve_flags {
        for value in *values {
            table.push((vec!["serve", spec], flag, value));
        }
    }
    for value in [HUGE, "-1"] {
        table.push((vec!["lint", spec], "--max-tokens", value));
    }
    for (flag, value) in [
        ("--max-document-bytes", "0"),
        ("--seed", "-1"),
        ("--seed", HUGER),
    ] {
        table.push((vec!["mock", spec], flag, value));
    }
    for (args, flag, value) in &table {
        let mut args = args.clone();
        // `--flag=value` so that negative numbers are read as values.
        let pair = format!("{flag}={value}");
        args.push(&pair);
        let (code, stderr) = run_binary(&args, &[]);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(flag) && stderr.contains("invalid value"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // The bounds themselves are accepted.
    for (flag, value) in [
        ("--schema-budget", "1073741824"),
        ("--output-schema-budget", "0"),
        ("--max-document-bytes", "1099511627776"),
    ] {
        let (code, stderr) = run_binary(&["list", spec, flag, value], &[]);
        assert_eq!(code, Some(0), "{flag} {value}: {stderr}");
    }
    let (code, stderr) = run_binary(&["lint", spec, "--max-tokens", "1099511627776"], &[]);
    assert_eq!(code, Some(0), "{stderr}");
}
