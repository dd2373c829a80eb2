//! Words of tool names: splitting identifiers into snake_case words,
//! singular and plural by rule, and the small vocabularies (verbs,
//! prepositions, filler) the naming rules read.

use std::borrow::Cow;

/// Whether `word` is one of [`VERBS`]: naming asks this of nearly every
/// word of every operation, and a scan of the list (each entry compared)
/// was a tenth of naming's time on Microsoft Graph.
pub(super) fn is_verb(word: &str) -> bool {
    static SET: std::sync::LazyLock<super::FastSet<&'static str>> =
        std::sync::LazyLock::new(|| VERBS.iter().copied().collect());
    SET.contains(word)
}

/// Verbs that may start an action (`repos/list-for-org`, `ListEvents`).
pub(super) const VERBS: &[&str] = &[
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
    "rerequest",
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
    "run",
    "trigger",
    "verify",
    "archive",
    "unarchive",
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
    "force",
    "suspend",
    "unsuspend",
    "attach",
    "detach",
    "assign",
    "unassign",
    "rename",
    "reprioritize",
    "publish",
    "unpublish",
    "unstack",
    "bulk",
    "scope",
    "map",
    "commit",
    "clear",
    "copy",
    "invite",
    "validate",
    "apply",
    "activate",
    "deactivate",
    "count",
    "refresh",
    "reply",
    "forward",
    "execute",
    "preview",
    "subscribe",
    "unsubscribe",
    "renew",
    "share",
    "reprocess",
    "wipe",
    "install",
    "uninstall",
    "register",
    "unregister",
    "deliver",
    "lookup",
    "pay",
    "finalize",
    "capture",
    "confirm",
    "void",
    "resume",
    "pause",
    "expire",
    "reverse",
    "refund",
    "reject",
    "release",
    "retrieve",
    "modify",
    "upsert",
];
/// Verbs that, leading a compound path segment, are rather part of a noun
/// (`test_clocks`, `exportJobs`, `openShifts`, `check-runs`).
pub(super) const NOUN_LEADERS: &[&str] = &[
    "test", "export", "import", "open", "review", "check", "request", "search", "run", "post",
];
/// Words that join a noun to what qualifies it (`list_repos_for_org`).
pub(super) const PREPOSITIONS: &[&str] = &[
    "for", "in", "by", "of", "from", "with", "on", "to", "at", "as", "and", "or", "if", "is",
];
/// Particles of phrasal verbs (`shut down`, `sign out`, `back up`).
pub(super) const PARTICLES: &[&str] = &["up", "down", "out", "off", "back"];
/// Words a name reads as well without.
pub(super) const FILLER: &[&str] = &["a", "an", "the"];
/// Words that come before a noun (`list_public_gists`, `get_authenticated_user`).
pub(super) const ADJECTIVES: &[&str] = &[
    "authenticated",
    "all",
    "public",
    "current",
    "default",
    "starred",
    "single",
];
/// Whether `word` is one of [`INVARIANT`] (a set, as [`is_verb`] is:
/// singular and plural are asked of every word of every name).
fn is_invariant(word: &str) -> bool {
    static SET: std::sync::LazyLock<super::FastSet<&'static str>> =
        std::sync::LazyLock::new(|| INVARIANT.iter().copied().collect());
    SET.contains(word)
}

/// Plurals not made by rule (`children`; not `people`, which APIs keep
/// beside `persons`).
const IRREGULAR: &[(&str, &str)] = &[("child", "children")];
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
    "usage",
    "information",
    "software",
    "hardware",
    "content",
    "analytics",
    "insights",
    "metrics",
];

/// Converts an arbitrary identifier to snake_case words: camelCase and
/// acronyms split (`getHTTPResponse` → `get_http_response`), anything not
/// alphanumeric becomes a separator, runs collapse.
pub fn snake_case(input: &str) -> String {
    // Bytes, not chars: only ASCII letters and digits are kept, and a
    // byte of a multi-byte character reads as a separator as its character
    // would (it is neither a letter, a digit nor upper-case ASCII).
    let bytes = input.as_bytes();
    let mut out = String::with_capacity(input.len() + 8);
    for (i, &c) in bytes.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && i > 0 {
                let prev = bytes[i - 1];
                let next_lower = bytes.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
                let boundary = prev.is_ascii_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_ascii_uppercase() && next_lower);
                if boundary && !out.ends_with('_') {
                    out.push('_');
                }
            }
            out.push(c.to_ascii_lowercase() as char);
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    out
}

