//! Names that say what an operation does when its words say more than
//! its method (issue #46): a POST that reads is named for its reading
//! (`POST /work_queues/filter` → `list_work_queues`), and an action on
//! what an item holds names what it acts on (`POST /collections/{id}/add`,
//! "Adds records to a collection" → `add_collection_records`, not
//! `add_collection` beside the operations on the collection itself).

use super::english::method_meaning;
use super::path;
use super::summary::Action;
use super::words::{PREPOSITIONS, same_word, singular};

/// Last path segments that name a reading of what comes before them
/// (`POST /flows/filter`, `POST /collections/{id}/query`), and the verb a
/// name says it with: a filter of a collection lists it.
const READING_SEGMENTS: &[(&str, &str)] = &[
    ("filter", "list"),
    ("list", "list"),
    ("search", "search"),
    ("query", "query"),
    ("find", "find"),
    ("lookup", "look_up"),
    ("count", "count"),
];

/// Whether a name's verb is a reading that says more than a get does
/// (`list`, `query`, `search`, `count`; not `get`, `read` or `fetch`).
pub(super) fn says_more_than_get(verb: &str) -> bool {
    READING_SEGMENTS.iter().any(|(_, v)| *v == verb)
}

/// Names of a reading POST whose last segment says the reading
/// (`POST /work_queues/filter` → `list_work_queues`,
/// `POST /collections/{id}/query` → `query_collection`): what a `GET` of
/// the path before that segment is called, with the segment's verb.
pub(super) fn reading_names(path: &str, shape: &path::Shape) -> Vec<Vec<String>> {
    let Some(last) = shape.segments.last() else {
        return Vec::new();
    };
    if last.item || last.words.len() != 1 {
        return Vec::new();
    }
    let Some((_, verb)) = READING_SEGMENTS
        .iter()
        .find(|(seg, _)| *seg == last.words[0])
    else {
        return Vec::new();
    };
    // A list after an item (Azure's `POST …/backups/{id}/list`) lists
    // something the path does not name: the id or summary says what.
    let after_item = shape.segments.len() >= 2 && shape.segments[shape.segments.len() - 2].item;
    if after_item && *verb == "list" {
        return Vec::new();
    }
    let Some((before, _)) = path.trim_end_matches('/').rsplit_once('/') else {
        return Vec::new();
    };
    if path::shape(before).segments.is_empty() {
        return Vec::new();
    }
    path::names("GET", before)
        .into_iter()
        .filter(|n| n.len() > 1)
        .map(|mut n| {
            n.splice(0..1, verb.split('_').map(str::to_string));
            n
        })
        .collect()
}

/// Names of an operation on what an item holds rather than on the item:
/// a last segment that is the summary's verb after an item
/// (`POST /collections/{id}/add`, "Adds records to a collection") acts on
/// the summary's object inside that item: `add_collection_records`, not
/// `add_collection` beside the operations on the collection itself.
pub(super) fn within_item(method: &str, shape: &path::Shape, action: &Action) -> Vec<Vec<String>> {
    let n = shape.segments.len();
    // Only a POST says its action in the path this way; `GET
    // /c/{id}/show` "Show category" shows the item under another name.
    if n < 2 || action.object.is_empty() || !method.eq_ignore_ascii_case("post") {
        return Vec::new();
    }
    let (owner, last) = (&shape.segments[n - 2], &shape.segments[n - 1]);
    if !owner.item || last.item || last.words.len() != 1 {
        return Vec::new();
    }
    // Only a verb of the methods' own (add, get, update, upsert, delete
    // and their synonyms): `…/{id}/delete` beside `DELETE …/{id}` cannot
    // mean the item, while `…/{id}/restart` restarts it whatever the
    // summary goes on to say.
    let segment_verb = last.words[0].as_str();
    let Some(meaning) = method_meaning(segment_verb) else {
        return Vec::new();
    };
    let said = action.verb[0].as_str();
    if said != segment_verb && method_meaning(said) != Some(meaning) {
        return Vec::new();
    }
    // The object must be another thing than any the path names: "Query a
    // collection" acts on the collection, "Deletes a backend API resource"
    // on the path's API.
    let named = action.object.iter().any(|o| {
        PREPOSITIONS.contains(&o.as_str())
            || shape
                .segments
                .iter()
                .flat_map(|s| &s.words)
                .any(|w| same_word(w, o))
    });
    if named {
        return Vec::new();
    }
    let mut words = vec![segment_verb.to_string()];
    words.extend(owner.words.iter().map(|w| singular(w)));
    words.extend(action.object.iter().cloned());
    vec![words]
}

#[cfg(test)]
#[path = "reading_tests.rs"]
mod tests;
