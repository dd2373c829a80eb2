#![deny(missing_docs)]
//! `generate`: the tool model rendered as a standalone Rust crate that
//! serves the same tools as `openapi2mcp serve`, and [`build`], the same
//! rendered by a crate's build script into `OUT_DIR`.
//!
//! This crate is what a build script depends on: the reader, the tool
//! builder and the model, never the run time or the server (whose code the
//! generated crate depends on instead), so a build dependency compiles no
//! HTTP client, MCP layer or sandbox. [`client_config`] writes the MCP
//! client configuration a generated crate's README (and `openapi2mcp
//! config`) shows.
//!
//! The crate is made of three kinds of files:
//! - rendered from the handlebars [`templates`] with the [`model`] view of
//!   the catalog (Cargo.toml, README, `main.rs`, `lib.rs`, one module of
//!   operation functions per tag); Rust output is parsed with `syn` (invalid
//!   Rust is a generator bug, reported and never written) and formatted
//!   with `prettyplease`;
//! - `tools.json`, the serialized [`Catalog`], which the crate lists as
//!   `tools/list` (so the two modes list the same tools by construction);
//! - the dependency on the runtime and server crates (`crates/runtime`,
//!   `crates/server`, which bring the tool model crate `crates/model`), by
//!   version, by path, or [`vendor`]ed whole under `vendor/` (see
//!   [`RuntimeSource`]).
//!
//! Output is deterministic: the same catalog and options give the same
//! bytes, so `generate --check` can tell a stale crate from a fresh one.
//! Some files are the user's too: [`USER_FILES`] (`src/hooks.rs`) are
//! written only when missing, [`MERGED_FILES`] (`Cargo.toml`) get the
//! generator's entries merged in ([`manifest`]), and [`overrides`] names
//! the user's hook overrides of tools the document no longer has. The
//! crate's own `tests/smoke.rs` starts its binary and calls one tool.

pub mod build;
pub mod client_config;
pub mod manifest;
pub mod model;
pub mod module;
pub mod names;
pub mod overrides;
pub mod registry;
pub mod templates;
pub mod types;
pub mod vendor;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use model::{CrateView, CredentialView, GroupView};
use openapi2mcp_model::catalog::Catalog;
use templates::Templates;
pub use vendor::RuntimeSource;

/// Why a crate could not be generated or written.
#[derive(Debug, thiserror::Error)]
pub enum CodegenError {
    /// A template failed to parse or render.
    #[error("template {name}: {message}")]
    Template {
        /// The template (file name, or path of an override).
        name: String,
        /// What went wrong.
        message: String,
    },
    /// A template produced invalid Rust. With the built-in templates this
    /// is a bug in openapi2mcp.
    #[error(
        "generated {file} is not valid Rust ({message}) at line {line}, column {column}:\n    {excerpt}\nthis is a bug in openapi2mcp's templates (or in your --templates override); nothing was written"
    )]
    InvalidRust {
        /// The file being generated.
        file: String,
        /// syn's message.
        message: String,
        /// 1-based line in the rendered text.
        line: usize,
        /// 1-based column.
        column: usize,
        /// That line.
        excerpt: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {message}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        message: String,
    },
    /// Something the generator needs is missing (a bug).
    #[error("{0}")]
    Setup(String),
    /// The crate's `Cargo.toml` on disk is not TOML, so the generator's
    /// entries cannot be merged into it.
    #[error(
        "{path} is not valid TOML, so regeneration cannot merge its entries into it (your own dependencies and sections are kept when it parses): {message}"
    )]
    Manifest {
        /// The manifest.
        path: String,
        /// The parser's message, with line and column.
        message: String,
    },
}

/// How to generate.
#[derive(Debug, Clone, Default)]
pub struct GenerateOptions {
    /// Cargo package name; default: the API title as a slug plus `-mcp`.
    pub package: Option<String>,
    /// A directory of template overrides (see [`templates::TEMPLATES`]).
    pub templates: Option<PathBuf>,
    /// The full schemas and the document, embedded so that the crate
    /// serves the same resources and checks arguments against the same
    /// full schemas as `serve`.
    pub schemas: openapi2mcp_model::schemas::Schemas,
    /// Where the crate gets the runtime and server crates from.
    pub runtime: RuntimeSource,
}

