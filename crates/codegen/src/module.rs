//! `build.rs` mode: the API as one Rust module file and its JSON files,
//! written into `OUT_DIR` by a build script, for a crate of the user's that
//! `include!`s it (`mod api { include!(concat!(env!("OUT_DIR"), "/api/mod.rs")); }`)
//! and implements the `Hooks` trait in its own sources. The same templates
//! as a generated crate, rendered without crate-level attributes, with the
//! operation modules inlined (an `include!`d file cannot declare file
//! modules of its own).

use std::collections::HashMap;

use super::model::EmbedView;
use super::{CodegenError, GenerateOptions, GeneratedFile, json_files, prepare, render_group};
use openapi2mcp_model::catalog::Catalog;

/// The file a crate `include!`s, inside `OUT_DIR/<dir>/`.
pub const MODULE_FILE: &str = "mod.rs";

/// Renders `catalog` as `MODULE_FILE` plus `tools.json`, `schemas.json` and
/// `document.json`, for `OUT_DIR/<dir>/` (`dir` a plain directory name).
pub fn generate_module(
    catalog: &Catalog,
    options: &GenerateOptions,
    dir: &str,
) -> Result<Vec<GeneratedFile>, CodegenError> {
    if dir.is_empty()
        || !dir
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(CodegenError::Setup(format!(
            "the module's directory name {dir:?} must be letters, digits, `_` or `-`"
        )));
    }
    let (templates, mut view) = prepare(catalog, options)?;
    view.build_mode = true;
    view.embed = EmbedView::in_out_dir(dir);
    let mut groups = HashMap::new();
    for group in &view.groups {
        let path = format!("operations/{}.rs", group.file);
        let text = render_group(&templates, &view, group)?;
        groups.insert(group.file.clone(), parse(&path, &text)?);
    }
    // The argument types the tools share.
    groups.insert(
        "types".to_string(),
        parse(
            "operations/types.rs",
            &templates.render("types.rs.hbs", &view)?,
        )?,
    );
    let mut operations = parse(
        "operations/mod.rs",
        &templates.render("operations.rs.hbs", &view)?,
    )?;
    inline(&mut operations, &mut groups);
    let mut modules = HashMap::from([("operations".to_string(), operations)]);
    let mut top = parse(MODULE_FILE, &templates.render("lib.rs.hbs", &view)?)?;
    inline(&mut top, &mut modules);
    // As prettyplease writes it: the blank lines `rust_file` adds between
    // top-level items would split the inlined modules' attributes.
    let mut files = vec![GeneratedFile {
        path: MODULE_FILE.into(),
        contents: prettyplease::unparse(&top),
    }];
    files.extend(json_files(catalog, options)?);
    Ok(files)
}

fn parse(path: &str, text: &str) -> Result<syn::File, CodegenError> {
    super::parse_rust(path, text)
}

/// Replaces each `mod name;` of `file` whose file is in `modules` by an
/// inline module holding that file. The file's `//!` docs and `#![…]`
/// attributes become the module's outer ones, in place of the
/// declaration's docs (one style per item, as clippy asks).
fn inline(file: &mut syn::File, modules: &mut HashMap<String, syn::File>) {
    for item in &mut file.items {
        let syn::Item::Mod(module) = item else {
            continue;
        };
        if module.content.is_some() {
            continue;
        }
        let name = module.ident.to_string();
        let key = name.trim_start_matches("r#");
        if let Some(body) = modules.remove(key) {
            if body.attrs.iter().any(|a| a.path().is_ident("doc")) {
                module.attrs.retain(|a| !a.path().is_ident("doc"));
            }
            module.attrs.extend(body.attrs.into_iter().map(|mut a| {
                a.style = syn::AttrStyle::Outer;
                a
            }));
            module.content = Some((syn::token::Brace::default(), body.items));
            module.semi = None;
        }
    }
}
