//! Names from an operation's HTTP method and path template, and the shape
//! of a path (its static segments, which of them are followed by a
//! parameter, casts and calls) that later tells apart operations wanting
//! the same name (see [`super::distinct`]).

use super::english::lexical_verb;
use super::words::{
    NOUN_LEADERS, clean_words, is_function_word, is_plural, is_verb, plural, same_word, singular,
};

/// What a static path segment is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Kind {
    /// A resource or a collection (`users`, `calendarView`, `reject`).
    Noun,
    /// A type cast (`microsoft.graph.group`): only the items of that type.
    Cast,
    /// A function or action call (`microsoft.graph.delta()`,
    /// `microsoft.graph.accept`), with the words of its parameter names.
    Call(Vec<String>),
}

/// One static segment of a path template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Segment {
    /// Its words, as written (`calendarView` → `calendar`, `view`).
    pub words: Vec<String>,
    /// Followed by a `{parameter}`: one item of the collection.
    pub item: bool,
    /// What it is.
    pub kind: Kind,
}

/// A path template's static segments, version prefixes skipped.
#[derive(Debug, Clone)]
pub(super) struct Shape {
    /// The segments in order.
    pub segments: Vec<Segment>,
    /// Whether the path ends in `$count`.
    pub count: bool,
}

/// Reads a path template (`/users/{id}/microsoft.graph.delta()`).
pub(super) fn shape(path: &str) -> Shape {
    let mut raw: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let count = raw.last() == Some(&"$count");
    if count {
        raw.pop();
    }
    let mut segments: Vec<Segment> = Vec::new();
    for seg in raw {
        // A file name's extension says the format, not the resource
        // (`spec.yaml`, `{id}.json`).
        let seg = match seg.rsplit_once('.') {
            Some((stem, ext)) if !stem.is_empty() && FILE_EXTENSIONS.contains(&ext) => stem,
            _ => seg,
        };
        if is_param(seg) {
            if let Some(last) = segments.last_mut() {
                last.item = true;
            }
            continue;
        }
        let (head, args) = match seg.split_once('(') {
            Some((h, a)) => (h, Some(a)),
            None => (seg, None),
        };
        // A dotted type or function name keeps its last part
        // (`microsoft.graph.incidentReport()` → `incident`, `report`).
        let dotted = head.contains('.');
        let words = clean_words(head.rsplit('.').next().unwrap_or_default());
        if words.is_empty() || (segments.is_empty() && is_prefix_segment(&words)) {
            continue;
        }
        let verb_led = is_verb(&words[0]);
        let kind = match args {
            Some(args) => Kind::Call(call_params(args)),
            None if dotted && verb_led => Kind::Call(Vec::new()),
            None if dotted => Kind::Cast,
            None => Kind::Noun,
        };
        segments.push(Segment {
            words,
            item: false,
            kind,
        });
    }
    Shape { segments, count }
}

/// Extensions of the file formats APIs serve: a path segment ending in one
/// names a file, not a type cast.
const FILE_EXTENSIONS: &[&str] = &[
    "json", "yaml", "yml", "xml", "csv", "tsv", "txt", "html", "htm", "pdf", "png", "jpg", "jpeg",
    "gif", "svg", "zip", "gz", "js", "css", "md", "rss", "atom", "ics", "ical", "php", "asp",
    "aspx", "jsp", "cgi", "do", "action", "geojson", "kml", "xlsx", "xls", "doc", "docx",
];

/// Whether `word`, leading the last segment of a path, names an action:
/// an API verb, a word English uses mostly as a verb (`restart`,
/// `interrupt`), or the verb the operation's summary starts with.
fn is_action_word(word: &str, said: Option<&str>) -> bool {
    is_verb(word) || said == Some(word) || lexical_verb(word)
}

/// The words of a call's parameter names: `a='{a}',bB={b})` → `a`, `b`, `b`.
fn call_params(args: &str) -> Vec<String> {
    args.trim_end_matches(')')
        .split(',')
        .filter_map(|kv| kv.split('=').next())
        .flat_map(clean_words)
        .collect()
}