/// One file of a generated crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Path relative to the crate root, `/`-separated.
    pub path: String,
    /// Contents.
    pub contents: String,
}

/// A generated crate, in memory.
#[derive(Debug, Clone)]
pub struct GeneratedCrate {
    /// Cargo package name.
    pub package: String,
    /// Files sorted by path.
    pub files: Vec<GeneratedFile>,
}

/// Directories the generator owns: files in them that it did not generate
/// are stale (a module of a tag that is gone) and are removed on write.
/// (`src/runtime` and `src/server` held copied sources before the runtime
/// became a crate: regenerating an older crate removes them.)
const OWNED_DIRS: &[&str] = &["src/operations", "vendor", "src/runtime", "src/server"];

/// Files that are the user's once written: generated only when missing,
/// never compared or rewritten (custom code that survives regeneration).
pub const USER_FILES: &[&str] = &["src/hooks.rs"];

/// Files shared with the user: the generator's entries are merged into
/// the file on disk and the user's kept (see [`manifest`]).
pub const MERGED_FILES: &[&str] = &["Cargo.toml"];

/// Renders the crate for `catalog`. `progress(done, total)` is called as
/// modules are rendered (for a progress bar).
pub fn generate(
    catalog: &Catalog,
    options: &GenerateOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<GeneratedCrate, CodegenError> {
    let (templates, view) = prepare(catalog, options)?;
    let package = view.package.clone();

    let total = view.groups.len() + 7;
    let mut done = 0;
    let mut step = |progress: &mut dyn FnMut(usize, usize)| {
        done += 1;
        progress(done, total);
    };
    let mut files = Vec::new();
    let mut text = |path: &str, template: &str| -> Result<(), CodegenError> {
        files.push(GeneratedFile {
            path: path.to_string(),
            contents: templates.render(template, &view)?,
        });
        Ok(())
    };
    text("Cargo.toml", "Cargo.toml.hbs")?;
    text("README.md", "README.md.hbs")?;
    text(".gitignore", "gitignore.hbs")?;
    text("Dockerfile", "Dockerfile.hbs")?;
    text(".dockerignore", "dockerignore.hbs")?;
    files.push(GeneratedFile {
        path: "server.json".into(),
        contents: registry::server_json(catalog, &package, &view.credentials)?,
    });
    step(progress);
    for (path, template) in [
        ("src/lib.rs", "lib.rs.hbs"),
        ("src/main.rs", "main.rs.hbs"),
        ("src/operations/mod.rs", "operations.rs.hbs"),
        ("src/operations/types.rs", "types.rs.hbs"),
        ("src/hooks.rs", "hooks.rs.hbs"),
        ("tests/smoke.rs", "smoke.rs.hbs"),
    ] {
        files.push(rust_file(path, &templates.render(template, &view)?)?);
        step(progress);
    }
    for group in &view.groups {
        let path = format!("src/operations/{}.rs", group.file);
        files.push(rust_file(&path, &render_group(&templates, &view, group)?)?);
        step(progress);
    }
    files.extend(json_files(catalog, options)?);
    step(progress);
    files.extend(
        vendor::files(&options.runtime)
            .into_iter()
            .map(|(path, contents)| GeneratedFile { path, contents }),
    );
    step(progress);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(GeneratedCrate { package, files })
}

/// The templates and the view of `catalog` every mode renders.
fn prepare(
    catalog: &Catalog,
    options: &GenerateOptions,
) -> Result<(Templates, CrateView), CodegenError> {
    let templates = Templates::load(options.templates.as_deref())?;
    let package = match &options.package {
        Some(p) => valid_package_name(p)?,
        None => format!("{}-mcp", client_config::slug(&catalog.title)),
    };
    let deps = vendor::dependency_versions().map_err(CodegenError::Setup)?;
    let credentials = client_config::credential_placeholders(catalog)
        .into_iter()
        .map(|(var, what)| CredentialView {
            var,
            what: what.as_str().unwrap_or_default().to_string(),
        })
        .collect();
    let config = client_config::snippet_for_command(
        catalog,
        &format!("/path/to/{package}/target/release/{package}"),
        &[],
        None,
    );
    let client_config =
        serde_json::to_string_pretty(&config).map_err(|e| CodegenError::Setup(e.to_string()))?;
    let mut view = CrateView::new(
        catalog,
        &*options.schemas.0,
        &package,
        deps,
        credentials,
        client_config,
    );
    view.runtime_dependency = options.runtime.dependency("runtime");
    view.server_dependency = options.runtime.dependency("server");
    view.vendored = options.runtime == RuntimeSource::Vendor;
    Ok((templates, view))
}

/// `src/operations/<group>.rs` as rendered (not yet checked as Rust).
fn render_group(
    templates: &Templates,
    view: &CrateView,
    group: &GroupView,
) -> Result<String, CodegenError> {
    let data = GroupData {
        group,
        package: &view.package,
        lib: &view.lib,
        generator: &view.generator,
    };
    templates.render("group.rs.hbs", &data)
}

/// `tools.json` (the catalog), `schemas.json` and `document.json`.
fn json_files(
    catalog: &Catalog,
    options: &GenerateOptions,
) -> Result<Vec<GeneratedFile>, CodegenError> {
    let mut json = serde_json::to_string_pretty(catalog)
        .map_err(|e| CodegenError::Setup(format!("serializing the catalog: {e}")))?;
    json.push('\n');
    let (schemas, document) = embedded_schemas(catalog, &options.schemas)?;
    Ok(vec![
        GeneratedFile {
            path: "tools.json".into(),
            contents: json,
        },
        GeneratedFile {
            path: "schemas.json".into(),
            contents: schemas,
        },
        GeneratedFile {
            path: "document.json".into(),
            contents: document,
        },
    ])
}

/// `schemas.json` (component schemas, and the defs behind budgeted tools)
/// and `document.json` (the API description; empty when there is none).
fn embedded_schemas(
    catalog: &Catalog,
    schemas: &openapi2mcp_model::schemas::Schemas,
) -> Result<(String, String), CodegenError> {
    use openapi2mcp_model::schemas::{EmbeddedSchemas, SchemaSide};
    let mut tops = Vec::new();
    for tool in &catalog.tools {
        if let Some(full) = &tool.input_full {
            tops.push((SchemaSide::Input, full));
        }
        if let Some(full) = &tool.output_full {
            tops.push((SchemaSide::Output, full));
        }
    }
    let embedded = EmbeddedSchemas::capture(&*schemas.0, &tops);
    let mut json = serde_json::to_string(&embedded)
        .map_err(|e| CodegenError::Setup(format!("serializing the schemas: {e}")))?;
    json.push('\n');
    let document = embedded.document.as_deref().unwrap_or_default().to_string();
    Ok((json, document))
}

/// What `group.rs.hbs` sees: the group, plus crate-level names.
#[derive(Serialize)]
struct GroupData<'a> {
    #[serde(flatten)]
    group: &'a GroupView,
    package: &'a str,
    lib: &'a str,
    generator: &'a str,
}

