//! The user's hook overrides against the tools a regeneration serves: a
//! method of `impl Hooks for …` in `src/hooks.rs` named after a tool the
//! document no longer has (removed, or renamed) makes the crate fail to
//! compile. `generate` names each one when it writes or checks the crate,
//! before the user builds, with the tool it was most likely renamed to.

use syn::{ImplItem, Item, TraitItem};

/// A method of the user's `impl Hooks for …` that the regenerated `Hooks`
/// trait no longer has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleOverride {
    /// The method (the tool's old name).
    pub method: String,
    /// 1-based line of the method in `src/hooks.rs`.
    pub line: usize,
    /// A tool of the new trait whose name shares the most words with it
    /// (a rename's likely new name), if one shares any.
    pub closest: Option<String>,
}

impl std::fmt::Display for StaleOverride {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "src/hooks.rs:{}: `fn {}` overrides a tool the document no longer has (removed, or renamed); the crate will not compile until the method is removed or renamed",
            self.line, self.method
        )?;
        if let Some(closest) = &self.closest {
            write!(f, " (renamed to `{closest}`?)")?;
        }
        Ok(())
    }
}

/// The methods of every `impl Hooks for …` in `hooks` (the user's
/// `src/hooks.rs`) that the trait `Hooks` in `operations` (the generated
/// `src/operations/mod.rs`) does not declare. `previous` is that file as
/// the last generation wrote it: the tools new since then are a rename's
/// likeliest targets. A file that does not parse yields none: the
/// compiler will say more about it than this can.
pub fn stale(hooks: &str, operations: &str, previous: Option<&str>) -> Vec<StaleOverride> {
    let (Ok(hooks), Ok(operations)) = (syn::parse_file(hooks), syn::parse_file(operations)) else {
        return Vec::new();
    };
    let declared = hook_methods(&operations);
    if declared.is_empty() {
        return Vec::new();
    }
    let before = previous
        .and_then(|p| syn::parse_file(p).ok())
        .map(|p| hook_methods(&p))
        .unwrap_or_default();
    let new: Vec<String> = declared
        .iter()
        .filter(|d| !before.contains(d))
        .cloned()
        .collect();
    hooks
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Impl(i)
                if i.trait_.as_ref().is_some_and(|(_, path, _)| {
                    path.segments.last().is_some_and(|s| s.ident == "Hooks")
                }) =>
            {
                Some(i)
            }
            _ => None,
        })
        .flat_map(|i| &i.items)
        .filter_map(|item| match item {
            ImplItem::Fn(f) => Some(&f.sig.ident),
            _ => None,
        })
        .filter(|ident| !declared.iter().any(|d| ident == &d.as_str()))
        .map(|ident| {
            let method = ident.to_string();
            StaleOverride {
                line: ident.span().start().line,
                closest: closest(&method, &new).or_else(|| closest(&method, &declared)),
                method,
            }
        })
        .collect()
}

/// The methods the trait `Hooks` of a generated `src/operations/mod.rs`
/// declares.
fn hook_methods(operations: &syn::File) -> Vec<String> {
    operations
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Trait(t) if t.ident == "Hooks" => Some(t),
            _ => None,
        })
        .flat_map(|t| &t.items)
        .filter_map(|item| match item {
            TraitItem::Fn(f) => Some(f.sig.ident.to_string()),
            _ => None,
        })
        .collect()
}

/// The declared name that says every word of `method` but its verb, in
/// the fewest words (ties: the first): a rename keeps what the tool acts
/// on (`delete_pet` → `remove_pet`, `get_pet` → `get_pet_by_id`).
fn closest(method: &str, declared: &[String]) -> Option<String> {
    let words: Vec<&str> = method.split('_').collect();
    let object = if words.len() > 1 {
        &words[1..]
    } else {
        &words[..]
    };
    let mut best: Option<(usize, &String)> = None;
    for d in declared {
        let theirs: Vec<&str> = d.split('_').collect();
        if object.iter().all(|w| theirs.contains(w))
            && best.is_none_or(|(fewest, _)| theirs.len() < fewest)
        {
            best = Some((theirs.len(), d));
        }
    }
    best.map(|(_, d)| d.clone())
}

#[cfg(test)]
#[path = "overrides_tests.rs"]
mod tests;