/// Candidate word lists from the HTTP method and path template, most
/// concise first (see the module docs of [`super`] for the rules).
pub(super) fn names(method: &str, path: &str) -> Vec<Vec<String>> {
    names_said(method, path, None)
}

/// The names of [`names_said`] but the one with the file extension.
fn names_inner(method: &str, path: &str, said: Option<&str>) -> Vec<Vec<String>> {
    let Shape {
        mut segments,
        count,
    } = shape(path);
    let method = method.to_ascii_uppercase();
    // `POST /accounts/{id}/reject` → `reject_account`; a call led by a verb
    // (`microsoft.graph.getOneDriveActivityUserDetail(...)`,
    // `/invoices/{id}/mark_uncollectible`) is the verb, what it acts on and
    // the rest of the call.
    let mut action: Option<(String, Vec<String>, bool)> = None;
    // The summary's verb inside the last segment leads it
    // (`/domains/{d}/transferInAccept`, "Accepts the transfer in" →
    // `accept_domain_transfer_in`).
    if segments.len() > 1
        && let Some(said) = said
        && let Some(last) = segments.last()
        && !last.item
        && let Some(at) = last.words.iter().skip(1).position(|w| w == said)
    {
        let mut words = segments
            .pop()
            .unwrap_or_else(|| unreachable!("checked above"))
            .words;
        let verb = words.remove(at + 1);
        action = Some((verb, words, false));
    }
    if action.is_none()
        && segments.len() > 1
        && let Some(last) = segments.last()
        && !last.item
        && is_action_word(&last.words[0], said)
        && (last.words.len() == 1 || !NOUN_LEADERS.contains(&last.words[0].as_str()))
        && (method == "POST"
            || matches!(last.kind, Kind::Call(_))
            || said == Some(last.words[0].as_str()))
    {
        let last = segments
            .pop()
            .unwrap_or_else(|| unreachable!("checked above"));
        let call = matches!(last.kind, Kind::Call(_));
        let mut words = last.words;
        let verb = words.remove(0);
        action = Some((verb, words, call));
    }
    let ends_item = segments.last().is_some_and(|s| s.item);
    let cast = segments.last().is_some_and(|s| s.kind == Kind::Cast);
    let before_cast_item = segments.len() > 1 && segments[segments.len() - 2].item;
    let last_plural = segments
        .last()
        .and_then(|s| s.words.last())
        .is_some_and(|w| is_plural(w));
    let verb = if let Some((verb, _, _)) = &action {
        verb.clone()
    } else if count {
        "count".to_string()
    } else {
        match method.as_str() {
            // `/users/{id}/memberOf/microsoft.graph.group` lists groups;
            // `/users/{id}/memberOf/{m}/microsoft.graph.group` gets one.
            "GET" if cast => if before_cast_item { "get" } else { "list" }.to_string(),
            "GET" if !ends_item && last_plural => "list".to_string(),
            "GET" => "get".to_string(),
            // A POST to one item changes it (Stripe, many RPC-style APIs).
            "POST" if ends_item => "update".to_string(),
            "POST" => "create".to_string(),
            "PUT" => "replace".to_string(),
            "PATCH" => "update".to_string(),
            "DELETE" => "delete".to_string(),
            other => other.to_ascii_lowercase(),
        }
    };
    let many = matches!(verb.as_str(), "list" | "count");
    let mut nouns: Vec<Segment> = segments;
    let n = nouns.len();
    for i in 0..n {
        let next_is_cast = nouns.get(i + 1).is_some_and(|s| s.kind == Kind::Cast);
        let seg = &mut nouns[i];
        let Some(last) = seg.words.last_mut() else {
            continue;
        };
        if seg.kind == Kind::Cast {
            *last = if many { plural(last) } else { singular(last) };
        } else if seg.item || next_is_cast {
            *last = singular(last);
        }
    }
    // POST /pets creates one pet.
    if verb == "create"
        && !ends_item
        && let Some(last) = nouns.last_mut().and_then(|s| s.words.last_mut())
    {
        *last = singular(last);
    }
    let rest: Vec<String> = action
        .as_ref()
        .map(|(_, rest, _)| rest.clone())
        .unwrap_or_default();
    let nouns = unshared(nouns, &rest);
    let mut out = Vec::new();
    // A call that names its object (`getOneDriveActivityUserDetail`) says
    // enough without the path before it.
    if let Some((_, rest, true)) = &action
        && rest.iter().any(|w| !is_function_word(w))
    {
        let mut short = vec![verb.clone()];
        short.extend(rest.iter().cloned());
        out.push(short);
    }
    let mut words = vec![verb];
    if nouns.is_empty() && rest.is_empty() {
        words.push("root".to_string());
    }
    for seg in nouns {
        words.extend(seg.words);
    }
    // `readers/{reader}/set_reader_display` says `reader` once.
    for w in rest {
        if words.last().is_none_or(|l| !same_word(l, &w)) {
            words.push(w);
        }
    }
    out.push(words);
    out
}

