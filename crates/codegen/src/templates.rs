//! The handlebars templates of a generated crate: embedded in the binary
//! (an installed `openapi2mcp` needs no files beside it), each overridable
//! by a file of the same name in a `--templates` directory. Strict mode (a
//! missing field is an error, not an empty string) and no HTML escaping
//! (the output is Rust, TOML and Markdown).

use std::path::Path;

use handlebars::{Handlebars, handlebars_helper, no_escape};
use serde::Serialize;

use super::CodegenError;

/// `(name, embedded text)`: the name is the file name in `templates/`.
pub const TEMPLATES: &[(&str, &str)] = &[
    (
        "Cargo.toml.hbs",
        include_str!("../../../templates/Cargo.toml.hbs"),
    ),
    (
        "README.md.hbs",
        include_str!("../../../templates/README.md.hbs"),
    ),
    (
        "gitignore.hbs",
        include_str!("../../../templates/gitignore.hbs"),
    ),
    (
        "Dockerfile.hbs",
        include_str!("../../../templates/Dockerfile.hbs"),
    ),
    (
        "smoke.rs.hbs",
        include_str!("../../../templates/smoke.rs.hbs"),
    ),
    (
        "dockerignore.hbs",
        include_str!("../../../templates/dockerignore.hbs"),
    ),
    ("lib.rs.hbs", include_str!("../../../templates/lib.rs.hbs")),
    (
        "main.rs.hbs",
        include_str!("../../../templates/main.rs.hbs"),
    ),
    (
        "operations.rs.hbs",
        include_str!("../../../templates/operations.rs.hbs"),
    ),
    (
        "group.rs.hbs",
        include_str!("../../../templates/group.rs.hbs"),
    ),
    (
        "types.rs.hbs",
        include_str!("../../../templates/types.rs.hbs"),
    ),
    // One struct or enum, a partial of `group.rs.hbs` and `types.rs.hbs`.
    (
        "typedecl.rs.hbs",
        include_str!("../../../templates/typedecl.rs.hbs"),
    ),
    (
        "hooks.rs.hbs",
        include_str!("../../../templates/hooks.rs.hbs"),
    ),
];

mod helpers {
    use super::handlebars_helper;
    // `{{rust_str x}}`: `x` as a Rust string literal (quoted, escaped).
    handlebars_helper!(rust_str: |s: str| format!("{s:?}"));
}

/// The registry, with overrides from `dir` when given.
pub struct Templates {
    registry: Handlebars<'static>,
}

impl Templates {
    /// Loads the embedded templates, then any overrides from `dir`. A file
    /// in `dir` that is not one of [`TEMPLATES`] is an error naming the known
    /// ones (a typo would otherwise be silently ignored).
    pub fn load(dir: Option<&Path>) -> Result<Self, CodegenError> {
        let mut registry = Handlebars::new();
        registry.set_strict_mode(true);
        registry.register_escape_fn(no_escape);
        registry.register_helper("rust_str", Box::new(helpers::rust_str));
        for (name, text) in TEMPLATES {
            registry
                .register_template_string(name, *text)
                .map_err(|e| CodegenError::Template {
                    name: format!("(built-in) {name}"),
                    message: e.to_string(),
                })?;
        }
        if let Some(dir) = dir {
            let entries = std::fs::read_dir(dir).map_err(|e| CodegenError::Io {
                path: dir.display().to_string(),
                message: e.to_string(),
            })?;
            let mut overrides: Vec<_> = entries.filter_map(Result::ok).collect();
            overrides.sort_by_key(|e| e.file_name());
            for entry in overrides {
                let name = entry.file_name().to_string_lossy().to_string();
                let path = entry.path();
                if !TEMPLATES.iter().any(|(n, _)| *n == name) {
                    let known: Vec<&str> = TEMPLATES.iter().map(|(n, _)| *n).collect();
                    return Err(CodegenError::Template {
                        name: path.display().to_string(),
                        message: format!(
                            "not a template openapi2mcp uses (known: {})",
                            known.join(", ")
                        ),
                    });
                }
                let text = std::fs::read_to_string(&path).map_err(|e| CodegenError::Io {
                    path: path.display().to_string(),
                    message: e.to_string(),
                })?;
                registry
                    .register_template_string(&name, text)
                    .map_err(|e| CodegenError::Template {
                        name: path.display().to_string(),
                        message: e.to_string(),
                    })?;
            }
        }
        Ok(Self { registry })
    }

    /// Renders template `name` with `data`.
    pub fn render<T: Serialize>(&self, name: &str, data: &T) -> Result<String, CodegenError> {
        self.registry
            .render(name, data)
            .map_err(|e| CodegenError::Template {
                name: name.to_string(),
                message: e.to_string(),
            })
    }
}
