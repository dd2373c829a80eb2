//! Rust identifiers for generated code: tool, argument and tag names made
//! into valid, readable, collision-free identifiers. Keywords become raw
//! identifiers (`r#type`) where Rust allows it and get a trailing `_`
//! where it does not (`self_`); names that would clash get `_2`, `_3`, …
//! in order of appearance, so the same input always gives the same names.

use std::collections::HashSet;

use openapi2mcp_tools::naming::snake_case;

/// Reserved words of Rust 2024 (strict and reserved).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super", "_"];

/// Words of a name, split as tool names are (`openapi2mcp_tools::naming::snake_case`:
/// `petId` → `pet`, `id`; `X-Request-ID` → `x`, `request`, `id`).
fn words(name: &str) -> Vec<String> {
    snake_case(name)
        .split('_')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// `petId` → `pet_id`; empty or symbol-only names → `fallback`; a leading
/// digit gets `fallback_` in front.
pub fn snake(name: &str, fallback: &str) -> String {
    let joined = words(name).join("_");
    if joined.is_empty() {
        fallback.to_string()
    } else if joined.starts_with(|c: char| c.is_ascii_digit()) {
        format!("{fallback}_{joined}")
    } else {
        joined
    }
}

/// `list_pets` → `ListPets`; a leading digit gets `fallback` in front.
pub fn pascal(name: &str, fallback: &str) -> String {
    let joined: String = words(name)
        .iter()
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect();
    if joined.is_empty() {
        fallback.to_string()
    } else if joined.starts_with(|c: char| c.is_ascii_digit()) {
        format!("{fallback}{joined}")
    } else {
        joined
    }
}

/// Makes a keyword usable: `type` → `r#type`, `self` → `self_`.
pub fn escape_keyword(ident: String) -> String {
    if NOT_RAW.contains(&ident.as_str()) {
        format!("{ident}_")
    } else if KEYWORDS.contains(&ident.as_str()) {
        format!("r#{ident}")
    } else {
        ident
    }
}

/// Hands out identifiers unique within one scope (a struct's fields, a
/// module's items), suffixing `_2`, `_3`, … on collision.
#[derive(Debug, Default)]
pub struct Scope {
    taken: HashSet<String>,
}

impl Scope {
    /// A scope where `reserved` are already taken.
    pub fn with_reserved(reserved: &[&str]) -> Self {
        Self {
            taken: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// `base`, or `base_2`, `base_3`, … (`base2`, … when `separator` is
    /// empty) whichever is free first; keyword-escaped.
    pub fn claim(&mut self, base: &str, separator: &str) -> String {
        let mut n = 1;
        let mut ident = escape_keyword(base.to_string());
        while self.taken.contains(&ident) {
            n += 1;
            ident = escape_keyword(format!("{base}{separator}{n}"));
        }
        self.taken.insert(ident.clone());
        ident
    }
}

#[cfg(test)]
#[path = "names_tests.rs"]
mod tests;