/// The snake_case words of an identifier, with compound words made one
/// (`re-run` → `rerun`, `un-star` → `unstar`, `2T` → `2t`) and articles
/// dropped (`get-a-classroom` → `get`, `classroom`).
pub(super) fn clean_words(input: &str) -> Vec<String> {
    let snake = snake_case(input);
    let raw: Vec<&str> = snake.split('_').filter(|w| !w.is_empty()).collect();
    let mut out: Vec<String> = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let w = raw[i];
        if matches!(w, "re" | "un")
            && let Some(next) = raw.get(i + 1)
            && next.bytes().all(|c| c.is_ascii_alphabetic())
        {
            out.push(format!("{w}{next}"));
            i += 2;
            continue;
        }
        // A number and the one letter after it are one token (`2T` → `2t`).
        if w.bytes().all(|c| c.is_ascii_digit())
            && let Some(next) = raw.get(i + 1)
            && next.len() == 1
            && next.bytes().all(|c| c.is_ascii_alphabetic())
        {
            out.push(format!("{w}{next}"));
            i += 2;
            continue;
        }
        if !(FILLER.contains(&w) && raw.len() > 1) {
            out.push(w.to_string());
        }
        i += 1;
    }
    out
}

/// The singular of an English noun, by rule (good enough for API paths:
/// `policies` → `policy`, `caches` → `cache`, `addresses` → `address`,
/// `data`/`status` unchanged).
pub fn singular(word: &str) -> String {
    singular_of(word).into_owned()
}

/// [`singular`] without a copy when the word is already singular: the
/// form the comparisons of names use, thousands of times per document.
pub(super) fn singular_of(word: &str) -> Cow<'_, str> {
    let w = word;
    if w.len() <= 3 {
        return Cow::Borrowed(w);
    }
    if let Some((one, _)) = IRREGULAR.iter().find(|(_, many)| *many == w) {
        return Cow::Borrowed(one);
    }
    // Every rule below removes an `s`.
    if !w.ends_with('s') || is_invariant(w) {
        return Cow::Borrowed(w);
    }
    let strip = |n: usize| Cow::Borrowed(&w[..w.len() - n]);
    if let Some(stem) = w.strip_suffix("ies") {
        if matches!(
            w,
            "movies" | "cookies" | "series" | "species" | "zombies" | "ties"
        ) {
            return strip(1);
        }
        return Cow::Owned(format!("{stem}y"));
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
    if let Some(stem) = w.strip_suffix("uses")
        && w.len() > 5
    {
        // statuses → status; a vowel before the `u` ends a word in
        // `-use`: houses → house, causes → cause.
        return if stem.ends_with(['a', 'e', 'o']) {
            strip(1)
        } else {
            strip(2)
        };
    }
    if w.ends_with("ss") || w.ends_with("us") || w.ends_with("is") {
        return Cow::Borrowed(w);
    }
    strip(1)
}

/// The plural of an English noun, by rule (`policy` → `policies`,
/// `branch` → `branches`, `status` → `statuses`; plurals and invariant
/// words unchanged).
pub fn plural(word: &str) -> String {
    let w = word;
    if is_invariant(w) || is_plural(w) || !w.chars().all(|c| c.is_ascii_lowercase()) {
        return w.to_string();
    }
    if let Some((_, many)) = IRREGULAR.iter().find(|(one, _)| *one == w) {
        return many.to_string();
    }
    if let Some(stem) = w.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        return format!("{stem}ies");
    }
    if w.ends_with('s')
        || w.ends_with('x')
        || w.ends_with('z')
        || w.ends_with("ch")
        || w.ends_with("sh")
    {
        return format!("{w}es");
    }
    format!("{w}s")
}

/// Whether `word` reads as a plural noun.
pub(super) fn is_plural(word: &str) -> bool {
    singular_of(word) != word
}

/// Whether `words` says a content word twice (`list_site_lists`,
/// `get_account_bank_account`): prepositions and articles may repeat,
/// singular and plural are the same word.
pub fn repeats_word<S: AsRef<str>>(words: &[S]) -> bool {
    let content: Vec<Cow<'_, str>> = words
        .iter()
        .map(AsRef::as_ref)
        .filter(|w| !is_function_word(w))
        .map(singular_of)
        .collect();
    content
        .iter()
        .enumerate()
        .any(|(i, w)| content[..i].contains(w))
}

/// Whether two words are one word, singular or plural (`repo`/`repos`;
/// unlike [`same_word`], `repo`/`repository` are two words).
fn same_noun(a: &str, b: &str) -> bool {
    a == b || singular_of(a) == singular_of(b)
}

