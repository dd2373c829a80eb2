//! The names an operation could take, most concise first: the assignment
//! (see [`super::assign`]) gives each operation the first candidate no
//! other operation wants, so a name carries only as much context as it
//! needs to be unique in its document.

use super::Effect;
use super::english::method_meaning;
use super::ids::{self, IdNames};
use super::path;
use super::reading;
use super::summary::{self, Action};
use super::words::{PREPOSITIONS, is_plural, plural, repeats_word, same_word, unrepeat};
use super::{MAX_LEN, hashed};

pub use super::ids::meaningful_operation_id;

/// What the document says about one operation, as naming reads it.
#[derive(Debug, Clone, Copy)]
pub struct Said<'a> {
    /// `operationId`.
    pub operation_id: Option<&'a str>,
    /// HTTP method, any case.
    pub method: &'a str,
    /// Path template.
    pub path: &'a str,
    /// `summary`, else the first sentence of `description`.
    pub summary: Option<&'a str>,
    /// `description`, whole: when it is what `summary` holds, the
    /// operation has no summary of its own.
    pub description: Option<&'a str>,
}

/// Candidate names for an operation, most concise first, each valid
/// (`[a-z0-9_]`, at most [`MAX_LEN`]) and saying no word twice when it can
/// be helped; never empty. The last element is not a name but the
/// operation itself, `method /path`: [`super::assign`] reads it to tell
/// apart operations that still want the same name when their candidates
/// run out.
pub fn candidates(said: &Said<'_>) -> Vec<String> {
    candidates_for(said, Effect::AsMethod)
}

/// [`candidates`] of an operation whose words say what it does beyond
/// its method (see `crate::semantics`): a POST that only reads is named
/// for reading (`POST /work_queues/filter` → `list_work_queues`, not
/// `create_work_queues_filter`).
pub fn candidates_for(said: &Said<'_>, effect: Effect) -> Vec<String> {
    let Said {
        operation_id,
        method,
        path,
        summary,
        description,
    } = *said;
    // A summary of the document's own, not a description standing in.
    let summarized = summary.is_some() && summary != description;
    let shape = path::shape(path);
    // The path's nouns: each segment's head, its last word, where the path
    // uses it as one: a collection (`orders`) or an item (`/order/{id}`);
    // not the verb of `resolvePath` or `POST /link`.
    let path_nouns: Vec<String> = shape
        .segments
        .iter()
        .filter_map(|s| {
            let head = s.words.last()?;
            (s.item || is_plural(head)).then(|| head.clone())
        })
        .collect();
    let action = summary.and_then(|s| summary::action(s, &path_nouns));
    let id = operation_id
        .filter(|id| meaningful_operation_id(id) && !ids::spells_method_path(id, method, path));
    let mut words = match id {
        Some(id) => from_id(id, method, path, action.as_ref(), summarized),
        None => from_path(method, path, action.as_ref()),
    };
    if let Some(action) = &action {
        let inside = reading::within_item(method, &shape, action);
        words.splice(0..0, inside);
    }
    if effect == Effect::Reads {
        // An operationId's own verb of reading that says more than a get
        // (`query_collection`, `search_flows`) stays first, and so does an
        // id's get of something the path names and the reading does not
        // say (`Sites_GetSiteBackupConfiguration` on `…/config/backup/list`).
        // A get the reading says better (`read_work_queues` of
        // `/work_queues/filter` lists them; `read_many`), a writing verb
        // the method lent (`create_…`) or a path read as nouns
        // (`get_flow_runs_filter`) gives way.
        let reading = reading::reading_names(path, &shape);
        let keep_first = id.is_some()
            && words.first().is_some_and(|w| {
                let Some((verb, rest)) = w.split_first() else {
                    return false;
                };
                let says_path = rest.iter().any(|r| {
                    shape
                        .segments
                        .iter()
                        .flat_map(|s| &s.words)
                        .any(|p| same_word(p, r))
                });
                let said_by_id = |r: &Vec<String>| {
                    r.iter()
                        .skip(1)
                        .all(|n| rest.iter().any(|x| same_word(x, n)))
                };
                reading::says_more_than_get(verb)
                    || (method_meaning(verb) == Some("get")
                        && says_path
                        && !reading.first().is_some_and(said_by_id))
            });
        let at = usize::from(keep_first).min(words.len());
        words.splice(at..at, reading);
    }
    let mut out: Vec<String> = words.into_iter().flat_map(name).collect();
    // A name repeating a word is a last resort: kept only if every
    // candidate does.
    let repeating: Vec<bool> = out.iter().map(|n| repeats(n)).collect();
    if repeating.contains(&false) {
        let mut flags = repeating.into_iter();
        out.retain(|_| !flags.next().unwrap_or(false));
    }
    let mut seen = super::FastSet::default();
    out.retain(|n| !n.is_empty() && seen.insert(n.clone()));
    if out.is_empty() {
        out.push(fit(path::from_method_path(method, path)));
    }
    out.push(phrase(method, path));
    out
}

