//! The configuration file of `serve --config`: several APIs, each with
//! its document and everything the command line's per-API flags say (base
//! URL, credentials, headers, overlays, filters, HTTP limits, a tool-name
//! prefix), in YAML (or JSON) or TOML. Unknown keys and wrong types are
//! errors naming the file, line and key; so are the checks serde cannot
//! make (names, prefixes, values with unset variables), located by the
//! entry and key they concern.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::runtime::auth::fixed::expand_vars;

/// The file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// The APIs, in the order their tools are listed.
    pub apis: Vec<ApiEntry>,
}

/// One API.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiEntry {
    /// What logs, toolsets and resources call it: `[a-z0-9_]`, unique.
    pub name: String,
    /// Its OpenAPI document: a path (relative to the file) or a URL.
    pub spec: String,
    /// Put before its tools' names with `_` (default: `name`; `""` for
    /// none, when names cannot collide).
    pub prefix: Option<String>,
    /// Answer its calls from an in-process mock of the document (which
    /// remembers what is created), unless `base_url` is given.
    #[serde(default)]
    pub mock: bool,
    /// Where the mock keeps what is created, across restarts (a JSON
    /// file, relative to this file); in memory when absent.
    pub mock_state: Option<String>,
    /// Base URL overriding the document's `servers`.
    pub base_url: Option<String>,
    /// Values for `{variables}` in server URLs.
    #[serde(default)]
    pub server_variables: BTreeMap<String, String>,
    /// Overlays applied to the document, in order (paths relative to the file).
    #[serde(default)]
    pub overlays: Vec<String>,
    /// Credentials of its security schemes, by the variable names of
    /// `OPENAPI2MCP_<SCHEME>_<FIELD>`; values may use `${VAR}`. Only these
    /// are used for this API: the process's `OPENAPI2MCP_*` variables are
    /// not, so one API's secret never reaches another.
    #[serde(default)]
    pub credentials: BTreeMap<String, String>,
    /// Headers on every request (`Name: value`, `${VAR}` allowed).
    #[serde(default)]
    pub headers: Vec<String>,
    /// Keep only operations with one of these tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Drop operations with one of these tags.
    #[serde(default)]
    pub exclude_tags: Vec<String>,
    /// Keep only these operations (operationId or tool name).
    #[serde(default)]
    pub operations: Vec<String>,
    /// Drop these operations.
    #[serde(default)]
    pub exclude_operations: Vec<String>,
    /// Keep only these HTTP methods.
    #[serde(default)]
    pub methods: Vec<String>,
    /// Keep only paths matching these globs.
    #[serde(default)]
    pub paths: Vec<String>,
    /// Drop paths matching these globs.
    #[serde(default)]
    pub exclude_paths: Vec<String>,
    /// Keep only read-only tools.
    #[serde(default)]
    pub read_only: bool,
    /// `full`, `strict`, `loose` or `off` (as `--output-schema`).
    pub output_schema: Option<String>,
    /// As `--schema-budget`.
    pub schema_budget: Option<usize>,
    /// `full` or `short` (as `--descriptions`).
    pub descriptions: Option<String>,
    /// Seconds per request (as `--timeout`).
    pub timeout: Option<f64>,
    /// As `--retries`.
    pub retries: Option<u32>,
    /// As `--max-response-bytes`.
    pub max_response_bytes: Option<usize>,
    /// Calls per second (as `--rate-limit`).
    pub rate_limit: Option<f64>,
    /// As `--rate-burst`.
    pub rate_burst: Option<u32>,
    /// Follow `$ref`s to http(s) URLs.
    #[serde(default)]
    pub allow_remote_refs: bool,
}

/// A configuration that cannot be used: where, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct ConfigError {
    /// The file, as given.
    pub file: String,
    /// Its line, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// A read, checked configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file, as given.
    pub file: String,
    /// The APIs.
    pub apis: Vec<ApiEntry>,
    text: String,
    toml: bool,
}

