//! A generated crate's `Cargo.toml` is shared: the generator owns the
//! entries it writes (the package's fields, its `[lib]` and `[[bin]]`, the
//! features and dependencies the generated code needs), the user owns
//! everything else (a dependency added to log from a hook, a feature, a
//! `[profile.release]`). Regeneration merges the new manifest into the
//! one on disk entry by entry, so what the user added survives and
//! `generate --check` calls stale only an entry the generator writes.
//!
//! The merge is done on the TOML document (`toml_edit`), so the user's
//! comments and layout are kept. `[profile.*]` entries the generator
//! writes are defaults: added when missing, never overwritten (a user who
//! wants `strip = false` keeps it).

use toml_edit::{ArrayOfTables, DocumentMut, Item, Table};

/// Why a manifest on disk could not be merged: it is not TOML.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ManifestError {
    /// The parser's message, with line and column.
    pub message: String,
}

/// `existing` (the manifest on disk) with every entry of `generated`
/// written over it: keys the generator writes take its values (and
/// comments), keys only `existing` has stay where they are. `[[bin]]`
/// targets are matched by `name`. The file's opening comment is the
/// generator's.
pub fn merge(existing: &str, generated: &str) -> Result<String, ManifestError> {
    let mut ours: DocumentMut =
        existing
            .parse()
            .map_err(|e: toml_edit::TomlError| ManifestError {
                message: e.to_string(),
            })?;
    let theirs: DocumentMut =
        generated
            .parse()
            .map_err(|e: toml_edit::TomlError| ManifestError {
                message: format!("the generated manifest: {e}"),
            })?;
    merge_table(ours.as_table_mut(), theirs.as_table(), Entries::Root);
    *ours.decor_mut() = theirs.decor().clone();
    ours.set_trailing(theirs.trailing().as_str().unwrap_or_default());
    Ok(ours.to_string())
}

/// Whose the entries of a table being merged are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entries {
    /// The manifest's top level: its tables are the generator's, but for
    /// `[profile]`.
    Root,
    /// The generator's: its values win.
    Generator,
    /// Defaults (a profile's): added when missing, the user's kept.
    Defaults,
}

/// Writes `theirs`' entries into `ours`, recursing into tables both have.
fn merge_table(ours: &mut Table, theirs: &Table, entries: Entries) {
    if entries != Entries::Defaults {
        *ours.decor_mut() = theirs.decor().clone();
    }
    for (key, item) in theirs.iter() {
        let defaults = match entries {
            Entries::Root if key == "profile" => Entries::Defaults,
            Entries::Root => Entries::Generator,
            other => other,
        };
        match (ours.get_mut(key), item) {
            (Some(Item::Table(mine)), Item::Table(table)) => {
                merge_table(mine, table, defaults);
                continue;
            }
            (Some(_), _) if defaults == Entries::Defaults => continue,
            (Some(Item::ArrayOfTables(mine)), Item::ArrayOfTables(tables)) => {
                merge_array(mine, tables);
                continue;
            }
            _ => {}
        }
        match theirs.key(key) {
            Some(their_key) => {
                ours.insert_formatted(their_key, item.clone());
            }
            None => {
                ours.insert(key, item.clone());
            }
        }
    }
}

/// `[[bin]]`-style arrays: each table of `theirs` replaces the one of the
/// same `name` in `ours` (or is added); `ours`' other tables stay.
fn merge_array(ours: &mut ArrayOfTables, theirs: &ArrayOfTables) {
    let name = |t: &Table| t.get("name").and_then(Item::as_str).map(str::to_string);
    for table in theirs.iter() {
        let slot = ours
            .iter_mut()
            .find(|mine| name(mine).is_some() && name(mine) == name(table));
        match slot {
            Some(mine) => *mine = table.clone(),
            None => ours.push(table.clone()),
        }
    }
}

#[cfg(test)]
#[path = "manifest_tests.rs"]
mod tests;
