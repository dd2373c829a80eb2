//! What a summary says an operation does: its leading verb and the verb's
//! object, read by the grammar of summaries: an imperative or third-person
//! verb first ("Rename a file or directory", "Returns a list of users",
//! "Gets the kernel"), then a noun phrase up to a preposition, a clause or
//! punctuation. A summary that is a noun phrase ("Kernel specs", "Order
//! details", "Teams by season") has no verb.

use super::english::{
    CATENATIVES, DETERMINERS, META_VERBS, OBJECT_ENDS, Usage, rather_verb, verb_form,
};
use super::words::{FILLER, PARTICLES, clean_words, is_verb, same_word};

/// A summary's verb and object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Action {
    /// The verb phrase in base forms: `rename`; `enable`, `or`, `disable`.
    pub verb: Vec<String>,
    /// The object's words, articles and determiners dropped (`file`, `or`,
    /// `directory`); may be empty.
    pub object: Vec<String>,
    /// Whether the summary says many (`a list of`, `all`).
    pub many: bool,
    /// Every content word of the sentence, to compare with the path.
    pub words: Vec<String>,
}

/// Words that may stand before a determiner and are no verb: adverbs,
/// conjunctions, pronouns and question words ("If a resource is found …",
/// "Once the …", "Only the …").
const NOT_VERBS: &[&str] = &[
    "and", "or", "not", "no", "only", "also", "just", "then", "once", "now", "here", "there",
    "please", "how", "what", "why", "unless", "because", "although", "though", "whereas", "note",
];

/// The most content words an object keeps: a longer phrase is a clause,
/// not a name.
const MAX_OBJECT_WORDS: usize = 4;

/// Nouns that only say "several of": `a list of users` is `users`.
const COLLECTIONS: &[&str] = &["list", "collection", "array", "set", "page", "number"];

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    /// `/` between words: "Update/create", "status/activity".
    Slash,
    /// Any other punctuation: the phrase ends.
    Stop,
}

/// The first sentence of `text` as words and punctuation.
fn tokens(text: &str) -> Vec<Token> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let mut out = Vec::new();
    let mut word = String::new();
    let chars: Vec<char> = line.chars().collect();
    let flush = |word: &mut String, out: &mut Vec<Token>| {
        if !word.is_empty() {
            // A possessive says whose, not what: `server's` → `server`.
            let w = word
                .strip_suffix("'s")
                .or_else(|| word.strip_suffix('\''))
                .unwrap_or(word);
            out.push(Token::Word(w.to_string()));
            word.clear();
        }
    };
    for (i, &c) in chars.iter().enumerate() {
        let joins = |c: char| {
            (c == '\'' || c == '-')
                && i > 0
                && chars[i - 1].is_alphanumeric()
                && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric())
        };
        if c.is_alphanumeric() || c == '_' || joins(c) {
            word.push(c);
        } else if c.is_whitespace() {
            flush(&mut word, &mut out);
        } else {
            flush(&mut word, &mut out);
            // A sentence ends at `.` followed by a space or the end.
            let end = c == '.' && chars.get(i + 1).is_none_or(|n| n.is_whitespace());
            out.push(if c == '/' { Token::Slash } else { Token::Stop });
            if end {
                break;
            }
        }
    }
    flush(&mut word, &mut out);
    out
}

fn word(t: Option<&Token>) -> Option<&str> {
    match t {
        Some(Token::Word(w)) => Some(w.as_str()),
        _ => None,
    }
}

fn lower(w: &str) -> String {
    w.to_ascii_lowercase()
}

/// Whether `base` (used as `usage`) reads as the summary's verb, given the
/// word after it and the nouns of the operation's path (a word the path
/// uses as a noun, like `order` in `GET /orders/{id}` "Order details", is
/// that noun).
fn reads_as_verb(base: &str, usage: Usage, path_nouns: &[String]) -> bool {
    if is_verb(base) || usage.noun.is_none() {
        return true;
    }
    rather_verb(usage) && !path_nouns.iter().any(|n| same_word(n, base))
}

/// The verb at `tokens[i]`, if the grammar around it makes it one.
fn verb_at(tokens: &[Token], i: usize, path_nouns: &[String]) -> Option<String> {
    let w = word(tokens.get(i))?;
    if !w.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let next_determines =
        word(tokens.get(i + 1)).is_some_and(|n| DETERMINERS.contains(&lower(n).as_str()));
    let Some((base, usage)) = verb_form(w) else {
        // A word no list knows, before a determiner, is a verb all the
        // same ("Geolocate a given IP address", "Topup a phone").
        let w = lower(w);
        let function_word = DETERMINERS.contains(&w.as_str())
            || OBJECT_ENDS.contains(&w.as_str())
            || NOT_VERBS.contains(&w.as_str());
        return (next_determines && !function_word).then_some(w);
    };
    if META_VERBS.contains(&base.as_str()) {
        return None;
    }
    match tokens.get(i + 1) {
        // A one-word summary ("Disconnect") is a verb if it is mostly one.
        None => (usage.noun.is_none() || rather_verb(usage)).then_some(base),
        Some(Token::Word(next)) => {
            let next = lower(next);
            if DETERMINERS.contains(&next.as_str()) {
                Some(base)
            } else if next == "to" {
                // "Attempts to retrieve …": the verb is the second one.
                None
            } else if OBJECT_ENDS.contains(&next.as_str()) {
                // "Teams by season", "Details of a user": a noun.
                None
            } else {
                reads_as_verb(&base, usage, path_nouns).then_some(base)
            }
        }
        // "Update/create …" is a verb phrase; "Slides: get details" a label.
        Some(Token::Slash) => reads_as_verb(&base, usage, path_nouns).then_some(base),
        Some(Token::Stop) => None,
    }
}