/// [`names`], knowing the verb the operation's summary starts with (a last
/// segment that is that verb is the action whatever the method: `GET
/// /customers/search`, "Search customers"), and last the most specific
/// name with the path's file extension (`all.csv` beside `all.json`
/// differ only in it).
pub(super) fn names_said(method: &str, path: &str, said: Option<&str>) -> Vec<Vec<String>> {
    let mut out = names_inner(method, path, said);
    if let Some(ext) = path
        .rsplit('/')
        .next()
        .and_then(|last| last.rsplit_once('.'))
        .map(|(_, ext)| ext)
        .filter(|ext| FILE_EXTENSIONS.contains(ext))
        && let Some(mut words) = out.last().cloned()
    {
        words.push(ext.to_string());
        out.push(words);
    }
    out
}

/// The segments without the words a later segment says again. An earlier
/// segment sharing a word with a later one goes if it is the root
/// namespace or a single word (`/deviceManagement/deviceCompliancePolicies`
/// → `device_compliance_policies`, `/accounts/{account}/bank_accounts` →
/// `bank_account`); a compound further down keeps the words only it says
/// (`termStore/sets/{id}/terms` → `store`, `set`, `terms`;
/// `ownedDevices/microsoft.graph.device` → `owned`, `devices`). The last
/// segment always stays.
fn unshared(nouns: Vec<Segment>, rest: &[String]) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::with_capacity(nouns.len());
    let n = nouns.len();
    for (i, mut seg) in nouns.iter().cloned().enumerate() {
        let later: Vec<&String> = nouns[i + 1..]
            .iter()
            .flat_map(|s| &s.words)
            .chain(rest)
            .filter(|w| !is_function_word(w))
            .collect();
        let shared = |w: &String| !is_function_word(w) && later.iter().any(|l| same_word(l, w));
        if i + 1 == n || !seg.words.iter().any(shared) {
            out.push(seg);
            continue;
        }
        // A namespace at the root, or a lone word, goes whole; a compound
        // keeps what it alone says.
        if i > 0 && seg.words.len() > 1 {
            seg.words.retain(|w| !shared(w));
            if seg.words.iter().any(|w| !is_function_word(w)) {
                out.push(seg);
            }
        }
    }
    out
}

/// The words of a name from the HTTP method and path template: the most
/// specific of [`names`].
pub fn from_method_path(method: &str, path: &str) -> Vec<String> {
    names_inner(method, path, None).pop().unwrap_or_default()
}

pub(super) fn is_param(segment: &str) -> bool {
    segment.starts_with('{') && segment.ends_with('}')
}

/// `api`, `rest`, `v1`, `v2beta`, Jira's `/api/2/` … carry no meaning in
/// a tool name.
pub(super) fn is_prefix_segment(words: &[String]) -> bool {
    let joined = words.join("_");
    joined == "api"
        || joined == "rest"
        || (!joined.is_empty() && joined.len() <= 3 && joined.chars().all(|c| c.is_ascii_digit()))
        || (joined.starts_with('v')
            && joined[1..].starts_with(|c: char| c.is_ascii_digit())
            && joined.len() <= 8)
}

#[cfg(test)]
#[path = "path_tests.rs"]
mod tests;
