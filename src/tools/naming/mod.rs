//! Tool names: `verb_noun` snake_case, `[a-z0-9_]`, at most 64 characters,
//! unique within the server and stable (the same document always yields the
//! same names).
//!
//! The rule, in order:
//! 1. `x-mcp.name` on the operation, sanitized.
//! 2. A meaningful `operationId`, snake-cased: `getPetById` → `get_pet_by_id`.
//!    A namespaced id `ns/action` (GitHub's style) reads verb first:
//!    `repos/get` → `get_repo`, `repos/list-for-org` → `list_repos_for_org`,
//!    `issues/create-comment` → `create_issue_comment`. The namespace is
//!    singular, except after `list`/`search` when nothing or a preposition
//!    follows. An id is not meaningful when it has no letters, contains `{`,
//!    or is a generic `operation1`/`op_2`.
//! 3. Otherwise method + path: `GET /pets` → `list_pets`, `GET /pets/{id}`
//!    → `get_pet`, `POST /pets` → `create_pet`, `PUT …` → `replace_…`,
//!    `PATCH …` → `update_…`, `DELETE …` → `delete_…`; static segments give
//!    the noun, each segment followed by a parameter singular
//!    (`GET /users/{id}/pets` → `list_user_pets`); version and `api` prefixes
//!    are skipped.
//!
//! Names over 64 characters keep their first words and end in an 8-digit
//! hash of the full name. Duplicates get `_2`, `_3`, … in document order.

use std::collections::HashSet;

/// Longest tool name MCP clients accept reliably.
pub const MAX_LEN: usize = 64;

/// Verbs that may start a namespaced action (`ns/verb-rest`).
const VERBS: &[&str] = &[
    "get",
    "list",
    "create",
    "update",
    "delete",
    "remove",
    "add",
    "set",
    "replace",
    "check",
    "search",
    "find",
    "upload",
    "download",
    "cancel",
    "approve",
    "enable",
    "disable",
    "rerun",
    "retry",
    "review",
    "request",
    "merge",
    "lock",
    "unlock",
    "start",
    "stop",
    "sync",
    "render",
    "revoke",
    "move",
    "transfer",
    "test",
    "ping",
    "mark",
    "block",
    "unblock",
    "follow",
    "unfollow",
    "star",
    "unstar",
    "accept",
    "decline",
    "dismiss",
    "redeliver",
    "export",
    "import",
    "generate",
    "compare",
    "re",
    "run",
    "trigger",
    "verify",
    "archive",
    "restore",
    "reset",
    "submit",
    "close",
    "open",
    "pin",
    "unpin",
    "fork",
    "edit",
    "post",
    "put",
    "patch",
    "fetch",
    "send",
    "convert",
    "hide",
    "unhide",
    "re-run",
    "force",
];
const PREPOSITIONS: &[&str] = &["for", "in", "by", "of", "from", "with", "on", "to", "at"];
/// Words that are the same in singular and plural, or plural-only.
const INVARIANT: &[&str] = &[
    "data",
    "metadata",
    "status",
    "news",
    "series",
    "species",
    "info",
    "media",
    "analysis",
    "access",
    "address",
    "process",
    "settings",
    "stats",
    "statistics",
    "details",
    "credentials",
    "permissions",
    "preferences",
    "contents",
    "alias",
    "canvas",
    "bus",
    "gas",
    "chaos",
    "billing",
    "traffic",
    "feedback",
    "ids",
    "dns",
    "https",
    "sms",
];

/// Converts an arbitrary identifier to snake_case words: camelCase and
/// acronyms split (`getHTTPResponse` → `get_http_response`), anything not
/// alphanumeric becomes a separator, runs collapse.
pub fn snake_case(input: &str) -> String {
    let chars: Vec<char> = input.chars().collect();
    let mut out = String::with_capacity(input.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && i > 0 {
                let prev = chars[i - 1];
                let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
                let boundary = prev.is_ascii_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_ascii_uppercase() && next_lower);
                if boundary && !out.ends_with('_') {
                    out.push('_');
                }
            }
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    out
}

/// The singular of an English noun, by rule (good enough for API paths:
/// `policies` → `policy`, `caches` → `cache`, `addresses` → `address`,
/// `data`/`status` unchanged).
pub fn singular(word: &str) -> String {
    let w = word;
    if w.len() <= 3 || INVARIANT.contains(&w) {
        return w.to_string();
    }
    let strip = |n: usize| w[..w.len() - n].to_string();
    if let Some(stem) = w.strip_suffix("ies") {
        if matches!(
            w,
            "movies" | "cookies" | "series" | "species" | "zombies" | "ties"
        ) {
            return strip(1);
        }
        return format!("{stem}y");
    }
    if w.ends_with("sses") || w.ends_with("xes") || w.ends_with("zzes") || w.ends_with("shes") {
        return strip(2);
    }
    if w.ends_with("ches") {
        return if w.ends_with("aches") {
            strip(1)
        } else {
            strip(2)
        };
    }
    if w.ends_with("uses") && w.len() > 5 {
        return strip(2); // statuses → status
    }
    if w.ends_with("ss") || w.ends_with("us") || w.ends_with("is") || !w.ends_with('s') {
        return w.to_string();
    }
    strip(1)
}

