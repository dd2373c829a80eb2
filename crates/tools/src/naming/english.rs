//! The English a summary is written in: which words are verbs (WordNet 3.1,
//! `verbs.txt`, see `scripts/naming-verbs.sh`), the closed word classes
//! (determiners, prepositions, conjunctions) that show where a verb's
//! object starts and ends, and the verbs an HTTP method already says.

use std::sync::OnceLock;

use super::FastMap;
use super::words::is_verb;

/// How often WordNet's tagged corpus (SemCor) uses a word as a verb and as
/// a noun (`None` when WordNet has no such noun).
#[derive(Debug, Clone, Copy)]
pub(super) struct Usage {
    pub verb: u32,
    pub noun: Option<u32>,
}

/// The WordNet verb list, one `verb verb_count noun_count|-` a line.
const VERB_LIST: &str = include_str!("verbs.txt");

fn lexicon() -> &'static FastMap<&'static str, Usage> {
    static LEXICON: OnceLock<FastMap<&'static str, Usage>> = OnceLock::new();
    LEXICON.get_or_init(|| {
        VERB_LIST
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let mut f = l.split(' ');
                let word = f.next()?;
                let verb = f.next()?.parse().ok()?;
                let noun = f.next()?.parse().ok();
                Some((word, Usage { verb, noun }))
            })
            .collect()
    })
}

/// The verb `word` is a form of (`returns` → `return`, `searches` →
/// `search`, `retrieves` → `retrieve`, `lists` → `list`), with its usage;
/// `None` when it is not a verb. API verbs WordNet lacks (`unstar`,
/// `rerun`; see [`VERBS`]) count as verbs used as nothing else.
pub(super) fn verb_form(word: &str) -> Option<(String, Usage)> {
    let word = word.to_ascii_lowercase();
    let known = |w: &str| {
        lexicon().get(w).copied().or_else(|| {
            is_verb(w).then_some(Usage {
                verb: 1,
                noun: None,
            })
        })
    };
    if let Some(u) = known(&word) {
        return Some((word, u));
    }
    // Third person singular: -ies, -s, -es (`routes` is `route`, not `rout`).
    for (suffix, replace) in [("ies", "y"), ("s", ""), ("es", "")] {
        if let Some(stem) = word.strip_suffix(suffix)
            && stem.len() >= 2
        {
            let base = format!("{stem}{replace}");
            if let Some(u) = known(&base) {
                return Some((base, u));
            }
        }
    }
    // `un-` and `re-` make verbs of verbs (`unmap`, `unpause`, `reroute`),
    // used as the verb they are made from is.
    for prefix in ["un", "re"] {
        if let Some(rest) = word.strip_prefix(prefix)
            && rest.len() >= 3
            && let Some((base, usage)) = verb_form(rest)
        {
            return Some((format!("{prefix}{base}"), usage));
        }
    }
    None
}

/// Whether the usage says verb far more than noun: never a noun, or used
/// as a verb more than twice as often (`restart`, `interrupt`, `run`; not
/// `order`, `file` or `report`). Path segments, which have no grammar
/// around them, need this much.
pub(super) fn mostly_verb(u: Usage) -> bool {
    match u.noun {
        None => true,
        Some(n) => u.verb > 2 * n,
    }
}

/// Whether `word`, as written, is an English verb used mostly as one
/// (`complete`, `instantiate`, `translate`; not `order` or `returns`):
/// what an id or a path segment starting with it does.
pub(super) fn lexical_verb(word: &str) -> bool {
    verb_form(word).is_some_and(|(base, usage)| base == word && mostly_verb(usage))
}

/// Whether `word`, as written, is an English verb used more often than as
/// a noun (`watch`, `describe`, `tag`; not `order` or `image`): how a
/// camelCase id's first word reads (`watchNamespacedPod`), the convention
/// being verb first.
pub(super) fn verb_first(word: &str) -> bool {
    verb_form(word).is_some_and(|(base, u)| base == word && rather_verb(u))
}