/// A Cargo package name: ASCII letters, digits, `-` and `_`, starting
/// with a letter.
fn valid_package_name(name: &str) -> Result<String, CodegenError> {
    let ok = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(name.to_string())
    } else {
        Err(CodegenError::Setup(format!(
            "`{name}` is not a valid package name (ASCII letters, digits, `-` and `_`, starting with a letter)"
        )))
    }
}

/// Parses rendered Rust with syn and formats it with prettyplease.
fn rust_file(path: &str, rendered: &str) -> Result<GeneratedFile, CodegenError> {
    let parsed = parse_rust(path, rendered)?;
    Ok(GeneratedFile {
        path: path.to_string(),
        contents: space_items(&prettyplease::unparse(&parsed)),
    })
}

/// Parses rendered Rust; invalid Rust is reported with its file, line,
/// column and the offending line.
pub(crate) fn parse_rust(path: &str, rendered: &str) -> Result<syn::File, CodegenError> {
    syn::parse_file(rendered).map_err(|e| {
        let start = e.span().start();
        CodegenError::InvalidRust {
            file: path.to_string(),
            message: e.to_string(),
            line: start.line,
            column: start.column + 1,
            excerpt: rendered
                .lines()
                .nth(start.line.saturating_sub(1))
                .unwrap_or_default()
                .trim()
                .to_string(),
        }
    })
}