/// The summary's verb phrase when it says more than an HTTP method does
/// (`rename`, `interrupt`, `save or upload`; not `get`, `add`, `remove`).
fn specific_verb(action: &Action) -> Option<&[String]> {
    // A phrasal verb is one word to the method's synonyms: "Look up a
    // repository" says `lookup`, a get.
    let phrasal: String = action.verb.concat();
    if action.verb.len() > 1 && method_meaning(&phrasal).is_some() {
        return None;
    }
    let says_more = action
        .verb
        .iter()
        .filter(|w| !matches!(w.as_str(), "or" | "and"))
        .any(|w| method_meaning(w).is_none());
    says_more.then_some(action.verb.as_slice())
}

/// `verb` followed by each word list's words after its own verb phrase
/// (lists left with no word of their own give nothing).
fn with_verb(verb: &[String], lists: &[Vec<String>], skip: usize) -> Vec<Vec<String>> {
    lists
        .iter()
        .filter_map(|l| {
            let rest: Vec<String> = l
                .iter()
                .skip(skip)
                .filter(|w| !verb.contains(w) && w.as_str() != "root")
                .cloned()
                .collect();
            (!rest.is_empty()).then(|| verb.iter().cloned().chain(rest).collect())
        })
        .collect()
}

/// `verb` and the summary's object (`rename` + `file_or_directory`), with
/// the object's head noun plural after `list`.
fn verb_object(verb: &[String], action: &Action) -> Option<Vec<String>> {
    if action.object.is_empty() {
        return None;
    }
    let mut words = verb.to_vec();
    words.extend(action.object.iter().cloned());
    if verb.first().is_some_and(|v| v == "list")
        && let Some(last) = words.last_mut()
    {
        *last = plural(last);
    }
    Some(words)
}

/// Verbs a path name starts with when the method alone chose them.
const METHOD_VERBS: &[&str] = &[
    "get", "list", "create", "update", "replace", "delete", "count",
];

/// The method's verb for what a generic summary verb means (`Create …` on
/// `POST /contents/{path}`, which the path alone reads as `update`):
/// `get` reads `list` when the summary or the path says many.
fn meant_verb(action: &Action, path_verb: &str) -> Option<String> {
    let meaning = method_meaning(&action.verb[0])?;
    Some(match meaning {
        "get" if action.many || path_verb == "list" => "list".to_string(),
        "get" if path_verb == "count" => "count".to_string(),
        other => other.to_string(),
    })
}