/// Whether `word` is a phrasal verb written as one word, a verb and its
/// particle (`login`, `logout`, `signup`, `setup`, `backup`): ids name
/// actions so.
pub(super) fn phrasal_compound(word: &str) -> bool {
    ["in", "out", "up", "down", "off", "over"].iter().any(|p| {
        word.strip_suffix(p)
            .is_some_and(|stem| stem.len() >= 2 && verb_form(stem).is_some_and(|(b, _)| b == stem))
    })
}

/// Whether the usage says verb more than noun.
pub(super) fn rather_verb(u: Usage) -> bool {
    match u.noun {
        None => true,
        Some(n) => u.verb > n,
    }
}

/// Determiners and the adjectives summaries use like them (`the specified
/// user`): a closed class that starts a noun phrase, so a word before one
/// is a verb ("Interrupt a kernel"), and none of them names anything.
pub(super) const DETERMINERS: &[&str] = &[
    "a",
    "an",
    "the",
    "this",
    "that",
    "these",
    "those",
    "my",
    "your",
    "his",
    "her",
    "its",
    "our",
    "their",
    "all",
    "any",
    "each",
    "every",
    "some",
    "one",
    "many",
    "several",
    "both",
    "either",
    "another",
    "other",
    "multiple",
    "two",
    "three",
    "four",
    "five",
    "specified",
    "specific",
    "given",
    "particular",
    "certain",
    "existing",
    "new",
    "single",
    "selected",
    "provided",
    "requested",
];

/// Prepositions and subordinators: where a verb's object ends ("Restore a
/// file *to* a checkpointed state", "Start a kernel *and* return …").
pub(super) const OBJECT_ENDS: &[&str] = &[
    "for", "in", "by", "of", "from", "with", "on", "to", "at", "as", "into", "onto", "within",
    "without", "via", "using", "under", "over", "through", "across", "between", "per", "about",
    "after", "before", "since", "until", "against", "during", "that", "which", "who", "whose",
    "where", "when", "while", "if", "whether", "so", "but", "than", "is", "are", "was", "be",
    "will", "can", "may", "must", "should", "based",
];

/// Verbs that name the act of calling rather than what the call does
/// ("Invoke action delta", "Implements … DELETE method", "Handle GET
/// request for …"): a summary led by one says nothing a name can use.
pub(super) const META_VERBS: &[&str] = &["invoke", "call", "implement", "handle", "manage"];

/// Verbs whose action is the verb after their `to` ("Use this method to
/// forward messages", "Allows sellers to update prices", "Attempts to
/// retrieve …").
pub(super) const CATENATIVES: &[&str] = &["use", "allow", "let", "attempt", "try", "help"];

/// What an HTTP method already says: the verbs a summary uses for the
/// method's own meaning, by the name's verb for it.
pub(super) const METHOD_SYNONYMS: &[(&str, &[&str])] = &[
    (
        "get",
        &[
            "get",
            "retrieve",
            "fetch",
            "return",
            "read",
            "show",
            "view",
            "obtain",
            "display",
            "list",
            "load",
            "see",
            "give",
            "provide",
            "lookup",
            "query",
            "find",
            "enumerate",
        ],
    ),
    (
        "create",
        &["create", "add", "insert", "make", "post", "new"],
    ),
    (
        "update",
        &[
            "update", "modify", "change", "edit", "patch", "alter", "amend",
        ],
    ),
    (
        "replace",
        &[
            "replace",
            "put",
            "overwrite",
            "save",
            "store",
            "upsert",
            "set",
        ],
    ),
    (
        "delete",
        &["delete", "remove", "destroy", "erase", "drop", "purge"],
    ),
];

/// The method verb (`get`, `create`, `update`, `replace`, `delete`) a verb
/// means, if it only says what a method does.
pub(super) fn method_meaning(verb: &str) -> Option<&'static str> {
    METHOD_SYNONYMS
        .iter()
        .find(|(_, synonyms)| synonyms.contains(&verb))
        .map(|(canonical, _)| *canonical)
}

/// HTTP method names used as verbs in operationIds (`TimesheetSubmission_Post`,
/// `getExperimentUsingGET`): they say the method, not the action.
pub(super) const HTTP_METHODS: &[&str] =
    &["get", "post", "put", "patch", "delete", "head", "options"];

#[cfg(test)]
#[path = "english_tests.rs"]
mod tests;