/// What `summary` says the operation does, if it starts with a verb.
/// `path_nouns` are the words of the operation's path.
pub(super) fn action(summary: &str, path_nouns: &[String]) -> Option<Action> {
    let tokens = tokens(summary);
    let is_to = |k: usize| word(tokens.get(k)).is_some_and(|w| w.eq_ignore_ascii_case("to"));
    let lead = word(tokens.first()).and_then(verb_form).map(|(b, _)| b);
    let mut i = 0;
    if lead.is_some_and(|b| CATENATIVES.contains(&b.as_str())) {
        // The action is the first verb after a `to`.
        i = (1..tokens.len()).find(|&k| {
            is_to(k) && verb_at(&tokens, k + 1, path_nouns).is_some_and(|v| v != "be")
        })? + 1;
    }
    let mut verb = vec![verb_at(&tokens, i, path_nouns)?];
    i += 1;
    // "Bulk enable …".
    if verb[0] == "bulk"
        && let Some((next, _)) = word(tokens.get(i))
            .and_then(verb_form)
            .filter(|(b, _)| is_verb(b))
    {
        verb.push(next);
        i += 1;
    }
    // A phrasal verb's particle ("Look up a repository", "Shut down the
    // machine", "Sign out"): before a determiner or at the end, not "Get
    // up to 100 items".
    if let Some(particle) = word(tokens.get(i)).map(lower)
        && PARTICLES.contains(&particle.as_str())
        && match tokens.get(i + 1) {
            None | Some(Token::Stop) => true,
            Some(Token::Word(next)) => DETERMINERS.contains(&lower(next).as_str()),
            Some(Token::Slash) => false,
        }
    {
        verb.push(particle);
        i += 1;
    }
    // "Enables or disables", "Update/create".
    loop {
        let join = match tokens.get(i) {
            Some(Token::Slash) => Some("or".to_string()),
            Some(Token::Word(w)) if matches!(lower(w).as_str(), "or" | "and") => Some(lower(w)),
            _ => None,
        };
        let Some(join) = join else { break };
        let Some(next) = word(tokens.get(i + 1))
            .and_then(verb_form)
            .filter(|(b, u)| is_verb(b) || u.noun.is_none())
        else {
            break;
        };
        verb.push(join);
        verb.push(next.0);
        i += 2;
    }
    let mut many = false;
    let mut object: Vec<String> = Vec::new();
    // Determiners, and `a list of`.
    while let Some(w) = word(tokens.get(i)).map(lower) {
        if DETERMINERS.contains(&w.as_str()) {
            many |= w == "all";
            i += 1;
        } else if COLLECTIONS.contains(&w.as_str())
            && word(tokens.get(i + 1)).is_some_and(|n| n.eq_ignore_ascii_case("of"))
        {
            many = true;
            i += 2;
        } else {
            break;
        }
    }
    while let Some(w) = word(tokens.get(i)) {
        let w = lower(w);
        // A preposition or a new noun phrase ("reports one is …") ends it.
        if OBJECT_ENDS.contains(&w.as_str()) || DETERMINERS.contains(&w.as_str()) {
            break;
        }
        if matches!(w.as_str(), "and" | "or") {
            // "file or directory" goes on; "kernel and return …" ends.
            let next = word(tokens.get(i + 1)).map(lower);
            let verb_next = next
                .as_deref()
                .and_then(verb_form)
                .is_some_and(|(b, u)| is_verb(&b) || rather_verb(u));
            let ends = next
                .as_deref()
                .is_none_or(|n| DETERMINERS.contains(&n) || OBJECT_ENDS.contains(&n));
            if verb_next || ends {
                break;
            }
        }
        let content = clean_words(&w);
        let count = object
            .iter()
            .filter(|o| !matches!(o.as_str(), "and" | "or"))
            .count();
        if count + content.len() > MAX_OBJECT_WORDS {
            break;
        }
        object.extend(content);
        i += 1;
    }
    while object
        .last()
        .is_some_and(|w| matches!(w.as_str(), "and" | "or"))
    {
        object.pop();
    }
    let words = tokens
        .iter()
        .filter_map(|t| word(Some(t)))
        .flat_map(clean_words)
        .filter(|w| {
            !DETERMINERS.contains(&w.as_str())
                && !OBJECT_ENDS.contains(&w.as_str())
                && !FILLER.contains(&w.as_str())
        })
        .collect();
    Some(Action {
        verb,
        object,
        many,
        words,
    })
}

#[cfg(test)]
#[path = "summary_tests.rs"]
mod tests;