/// Names from the method and path, with what the summary says: its verb
/// when the path has no action of its own, its object when it is a
/// specific action or the path names nothing the summary speaks of.
fn from_path(method: &str, path: &str, action: Option<&Action>) -> Vec<Vec<String>> {
    // Only a verb that says more than the method makes a last segment the
    // action (`GET /nonprofits/show`, "Show a nonprofit", gets one).
    let said_verb = action.and_then(specific_verb).map(|v| v[0].as_str());
    let names = path::names_said(method, path, said_verb);
    let Some(action) = action else {
        return names;
    };
    let path_verb = names
        .last()
        .and_then(|n| n.first())
        .cloned()
        .unwrap_or_default();
    if !METHOD_VERBS.contains(&path_verb.as_str()) {
        // The path has its action (`/kernels/{id}/interrupt`).
        return names;
    }
    // The summary's verb with its object, then with the path's nouns, then
    // the path's own names: operations a shared summary does not tell
    // apart still need no `_2` when their paths do (and when nothing does,
    // the counter goes on the summary's verb; see `super::assign`).
    if let Some(verb) = specific_verb(action) {
        let mut out: Vec<Vec<String>> = verb_object(verb, action).into_iter().collect();
        out.extend(with_verb(verb, &names, 1));
        out.extend(names);
        // A `GET` and a `POST` the summary both calls `export` differ in
        // what the method alone says.
        out.extend(path::names(method, path));
        return out;
    }
    let method_upper = method.to_ascii_uppercase();
    let verb = match meant_verb(action, &path_verb) {
        // POST and PUT say least about what they do; GET's list or get
        // is the path's shape, said again.
        Some(v) if matches!(method_upper.as_str(), "POST" | "PUT") => v,
        Some(v) if v == "list" && path_verb == "get" && method_upper == "GET" => v,
        _ => path_verb.clone(),
    };
    let nouns: Vec<&String> = names.iter().flat_map(|n| &n[1..]).collect();
    let root = nouns.iter().all(|w| w.as_str() == "root");
    let shared = action
        .words
        .iter()
        .any(|w| nouns.iter().any(|n| same_word(n, w)));
    let mut out = Vec::new();
    if root || !shared {
        out.extend(verb_object(std::slice::from_ref(&verb), action));
    }
    out.extend(with_verb(std::slice::from_ref(&verb), &names, 1));
    // The path's own verb last: a `PUT` the summary calls an update beside
    // the `PATCH` that is one takes `replace_…`, not `update_…_2`.
    if verb != path_verb {
        out.extend(names);
    }
    out
}

/// Names from a meaningful operationId, with what the summary says when
/// the id has no verb of its own (`Available`, "Enables or disables quick
/// connect") or is a verb alone (`cancel`, `purchase`).
fn from_id(
    id: &str,
    method: &str,
    path: &str,
    action: Option<&Action>,
    summarized: bool,
) -> Vec<Vec<String>> {
    let said_verb = action.map(|a| a.verb[0].as_str());
    let IdNames { names, verb, weak } = ids::from_operation_id(id, method, path, said_verb);
    // An id whose verb only says what a method does (`createFork`,
    // `addPlugin`, `Invitations_Create`) yields to a summary's verb that
    // says more ("Fork a repository", "Install a plugin", "Sends a new
    // invitation"), as an id without a sure verb does; not to a
    // description's, whose first sentence often tells how rather than
    // what ("Marks the instance for deletion").
    let generic = summarized && matches!(verb.as_slice(), [v] if method_meaning(v).is_some());
    if let Some(action) = action
        && (weak || generic)
        && let Some(said) = specific_verb(action)
        && said != verb.as_slice()
        // "Logs out …" for `logoutUser` says the id's verb.
        && !verb.first().is_some_and(|v| v.starts_with(said[0].as_str()))
    {
        let mut out: Vec<Vec<String>> = verb_object(said, action).into_iter().collect();
        out.extend(with_verb(said, &names, verb.len()));
        out.extend(names);
        return out;
    }
    // A verb alone (`cancel`, `Search_Search`) takes its object from the
    // summary or the path.
    let verb_only = names
        .iter()
        .all(|n| n.iter().skip(verb.len()).all(|w| verb.contains(w)));
    if verb_only {
        let mut out: Vec<Vec<String>> = action
            .filter(|a| a.verb[0] == verb[0])
            .and_then(|a| verb_object(&verb, a))
            .into_iter()
            .collect();
        out.extend(with_verb(&verb, &path::names(method, path), 1));
        if !out.is_empty() {
            return out;
        }
        // Nothing to add: the verb alone (the document's own name, `ping`),
        // then what the method and path say.
        let mut out = names;
        out.extend(path::names(method, path));
        return out;
    }
    names
}

