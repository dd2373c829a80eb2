//! The program's settings are defined in one place
//! (`openapi2mcp_runtime::settings`), which is what keeps credentials from
//! ever being read from a setting's name.

use clap::CommandFactory as _;
use openapi2mcp_runtime::settings;

/// Every `env = ...` of `command` and its subcommands.
fn envs(command: &clap::Command, out: &mut Vec<String>) {
    for arg in command.get_arguments() {
        if let Some(env) = arg.get_env() {
            out.push(env.to_string_lossy().into_owned());
        }
    }
    for sub in command.get_subcommands() {
        envs(sub, out);
    }
}

/// The files under `dir` (recursively) with one of `extensions`.
fn sources(dir: &std::path::Path, extensions: &[&str], out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, extensions, out);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.contains(&e))
        {
            out.push(path);
        }
    }
}

#[test]
fn every_setting_read_is_one_of_the_listed_settings() {
    // The command line of generated crates (and, through `ServeFlags`,
    // `openapi2mcp serve`'s).
    let mut found = Vec::new();
    envs(&super::Cli::command(), &mut found);
    for listed in [settings::LOG, settings::AUTH_TOKEN, settings::BASE_URL] {
        assert!(found.iter().any(|f| f == listed), "{listed} in {found:?}");
    }
    for env in &found {
        assert!(
            !env.starts_with("OPENAPI2MCP_") || settings::describe(env).is_some(),
            "{env} is read by the command line but not in openapi2mcp_runtime::settings::ALL"
        );
    }
    // No source names a setting but through the list: a variable name
    // written out as a literal anywhere else is a setting the list (and
    // so the credentials' collision check) would miss.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    sources(&root.join("src"), &["rs"], &mut files);
    sources(&root.join("crates"), &["rs"], &mut files);
    sources(&root.join("templates"), &["hbs"], &mut files);
    assert!(files.len() > 50, "the sources were found: {}", files.len());
    let mut strays = Vec::new();
    for file in files {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.ends_with("tests.rs") || name == "settings.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for (at, _) in text.match_indices("\"OPENAPI2MCP_") {
            let rest = &text[at + 1..];
            let end = rest.find('"').unwrap_or(rest.len());
            let literal = &rest[..end];
            // (Prefixes, ending in `_`, are not variables.)
            if !literal.ends_with('_')
                && literal
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            {
                strays.push(format!("{}: {literal}", file.display()));
            }
        }
    }
    assert!(
        strays.is_empty(),
        "variable names outside openapi2mcp_runtime::settings: {strays:?}"
    );
}