fn is_plural(word: &str) -> bool {
    singular(word) != word
}

/// Whether an operationId says something a method + path would not.
pub fn meaningful_operation_id(id: &str) -> bool {
    let snake = snake_case(id);
    if snake.is_empty() || id.contains('{') || !snake.chars().any(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    let generic = snake.trim_end_matches(|c: char| c.is_ascii_digit() || c == '_');
    !matches!(
        generic,
        "op" | "operation" | "operation_id" | "endpoint" | "id"
    )
}

/// Name from an operationId (see the module docs for the rule).
pub fn from_operation_id(id: &str) -> String {
    if let Some((ns, action)) = id.split_once('/')
        && !action.contains('/')
    {
        let action_words = snake_case(action);
        let ns_words = snake_case(ns);
        let mut parts = action_words.splitn(2, '_');
        let verb = parts.next().unwrap_or_default();
        let rest = parts.next().unwrap_or_default();
        if VERBS.contains(&verb) && !ns_words.is_empty() {
            let first_rest = rest.split('_').next().unwrap_or_default();
            let keep_plural = matches!(verb, "list" | "search")
                && (rest.is_empty() || PREPOSITIONS.contains(&first_rest));
            let noun = if keep_plural {
                ns_words
            } else {
                singular_last(&ns_words)
            };
            return join(&[verb, &noun, rest]);
        }
        return join(&[&ns_words, &action_words]);
    }
    snake_case(id)
}

fn singular_last(words: &str) -> String {
    match words.rsplit_once('_') {
        Some((head, last)) => format!("{head}_{}", singular(last)),
        None => singular(words),
    }
}

fn join(parts: &[&str]) -> String {
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("_")
}

/// Name from the HTTP method and path template.
pub fn from_method_path(method: &str, path: &str) -> String {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let mut nouns: Vec<String> = Vec::new();
    let mut ends_with_param = false;
    for seg in &segments {
        if is_param(seg) {
            ends_with_param = true;
            if let Some(last) = nouns.last_mut() {
                *last = singular_last(last);
            }
            continue;
        }
        ends_with_param = false;
        let words = snake_case(seg);
        if words.is_empty() || (nouns.is_empty() && is_prefix_segment(&words)) {
            continue;
        }
        nouns.push(words);
    }
    let last_plural = nouns
        .last()
        .and_then(|n| n.rsplit('_').next())
        .is_some_and(is_plural);
    let verb = match method.to_ascii_uppercase().as_str() {
        "GET" if !ends_with_param && last_plural => "list",
        "GET" => "get",
        "POST" => "create",
        "PUT" => "replace",
        "PATCH" => "update",
        "DELETE" => "delete",
        other => return join(&[&other.to_ascii_lowercase(), &noun_or_root(&nouns)]),
    };
    let mut noun = noun_or_root(&nouns);
    if verb == "create" && !ends_with_param && last_plural {
        // POST /pets creates one pet.
        noun = singular_last(&noun);
    }
    join(&[verb, &noun])
}

fn noun_or_root(nouns: &[String]) -> String {
    if nouns.is_empty() {
        "root".to_string()
    } else {
        nouns.join("_")
    }
}

fn is_param(segment: &str) -> bool {
    segment.starts_with('{') && segment.ends_with('}')
}

/// `api`, `rest`, `v1`, `v2beta` … carry no meaning in a tool name.
fn is_prefix_segment(words: &str) -> bool {
    words == "api"
        || words == "rest"
        || (words.starts_with('v')
            && words[1..].starts_with(|c: char| c.is_ascii_digit())
            && words.len() <= 8)
}

/// Makes any string a valid tool name: `[a-z0-9_]`, not empty, at most
/// [`MAX_LEN`] characters (long names end in a stable hash).
pub fn sanitize(name: &str) -> String {
    let mut s = snake_case(name);
    if s.is_empty() {
        s = "tool".to_string();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert_str(0, "op_");
    }
    shorten(&s)
}

fn shorten(name: &str) -> String {
    if name.len() <= MAX_LEN {
        return name.to_string();
    }
    let hash = format!("{:08x}", fnv1a(name) as u32);
    let budget = MAX_LEN - hash.len() - 1;
    let mut head = &name[..budget];
    if let Some(cut) = head.rfind('_').filter(|&c| c > budget / 2) {
        head = &head[..cut];
    }
    format!("{head}_{hash}")
}

/// FNV-1a: tiny, stable across platforms and releases (unlike `DefaultHasher`).
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Hands out unique names in a stable order.
#[derive(Debug, Default)]
pub struct NameRegistry {
    taken: HashSet<String>,
}

impl NameRegistry {
    /// Marks `name` (already valid) as used without claiming it twice.
    pub fn reserve(&mut self, name: &str) -> bool {
        self.taken.insert(name.to_string())
    }

    /// Returns `name`, or `name_2`, `name_3` … whichever is free first,
    /// staying within [`MAX_LEN`].
    pub fn claim(&mut self, name: &str) -> String {
        if self.taken.insert(name.to_string()) {
            return name.to_string();
        }
        for n in 2.. {
            let suffix = format!("_{n}");
            let mut base = name.to_string();
            base.truncate(MAX_LEN - suffix.len());
            let candidate = format!("{}{suffix}", base.trim_end_matches('_'));
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
        }
        unreachable!("an unbounded counter always finds a free name")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_splits_camel_and_acronyms() {
        assert_eq!(snake_case("getPetById"), "get_pet_by_id");
        assert_eq!(snake_case("getHTTPResponse"), "get_http_response");
        assert_eq!(snake_case("list-for-org"), "list_for_org");
        assert_eq!(snake_case("  Weird//Name!!2fa "), "weird_name_2fa");
        assert_eq!(snake_case("OAuth2Token"), "o_auth2_token");
    }

    #[test]
    fn singularisation_handles_the_usual_traps() {
        for (p, s) in [
            ("pets", "pet"),
            ("caches", "cache"),
            ("branches", "branch"),
            ("policies", "policy"),
            ("addresses", "address"),
            ("statuses", "status"),
            ("status", "status"),
            ("data", "data"),
            ("boxes", "box"),
            ("cookies", "cookie"),
            ("analysis", "analysis"),
            ("repos", "repo"),
            ("gists", "gist"),
            ("releases", "release"),
        ] {
            assert_eq!(singular(p), s, "{p}");
        }
    }

    #[test]
    fn names_from_operation_ids() {
        assert_eq!(from_operation_id("getPetById"), "get_pet_by_id");
        assert_eq!(from_operation_id("repos/get"), "get_repo");
        assert_eq!(
            from_operation_id("repos/list-for-org"),
            "list_repos_for_org"
        );
        assert_eq!(from_operation_id("users/list"), "list_users");
        assert_eq!(
            from_operation_id("issues/create-comment"),
            "create_issue_comment"
        );
        assert_eq!(
            from_operation_id("actions/list-jobs-for-workflow-run"),
            "list_action_jobs_for_workflow_run"
        );
        assert_eq!(from_operation_id("meta/root"), "meta_root");
        assert_eq!(from_operation_id("a/b/c"), "a_b_c");
    }

    #[test]
    fn meaningless_operation_ids_are_recognised() {
        for id in ["op1", "operation_2", "123", "get_/pets/{id}", "", "___"] {
            assert!(!meaningful_operation_id(id), "{id}");
        }
        assert!(meaningful_operation_id("findPetsByStatus"));
    }

    #[test]
    fn names_from_method_and_path() {
        assert_eq!(from_method_path("get", "/pets"), "list_pets");
        assert_eq!(from_method_path("get", "/pets/{id}"), "get_pet");
        assert_eq!(from_method_path("post", "/pets"), "create_pet");
        assert_eq!(from_method_path("put", "/pets/{id}"), "replace_pet");
        assert_eq!(from_method_path("patch", "/pets/{id}"), "update_pet");
        assert_eq!(from_method_path("delete", "/pets/{id}"), "delete_pet");
        assert_eq!(
            from_method_path("get", "/users/{id}/pets"),
            "list_user_pets"
        );
        assert_eq!(from_method_path("get", "/api/v2/status"), "get_status");
        assert_eq!(from_method_path("get", "/"), "get_root");
        assert_eq!(from_method_path("head", "/pets/{id}"), "head_pet");
        assert_eq!(from_method_path("get", "/caches"), "list_caches");
        assert_eq!(from_method_path("get", "/data"), "get_data");
    }

    #[test]
    fn sanitize_bounds_length_and_charset_stably() {
        let long = "a_very_long_operation_identifier_that_keeps_going_and_going_past_the_limit";
        let s = sanitize(long);
        assert!(s.len() <= MAX_LEN, "{s}");
        assert_eq!(s, sanitize(long));
        assert!(s.starts_with("a_very_long_operation"));
        assert_ne!(s, sanitize(&format!("{long}_x")));
        assert_eq!(sanitize("Repos/Get Thing"), "repos_get_thing");
        assert_eq!(sanitize("2fa"), "op_2fa");
        assert_eq!(sanitize("日本"), "tool");
    }

    #[test]
    fn registry_deduplicates_in_order() {
        let mut r = NameRegistry::default();
        assert_eq!(r.claim("get_pet"), "get_pet");
        assert_eq!(r.claim("get_pet"), "get_pet_2");
        assert_eq!(r.claim("get_pet"), "get_pet_3");
        let long = "x".repeat(64);
        assert_eq!(r.claim(&long), long);
        let second = r.claim(&long);
        assert_eq!(second.len(), 64);
        assert!(second.ends_with("_2"));
    }
}