impl Config {
    /// Reads and checks `path`.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            file: file.clone(),
            line: None,
            message: format!("cannot read the configuration: {e}"),
        })?;
        Self::parse(&file, &text, path.parent())
    }

    /// Checks `text`, the contents of `file`; relative document and
    /// overlay paths are taken from `dir`.
    pub fn parse(file: &str, text: &str, dir: Option<&Path>) -> Result<Self, ConfigError> {
        let toml = file.ends_with(".toml");
        let parsed: ConfigFile = if toml {
            toml::from_str(text).map_err(|e| ConfigError {
                file: file.to_string(),
                line: e.span().map(|s| line_of(text, s.start)),
                message: e.message().to_string(),
            })?
        } else {
            serde_norway::from_str(text).map_err(|e| ConfigError {
                file: file.to_string(),
                line: e.location().map(|l| l.line()),
                message: e.to_string(),
            })?
        };
        let mut config = Self {
            file: file.to_string(),
            apis: parsed.apis,
            text: text.to_string(),
            toml,
        };
        config.check()?;
        if let Some(dir) = dir {
            for api in &mut config.apis {
                api.spec = beside(dir, &api.spec);
                for overlay in &mut api.overlays {
                    *overlay = beside(dir, overlay);
                }
                if let Some(state) = &mut api.mock_state {
                    *state = beside(dir, state);
                }
            }
        }
        Ok(config)
    }

    /// An error about `key` of API number `index` (or the entry itself).
    pub fn error(&self, index: usize, key: Option<&str>, message: String) -> ConfigError {
        let name = self.apis.get(index).map(|a| a.name.as_str()).unwrap_or("?");
        let at = match key {
            Some(key) => format!("apis[{index}] (`{name}`) {key}"),
            None => format!("apis[{index}] (`{name}`)"),
        };
        ConfigError {
            file: self.file.clone(),
            line: self.line_of_key(index, key),
            message: format!("{at}: {message}"),
        }
    }

    fn check(&self) -> Result<(), ConfigError> {
        if self.apis.is_empty() {
            return Err(ConfigError {
                file: self.file.clone(),
                line: None,
                message: "`apis` lists no API".into(),
            });
        }
        let mut names: BTreeMap<&str, usize> = BTreeMap::new();
        let mut prefixes: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, api) in self.apis.iter().enumerate() {
            if !is_label(&api.name) {
                return Err(self.error(
                    i,
                    Some("name"),
                    "a name is 1 to 32 of a-z, 0-9 and _".into(),
                ));
            }
            if let Some(first) = names.insert(&api.name, i) {
                return Err(self.error(
                    i,
                    Some("name"),
                    format!("`{}` is also the name of apis[{first}]", api.name),
                ));
            }
            let prefix = self.prefix(i);
            if !prefix.is_empty() && !is_label(prefix) {
                return Err(self.error(
                    i,
                    Some("prefix"),
                    "a prefix is empty or 1 to 32 of a-z, 0-9 and _".into(),
                ));
            }
            if let Some(first) = prefixes.insert(prefix, i).filter(|_| !prefix.is_empty()) {
                return Err(self.error(
                    i,
                    Some("prefix"),
                    format!("prefix `{prefix}` is also apis[{first}]'s: their tools would collide"),
                ));
            }
            for var in api.credentials.keys() {
                let Some(rest) = var.strip_prefix(crate::runtime::auth::ENV_PREFIX) else {
                    return Err(self.error(
                        i,
                        Some("credentials"),
                        format!(
                            "`{var}` is not a credential variable: they are named OPENAPI2MCP_CRED_<SCHEME>_<FIELD> (or OPENAPI2MCP_<SCHEME>_<FIELD>; see docs/guides/wrap-an-api.md#credentials)"
                        ),
                    ));
                };
                if let Some(what) = crate::runtime::settings::describe(var) {
                    return Err(self.error(
                        i,
                        Some("credentials"),
                        format!(
                            "`{var}` is the server's own setting ({what}), never read as a credential: give the scheme's credential as {}{rest}",
                            crate::runtime::auth::CRED_PREFIX
                        ),
                    ));
                }
            }
            if let Some(mode) = &api.output_schema
                && !["full", "strict", "loose", "off"].contains(&mode.as_str())
            {
                return Err(self.error(
                    i,
                    Some("output_schema"),
                    format!("`{mode}` is not one of full, strict, loose, off"),
                ));
            }
            if let Some(mode) = &api.descriptions
                && !["full", "short"].contains(&mode.as_str())
            {
                return Err(self.error(
                    i,
                    Some("descriptions"),
                    format!("`{mode}` is not one of full, short"),
                ));
            }
        }
        Ok(())
    }

    /// The tool-name prefix of API `index`.
    pub fn prefix(&self, index: usize) -> &str {
        let api = &self.apis[index];
        api.prefix.as_deref().unwrap_or(&api.name)
    }

    /// API `index`'s credentials, `${VAR}`s read through `lookup`.
    pub fn credentials<F>(
        &self,
        index: usize,
        lookup: F,
    ) -> Result<Vec<(String, String)>, ConfigError>
    where
        F: Fn(&str) -> Option<String>,
    {
        self.apis[index]
            .credentials
            .iter()
            .map(|(var, raw)| {
                expand_vars(&format!("credential `{var}`"), raw, &lookup)
                    .map(|value| (var.clone(), value))
                    .map_err(|e| self.error(index, Some("credentials"), e.to_string()))
            })
            .collect()
    }

    /// The line of `key` in API `index`'s entry (or of the entry), found
    /// in the text: YAML list items under `apis:`, TOML `[[apis]]` tables.
    fn line_of_key(&self, index: usize, key: Option<&str>) -> Option<usize> {
        let lines: Vec<&str> = self.text.lines().collect();
        let starts = self.entry_starts(&lines);
        let start = *starts.get(index)?;
        let end = starts.get(index + 1).copied().unwrap_or(lines.len());
        let Some(key) = key else {
            return Some(start + 1);
        };
        let found = (start..end).find(|&n| {
            let line = lines[n].trim_start();
            let line = line.strip_prefix("- ").unwrap_or(line).trim_start();
            let line = line.trim_start_matches(['"', '\'']);
            line.strip_prefix(key).is_some_and(|rest| {
                let rest = rest.trim_start_matches(['"', '\'']).trim_start();
                rest.starts_with(if self.toml { '=' } else { ':' })
            })
        });
        Some(found.unwrap_or(start) + 1)
    }

    fn entry_starts(&self, lines: &[&str]) -> Vec<usize> {
        if self.toml {
            return (0..lines.len())
                .filter(|&n| lines[n].trim() == "[[apis]]")
                .collect();
        }
        let Some(apis) = lines.iter().position(|l| l.trim_end() == "apis:") else {
            return Vec::new();
        };
        let mut indent = None;
        let mut out = Vec::new();
        for (n, line) in lines.iter().enumerate().skip(apis + 1) {
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let own = line.len() - trimmed.len();
            if own == 0 && !trimmed.starts_with('-') {
                break; // the next top-level key
            }
            if trimmed.starts_with("- ") || trimmed == "-" {
                match indent {
                    None => {
                        indent = Some(own);
                        out.push(n);
                    }
                    Some(i) if i == own => out.push(n),
                    _ => {}
                }
            }
        }
        out
    }
}

/// A name or prefix: 1 to 32 of `[a-z0-9_]`.
fn is_label(s: &str) -> bool {
    (1..=32).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// `location` taken from `dir` when it is a relative path.
fn beside(dir: &Path, location: &str) -> String {
    if location.starts_with("http://") || location.starts_with("https://") {
        return location.to_string();
    }
    let path = PathBuf::from(location);
    if path.is_absolute() {
        location.to_string()
    } else {
        dir.join(path).display().to_string()
    }
}

/// The 1-based line of byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