/// The operation as the last element of [`candidates`]: `get /pets/{id}`.
pub(super) fn phrase(method: &str, path: &str) -> String {
    format!("{} {path}", method.to_ascii_lowercase())
}

/// Whether a candidate is a name rather than the operation's phrase.
pub(super) fn is_name(candidate: &str) -> bool {
    !candidate.contains(' ')
}

/// Names from words: as [`fit`], each content word said once (see
/// [`unrepeat`]: the later of two repeats dropped, then, as a more
/// specific variant, the earlier).
fn name(words: Vec<String>) -> Vec<String> {
    let words = drop_said_phrases(words);
    if repeats_word(&words) {
        vec![fit(unrepeat(&words, false)), fit(unrepeat(&words, true))]
    } else {
        vec![fit(words)]
    }
}

fn repeats(name: &str) -> bool {
    repeats_word(&name.split('_').collect::<Vec<_>>())
}

/// Joins words into a valid name of at most [`MAX_LEN`] characters,
/// dropping the least informative words first: a word already said, then
/// context right after the verb, leftmost first (the verb and the final
/// noun phrase say most). Only a name whose verb and last word alone are
/// too long ends in a hash.
pub fn fit(words: Vec<String>) -> String {
    fit_within(words, MAX_LEN)
}

/// [`fit`] into `max` characters (`max` ≤ [`MAX_LEN`]; only a hashed name
/// may be longer).
pub(super) fn fit_within(words: Vec<String>, max: usize) -> String {
    let mut words: Vec<String> = words.into_iter().filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return "tool".to_string();
    }
    if words[0].starts_with(|c: char| c.is_ascii_digit()) {
        words.insert(0, "op".to_string());
    }
    let mut words = drop_said_phrases(words);
    let len = |w: &[String]| w.iter().map(String::len).sum::<usize>() + w.len().saturating_sub(1);
    if len(&words) <= max {
        return words.join("_");
    }
    // 1. Words already said (keeping the first of each).
    let mut i = 1;
    while i < words.len() && len(&words) > max {
        let repeated = words[..i].iter().any(|p| same_word(p, &words[i]))
            && !PREPOSITIONS.contains(&words[i].as_str());
        if repeated {
            words.remove(i);
        } else {
            i += 1;
        }
    }
    // 2. Context after the verb, leftmost first, with any preposition it
    //    leaves dangling.
    while len(&words) > max && words.len() > 2 {
        words.remove(1);
        while words.len() > 2 && PREPOSITIONS.contains(&words[1].as_str()) {
            words.remove(1);
        }
    }
    let name = words.join("_");
    if name.len() <= max {
        name
    } else {
        hashed(&name)
    }
}

/// A phrase naming again what the name already said adds nothing:
/// `list_issue_field_values_for_issue` → `list_issue_field_values`.
fn drop_said_phrases(mut words: Vec<String>) -> Vec<String> {
    let mut i = 2;
    while i < words.len() {
        let said = |w: &String| {
            words[1..i - 1]
                .iter()
                .any(|p| !PREPOSITIONS.contains(&p.as_str()) && same_word(p, w))
        };
        if PREPOSITIONS.contains(&words[i - 1].as_str()) && said(&words[i]) {
            words.drain(i - 1..=i);
        } else {
            i += 1;
        }
    }
    words
}

#[cfg(test)]
#[path = "candidates_tests.rs"]
mod tests;