/// prettyplease puts top-level items on consecutive lines; a blank line
/// after each item (a line at column 0 closing a block or ending in `;`)
/// and after the module docs makes files readable.
fn space_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 16);
    let mut prev: Option<&str> = None;
    for line in code.lines() {
        if let Some(p) = prev {
            // A doc line ending in `}` or `;` ends no item.
            let item_ended = !p.starts_with(char::is_whitespace)
                && !p.starts_with("//")
                && (p.ends_with('}') || p.ends_with(';') || p == ")]");
            let docs_ended = p.starts_with("//!") && !line.starts_with("//!");
            let attrs_ended = p.starts_with("#![") && p.ends_with(']') && !line.starts_with("#![");
            let use_run = p.starts_with("use ") && line.starts_with("use ");
            if (item_ended || docs_ended || attrs_ended)
                && !use_run
                && !line.is_empty()
                && line != "}"
            {
                out.push('\n');
            }
        }
        out.push_str(line);
        out.push('\n');
        prev = Some(line);
    }
    out
}

/// How a crate on disk differs from a freshly generated one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// The file should exist and does not.
    Missing(String),
    /// The file differs; the first differing line (1-based).
    Changed {
        /// The file.
        path: String,
        /// First line that differs.
        line: usize,
    },
    /// A file in a generated directory that generation would not produce.
    Extra(String),
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Difference::Missing(p) => write!(f, "missing  {p}"),
            Difference::Changed { path, line } => write!(f, "changed  {path} (from line {line})"),
            Difference::Extra(p) => write!(f, "extra    {p}"),
        }
    }
}

