//! What an operation does, read from its words as well as its method
//! (issue #46): a POST that deletes (`POST /collections/{id}/delete`,
//! "Reset the database", `bulk_delete_flows`) is destructive, and so asks
//! for confirmation like a DELETE; a POST that only reads
//! (`POST /work_queues/filter`, "Search records", `collection_query`) is
//! read-only, so a client that auto-approves reads does not ask for each.
//!
//! The method is the prior; the words override it only where they say
//! so plainly: the verb the summary (or description) starts with, else the
//! verb of the operationId as the naming grammar reads it (`resetDatabase`,
//! Django's `collection_delete`), else a verb as the path's last segment
//! (`…/delete`). Reads are read only for POST (QUERY and GET are read-only
//! already; a PUT or PATCH that "filters" still writes), from verbs that
//! only read (`get`, `retrieve` and `fetch` alone are not enough: a POST
//! "Get a token" creates one; with a path or operationId that says a verb
//! of reading, a path whose action is a fetch, or a description opening
//! with a verb of reading, they are). `x-mcp.annotations` always wins
//! (applied after). [`read_operation`] is the one reading the tool's
//! annotations, its name and `lint` share.

use crate::naming::ActionWords;

/// Verbs that destroy or undo what exists.
const DESTROYS: &[&str] = &[
    "delete",
    "remove",
    "destroy",
    "erase",
    "purge",
    "wipe",
    "reset",
    "revoke",
    "terminate",
    "truncate",
    "clear",
    "drop",
    "cancel",
    "archive",
];

/// Verbs that only read, said of a POST.
const READS: &[&str] = &[
    "query", "search", "filter", "list", "count", "find", "lookup", "preview", "validate",
];

/// Verbs that read in a summary, but not plainly enough alone for a POST
/// ("Get a token" creates one, "Read messages" may mark them read): a
/// POST so summarized reads when its operationId or path says a verb of
/// [`READS`] too (Prefect's "Read work queues", `POST /work_queues/filter`),
/// its path's action is a fetch (`POST /collections/{id}/get`, AWS's
/// `…GetCrawler`), or its description opens with a verb of [`READS`].
const READS_WITH_SUPPORT: &[&str] = &["get", "read", "retrieve", "fetch", "return", "show"];

/// Words that make an operationId ask about its verb rather than do it.
const QUESTION_WORDS: &[&str] = &[
    "can",
    "is",
    "has",
    "check",
    "should",
    "may",
    "able",
    "allowed",
    "deletable",
];

/// What the words say of an operation, beyond its method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// It destroys or undoes something: the verb, and where it was read.
    Destroys(String, Source),
    /// A POST that only reads: the verb, and where it was read.
    Reads(String, Source),
}

/// Where a [`Reading`]'s verb was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The summary (or description) starts with it.
    Summary,
    /// The description starts with it, beside a summary that says a verb
    /// of reading not plainly enough alone ("Read …").
    Description,
    /// The operationId starts or ends with it.
    OperationId,
    /// The path's last segment is it.
    Path,
}

impl Source {
    /// Where, in words, for `lint`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Summary => "its summary",
            Source::Description => "its summary and description",
            Source::OperationId => "its operationId",
            Source::Path => "its path",
        }
    }
}

/// The verb `words` lead with, a leading `bulk` skipped (`bulk`,
/// `delete` → `delete`).
fn lead(words: &[String]) -> Option<&str> {
    let mut it = words.iter().map(String::as_str);
    match it.next()? {
        "bulk" | "batch" | "mass" => it.next(),
        first => Some(first),
    }
}

/// What `words` say of an operation of `method` (upper case), when they
/// say more than its method does.
pub fn read(method: &str, words: &ActionWords) -> Option<Reading> {
    let post = method == "POST";
    let judge = |verb: &str, source: Source| -> Option<Reading> {
        if DESTROYS.contains(&verb) {
            return (method != "DELETE").then(|| Reading::Destroys(verb.to_string(), source));
        }
        if post && READS.contains(&verb) {
            return Some(Reading::Reads(verb.to_string(), source));
        }
        None
    };
    // The summary is the document's own sentence: what it says, it says
    // for the whole operation (a verb that neither destroys nor reads
    // settles it as the method says). A phrase of several verbs ("Search
    // and replace", "Enable or disable") destroys if one does, and reads
    // only if all do.
    if lead(&words.summary).is_some() {
        let verbs: Vec<&str> = words
            .summary
            .iter()
            .map(String::as_str)
            .filter(|w| !matches!(*w, "and" | "or" | "bulk" | "batch" | "mass"))
            .collect();
        if let Some(verb) = verbs.iter().find(|v| DESTROYS.contains(v)) {
            return judge(verb, Source::Summary);
        }
        if verbs.iter().all(|v| READS.contains(v)) {
            return verbs.first().and_then(|v| judge(v, Source::Summary));
        }
        let supported = verbs.iter().all(|v| READS_WITH_SUPPORT.contains(v));
        if !supported || !post {
            return None;
        }
        // The path saying a verb of fetching as its action (`POST
        // /collections/{id}/get`, `…/get_runs`, "Retrieves records …") is
        // support too; not `…/read`, which marks messages read.
        if words
            .last_segment
            .first()
            .is_some_and(|w| matches!(w.as_str(), "get" | "retrieve" | "fetch"))
        {
            return Some(Reading::Reads(verbs[0].to_string(), Source::Summary));
        }
        // The description saying a verb that only reads ("Read Flow Run
        // History", then "Query for flow run history data …").
        if let Some(verb) = words.description.first()
            && words
                .description
                .iter()
                .filter(|w| !matches!(w.as_str(), "and" | "or"))
                .all(|w| READS.contains(&w.as_str()))
        {
            return Some(Reading::Reads(verb.clone(), Source::Description));
        }
        return match from_id_or_path(words, judge) {
            Some(Reading::Reads(verb, source)) => Some(Reading::Reads(verb, source)),
            _ => None,
        };
    }
    from_id_or_path(words, judge)
}

/// What the words of an operation say it does beyond its method
/// (upper-case `method`): [`read`] of its [`ActionWords`], the
/// description's verb included. One reading for the tool's annotations,
/// its name and `lint`.
pub fn read_operation(method: &str, said: &crate::naming::Said<'_>) -> Option<Reading> {
    read(method, &crate::naming::action_words_described(said))
}

/// What the operationId's verb (as naming reads it) or else the path's
/// last segment says, as `judge` reads a verb.
fn from_id_or_path(
    words: &ActionWords,
    judge: impl Fn(&str, Source) -> Option<Reading>,
) -> Option<Reading> {
    // `Client_CanDelete`, `isDeletable`, `checkDelete`: a question about
    // the verb, not the verb.
    let asks = words
        .operation_id_words
        .iter()
        .any(|w| QUESTION_WORDS.contains(&w.as_str()));
    if !asks
        && let Some(found) = lead(&words.operation_id).and_then(|v| judge(v, Source::OperationId))
    {
        return Some(found);
    }
    if words.last_segment.len() == 1 {
        return judge(&words.last_segment[0], Source::Path);
    }
    None
}

#[cfg(test)]
#[path = "semantics_tests.rs"]
mod tests;
