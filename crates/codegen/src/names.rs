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
mod tests {
    use super::*;

    #[test]
    fn snake_case_from_any_spelling() {
        assert_eq!(snake("petId", "arg"), "pet_id");
        assert_eq!(snake("X-Request-ID", "arg"), "x_request_id");
        assert_eq!(snake("HTTPServer", "arg"), "http_server");
        assert_eq!(snake("query_id", "arg"), "query_id");
        assert_eq!(snake("$$", "arg"), "arg");
        assert_eq!(snake("2fa", "arg"), "arg_2fa");
        assert_eq!(snake("filter[name]", "arg"), "filter_name");
    }

    #[test]
    fn pascal_case_type_names() {
        assert_eq!(pascal("list_pets", "T"), "ListPets");
        assert_eq!(pascal("get_2fa", "T"), "Get2fa");
        assert_eq!(pascal("3d_models", "Op"), "Op3dModels");
    }

    #[test]
    fn keywords_are_escaped() {
        assert_eq!(escape_keyword("type".into()), "r#type");
        assert_eq!(escape_keyword("self".into()), "self_");
        assert_eq!(escape_keyword("Self".into()), "Self_");
        assert_eq!(escape_keyword("pets".into()), "pets");
    }

    #[test]
    fn collisions_get_stable_suffixes() {
        let mut scope = Scope::default();
        assert_eq!(scope.claim("id", "_"), "id");
        assert_eq!(scope.claim("id", "_"), "id_2");
        assert_eq!(scope.claim("id", "_"), "id_3");
        assert_eq!(scope.claim("self", "_"), "self_");
        // `self_` is now taken, so a literal `self_` must move on.
        assert_eq!(scope.claim("self_", "_"), "self__2");
        let mut types = Scope::with_reserved(&["Call"]);
        assert_eq!(types.claim("Call", ""), "Call2");
    }
}