impl GeneratedCrate {
    /// Compares with the crate in `dir`: empty when it is up to date.
    pub fn compare_with(&self, dir: &Path) -> Result<Vec<Difference>, CodegenError> {
        let mut out = Vec::new();
        for file in &self.files {
            let path = dir.join(&file.path);
            let users = USER_FILES.contains(&file.path.as_str());
            match std::fs::read_to_string(&path) {
                Ok(existing) if users || existing == file.contents => {}
                Ok(existing) => {
                    let wanted = Self::wanted(file, &path, &existing)?;
                    if wanted != existing {
                        out.push(Difference::Changed {
                            path: file.path.clone(),
                            line: first_difference(&existing, &wanted),
                        });
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    out.push(Difference::Missing(file.path.clone()))
                }
                Err(e) => return Err(io_error(&path, e)),
            }
        }
        out.extend(self.extra_files(dir)?.into_iter().map(Difference::Extra));
        Ok(out)
    }

    /// Writes the crate to `dir` (created if needed): files whose contents
    /// changed are rewritten, stale files in generated directories removed.
    /// Returns the differences that were fixed.
    pub fn write_to(&self, dir: &Path) -> Result<Vec<Difference>, CodegenError> {
        let differences = self.compare_with(dir)?;
        for difference in &differences {
            match difference {
                Difference::Missing(p) | Difference::Changed { path: p, .. } => {
                    let path = dir.join(p);
                    if let Some(parent) = path.parent() {
                        std::fs::create_dir_all(parent).map_err(|e| io_error(parent, e))?;
                    }
                    let Some(file) = self.files.iter().find(|f| &f.path == p) else {
                        continue;
                    };
                    let contents = match std::fs::read_to_string(&path) {
                        Ok(existing) => Self::wanted(file, &path, &existing)?,
                        Err(_) => file.contents.clone(),
                    };
                    std::fs::write(&path, contents).map_err(|e| io_error(&path, e))?;
                }
                Difference::Extra(p) => {
                    let path = dir.join(p);
                    std::fs::remove_file(&path).map_err(|e| io_error(&path, e))?;
                }
            }
        }
        let removed: Vec<&str> = differences
            .iter()
            .filter_map(|d| match d {
                Difference::Extra(p) => Some(p.as_str()),
                _ => None,
            })
            .collect();
        Self::remove_empty_dirs(dir, &removed);
        Ok(differences)
    }

    /// The methods of the user's `src/hooks.rs` in `dir` that override
    /// tools this crate no longer serves (see [`overrides`]): named before
    /// the user builds, since the crate will not compile with them.
    pub fn stale_overrides(&self, dir: &Path) -> Vec<overrides::StaleOverride> {
        let Ok(hooks) = std::fs::read_to_string(dir.join("src/hooks.rs")) else {
            return Vec::new();
        };
        let previous = std::fs::read_to_string(dir.join("src/operations/mod.rs")).ok();
        self.files
            .iter()
            .find(|f| f.path == "src/operations/mod.rs")
            .map(|ops| overrides::stale(&hooks, &ops.contents, previous.as_deref()))
            .unwrap_or_default()
    }

    /// What `file` should read on disk, given what is there: the
    /// generated contents, or for a [`MERGED_FILES`] entry the file on
    /// disk with the generator's entries merged in.
    fn wanted(file: &GeneratedFile, path: &Path, existing: &str) -> Result<String, CodegenError> {
        if !MERGED_FILES.contains(&file.path.as_str()) {
            return Ok(file.contents.clone());
        }
        manifest::merge(existing, &file.contents).map_err(|e| CodegenError::Manifest {
            path: path.display().to_string(),
            message: e.message,
        })
    }

    /// Files in the directories the generator owns that this crate does not
    /// have: anywhere below `vendor/` and the old `src/runtime`/`src/server`
    /// copies, `.rs` files in `src/operations/`.
    fn extra_files(&self, dir: &Path) -> Result<Vec<String>, CodegenError> {
        let ours: BTreeSet<&str> = self.files.iter().map(|f| f.path.as_str()).collect();
        let mut extra = Vec::new();
        for owned in OWNED_DIRS {
            let only_rust = *owned == "src/operations";
            let mut pending = vec![owned.to_string()];
            // Bounded by the directory tree on disk (no links followed).
            while let Some(rel_dir) = pending.pop() {
                let path = dir.join(&rel_dir);
                let entries = match std::fs::read_dir(&path) {
                    Ok(e) => e,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(io_error(&path, e)),
                };
                for entry in entries.filter_map(Result::ok) {
                    let name = entry.file_name().to_string_lossy().to_string();
                    let rel = format!("{rel_dir}/{name}");
                    let kind = entry.file_type().map_err(|e| io_error(&entry.path(), e))?;
                    if kind.is_dir() {
                        if !only_rust {
                            pending.push(rel);
                        }
                    } else if (!only_rust || name.ends_with(".rs")) && !ours.contains(rel.as_str())
                    {
                        extra.push(rel);
                    }
                }
            }
        }
        extra.sort();
        Ok(extra)
    }

    /// Removes the directories of `removed` files that are left empty,
    /// deepest first, up to (not including) `dir`.
    fn remove_empty_dirs(dir: &Path, removed: &[&str]) {
        let mut dirs: BTreeSet<&Path> = BTreeSet::new();
        for rel in removed {
            let mut parent = Path::new(*rel).parent();
            while let Some(p) = parent.filter(|p| !p.as_os_str().is_empty()) {
                dirs.insert(p);
                parent = p.parent();
            }
        }
        // Deepest first: a path sorts after its ancestors.
        for rel in dirs.iter().rev() {
            // Fails (and is left) when the directory still holds files.
            let _ = std::fs::remove_dir(dir.join(rel));
        }
    }
}

fn io_error(path: &Path, e: std::io::Error) -> CodegenError {
    CodegenError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

fn first_difference(a: &str, b: &str) -> usize {
    let mut line = 1;
    for (x, y) in a.lines().zip(b.lines()) {
        if x != y {
            return line;
        }
        line += 1;
    }
    line
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