/// Prepositions, conjunctions and articles: the words a name may repeat.
pub(super) fn is_function_word(w: &str) -> bool {
    PREPOSITIONS.contains(&w) || FILLER.contains(&w)
}

/// `words` with each content word said once. A repeat inside the phrase
/// goes (`device_configuration_device_state` → `device_configuration_state`),
/// or with `earlier` the word it repeats (`configuration_device_state`);
/// when the repeat is the last word, the head noun, the earlier one goes
/// anyway (`simulation_user_simulation` → `user_simulation`). The verb
/// always stays; `non` joins a word said twice (`non_compliance` beside
/// `compliance` → `noncompliance`). A `list`
/// verb whose noun is itself a list becomes `get`
/// (`list_radar_value_lists` → `get_radar_value_lists`: the plural still
/// says it returns many). Prepositions left dangling go too.
pub(super) fn unrepeat(words: &[String], earlier: bool) -> Vec<String> {
    // `non_compliance` beside `compliance` is one word, `noncompliance`.
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut k = 0;
    while k < words.len() {
        if words[k] == "non"
            && let Some(next) = words.get(k + 1)
            && words.iter().filter(|w| same_noun(w, next)).count() > 1
        {
            out.push(format!("non{next}"));
            k += 2;
        } else {
            out.push(words[k].clone());
            k += 1;
        }
    }
    if out.first().is_some_and(|v| v == "list") && out[1..].iter().any(|w| same_noun(w, "list")) {
        out[0] = "get".to_string();
    }
    let mut i = 1;
    while i < out.len() {
        let w = &out[i];
        let said = if is_function_word(w) {
            None
        } else {
            out[..i]
                .iter()
                .position(|p| !is_function_word(p) && same_noun(p, w))
        };
        match said {
            Some(e) if (earlier || i + 1 == out.len()) && e > 0 => {
                out.remove(e);
                i -= 1;
            }
            Some(_) => {
                out.remove(i);
            }
            None => i += 1,
        }
    }
    // Prepositions with nothing after them, or two in a row.
    let mut j = 1;
    while j < out.len() {
        let dangling = PREPOSITIONS.contains(&out[j].as_str())
            && out
                .get(j + 1)
                .is_none_or(|n| PREPOSITIONS.contains(&n.as_str()));
        if dangling {
            out.remove(j);
        } else {
            j += 1;
        }
    }
    out
}

/// The leading verb phrase of `words` (`create`, `or`, `update`) and what
/// follows it. The first word may be any English verb used mostly as one
/// (`instantiateProject`); later ones only the API verbs of [`VERBS`].
pub(super) fn split_verb(words: &[String]) -> (Vec<String>, Vec<String>) {
    split_verb_if(words, super::english::lexical_verb)
}

/// [`split_verb`], with `first` saying which words beyond [`VERBS`] may
/// lead.
pub(super) fn split_verb_if(
    words: &[String],
    first: impl Fn(&str) -> bool,
) -> (Vec<String>, Vec<String>) {
    let verb_at = |i: usize| {
        words
            .get(i)
            .is_some_and(|w| is_verb(w) || (i == 0 && first(w)))
    };
    if !verb_at(0) {
        return (Vec::new(), words.to_vec());
    }
    let mut n = 1;
    if words[0] == "bulk" && verb_at(1) {
        n = 2;
    }
    while words
        .get(n)
        .is_some_and(|w| matches!(w.as_str(), "or" | "and"))
        && verb_at(n + 1)
    {
        n += 2;
    }
    // A phrasal verb's particle is part of it (`shutDown`, `signOut`).
    if words
        .get(n)
        .is_some_and(|w| PARTICLES.contains(&w.as_str()))
    {
        n += 1;
    }
    (words[..n].to_vec(), words[n..].to_vec())
}

/// Short forms APIs use interchangeably with the long ones.
const SYNONYMS: &[(&str, &str)] = &[("org", "organization"), ("repo", "repository")];

/// Whether two words name the same thing (`repo`/`repos`/`repository`).
pub(super) fn same_word(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (a, b) = (singular_of(a), singular_of(b));
    let (a, b) = (a.as_ref(), b.as_ref());
    a == b
        || SYNONYMS
            .iter()
            .any(|&(s, l)| (a == s && b == l) || (a == l && b == s))
}

#[cfg(test)]
#[path = "words_tests.rs"]
mod tests;
