//! What a request asks for besides its words: the kind of method its
//! first words want (a read, or a change), whether it wants one item ("by
//! id", "one event") or every item ("all", "every"), and the verbs it may
//! use for a method's own. Read by [`super::ToolIndex::search`] to prefer
//! tools, never to filter them; nothing here names a particular API.

use super::{lexicon, split_words};

/// Verbs a request uses for what an operation's HTTP method does, beside
/// the one the index gives each method (see [`super::field_texts`]): an English
/// verb of reading, making, changing or removing maps to the method's
/// verb. The only hand-written vocabulary: it is about HTTP, not about any
/// API, and WordNet relates these verbs only loosely (`delete` is a kind
/// of `remove`, `show` is no kind of `get`).
pub(super) const METHOD_VERBS: &[(&str, &str)] = &[
    ("fetch", "get"),
    ("retrieve", "get"),
    ("show", "get"),
    ("view", "get"),
    ("display", "get"),
    ("read", "get"),
    ("see", "get"),
    ("lookup", "get"),
    ("enumerate", "list"),
    ("browse", "list"),
    ("add", "create"),
    ("new", "create"),
    ("make", "create"),
    ("open", "create"),
    ("open", "get"),
    ("register", "create"),
    ("submit", "create"),
    ("post", "create"),
    ("modify", "update"),
    ("change", "update"),
    ("edit", "update"),
    ("set", "update"),
    ("rename", "update"),
    ("remove", "delete"),
    ("erase", "delete"),
    ("destroy", "delete"),
    ("drop", "delete"),
    ("purge", "delete"),
];

/// Verbs of reading that are not the methods' own (see [`METHOD_VERBS`]
/// for those), and the words that open a question: a request opening so
/// asks for an operation that reads.
const READING: &[&str] = &[
    "find", "search", "query", "check", "download", "compare", "count", "preview", "inspect",
    "describe", "look", "who", "what", "which", "how", "when", "where", "why", "whose",
];

/// Words that follow an imperative verb rather than a noun (determiners,
/// pronouns, numbers, a phrasal verb's particle): "assign an issue",
/// "invite someone", "set up", "turn off". A request opening with another
/// verb followed by one of these asks to change something; "issue
/// comments" (a noun, then another) says nothing of the method.
const OBJECT_WORDS: &[&str] = &[
    "a", "an", "the", "my", "our", "your", "his", "her", "their", "its", "this", "that", "these",
    "those", "all", "any", "some", "every", "each", "another", "other", "one", "two", "three",
    "many", "several", "someone", "somebody", "me", "us", "him", "them", "it", "up", "off", "out",
    "down", "away", "back",
];

/// The kind of method a request's first words ask for: `Some(true)` for
/// an operation that reads (the request opens with a verb of reading or a
/// question: "list ...", "show ...", "who ...", "did I ..."), `Some(false)`
/// for one that changes something (another verb, then its object: "assign
/// an issue to a user", "mark all notifications as read"), `None` when the
/// words do not say (a single word, a noun phrase).
pub(super) fn intent(query: &str) -> Option<bool> {
    let words = split_words(query);
    let [first, second, ..] = words.as_slice() else {
        return None;
    };
    let base = lexicon::lexicon().base(first);
    // "Open" makes (an issue, a pull request) as often as it reads (a
    // notebook, a contact): it asks for neither.
    if AMBIGUOUS_VERBS.contains(&first.as_str()) {
        return None;
    }
    let reads = |w: &str| {
        matches!(w, "get" | "list")
            || READING.contains(&w)
            || QUESTION.contains(&w)
            || METHOD_VERBS
                .iter()
                .any(|(from, to)| *from == w && matches!(*to, "get" | "list"))
    };
    if reads(first) || reads(&base) {
        Some(true)
    } else if OBJECT_WORDS.contains(&second.as_str()) {
        Some(false)
    } else {
        None
    }
}

/// Keys a request names one item by ("by id", "by its object id", "with
/// the key").
const ITEM_KEYS: &[&str] = &["id", "key", "identifier", "uuid", "slug", "name", "number"];

/// Words that say one item ("one event", "a single message", "a specific
/// run").
const ONE: &[&str] = &["one", "single", "specific", "particular"];

/// Words between "by" and an item's key ("by its object id").
const KEY_FILLER: &[&str] = &[
    "its", "the", "this", "that", "their", "his", "her", "object", "an", "a",
];

/// Whether a request asks for one item: it names the item's key after
/// "by" or "with" ("get a user by id", "the run with this id") or says
/// one ("show me one event from my calendar"). With the request's words
/// less those that only say so ("by its object id", "one"), which name
/// no resource: `id` and `user` would otherwise rank a tool about user
/// ids (Graph's `doesUserHaveAccess(userId=…)`) above the user.
pub(super) fn asks_for_one(query: &str) -> (bool, String) {
    let words: Vec<String> = split_words(query)
        .into_iter()
        .map(|w| w.to_lowercase())
        .collect();
    let mut one = false;
    let mut kept: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        if matches!(w, "by" | "with") {
            let mut j = i + 1;
            while j < words.len() && KEY_FILLER.contains(&words[j].as_str()) {
                j += 1;
            }
            if j < words.len() && ITEM_KEYS.contains(&words[j].as_str()) {
                one = true;
                i = j + 1;
                continue;
            }
        }
        if ONE.contains(&w) {
            one = true;
        } else {
            kept.push(w);
        }
        i += 1;
    }
    (one, kept.join(" "))
}

/// Verbs of a request that ask to make something as often as to read
/// it ([`intent`]).
const AMBIGUOUS_VERBS: &[&str] = &["open"];

/// Words that say every item ("all the variables", "every run").
const MANY: &[&str] = &["all", "every"];

/// Whether a request asks for every item of something rather than one
/// (it says "all" or "every").
pub(super) fn asks_for_many(query: &str) -> bool {
    split_words(query)
        .iter()
        .any(|w| MANY.contains(&w.to_lowercase().as_str()))
}

/// Words that open a yes-or-no question ("did I star this repository",
/// "is this user a member"): APIs answer those with "check" operations.
pub(super) const QUESTION: &[&str] = &[
    "do", "does", "did", "is", "are", "am", "was", "were", "has", "have", "can",
];
