//! Parsing text into a document value: JSON or YAML, decided by sniffing
//! the first character (not the file extension); YAML merge keys applied and
//! non-string keys (`200:`) turned into strings. The root document can skip
//! parts no tool reads (webhooks, and `components.examples` unless the mock
//! needs them) while parsing, so they never take memory, and leave the
//! largest parts as text to be parsed when read (see [`super::lazy`]).

use std::cell::{Cell, RefCell};
use std::fmt;
use std::sync::mpsc::Sender;

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::diag::Diagnostic;

/// Which parts of a root document are skipped while parsing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Prune {
    /// Skip `components.examples`.
    pub examples: bool,
}

/// Top-level keys no tool reads: callbacks the API makes to its clients.
const WEBHOOKS: &[&str] = &["webhooks", "x-webhooks"];

/// Parses a root document, skipping what `prune` says and always webhooks.
pub fn parse_document(text: &str, file: &str, prune: Prune) -> Result<Value, Diagnostic> {
    parse_root(text, file, prune, false).map(|(value, _)| value)
}

/// The places of a root's path items in its text (key and byte range, in
/// document order), when `paths` was left as text.
pub type PathSpans = Vec<(String, std::ops::Range<usize>)>;

/// The kinds of `components` whose members a JSON root keeps as text
/// (see [`super::lazy`]): everything a reference reaches. Security schemes
/// stay a tree (read whole, and small).
pub const LAZY_COMPONENTS: &[&str] = &[
    "schemas",
    "responses",
    "parameters",
    "examples",
    "requestBodies",
    "headers",
    "links",
    "callbacks",
    "pathItems",
    "mediaTypes",
];

/// What [`parse_document_lazy`] left as text: the members of the root's
/// `paths` and of the kinds of its `components` in [`LAZY_COMPONENTS`]
/// (those that are objects), each checked as a parse would check it.
#[derive(Debug, Default)]
pub struct LazySpans {
    /// The path items, when `paths` is an object.
    pub paths: Option<PathSpans>,
    /// Each kind of `components` kept as text, with its members.
    pub components: Vec<(String, PathSpans)>,
}

impl LazySpans {
    /// Whether nothing was left as text.
    pub fn is_empty(&self) -> bool {
        self.paths.is_none() && self.components.is_empty()
    }
}

/// [`parse_document`], leaving a JSON root's `paths` and the members of
/// its `components` (see [`LAZY_COMPONENTS`]) as text: their spans come
/// back (checked as a parse would check them: see
/// [`super::lazy::check`]), and the root holds an empty object in each
/// one's place. A YAML document is parsed whole (no spans).
pub fn parse_document_lazy(
    text: &str,
    file: &str,
    prune: Prune,
) -> Result<(Value, LazySpans), Diagnostic> {
    parse_root(text, file, prune, true)
}

fn parse_root<'t>(
    text: &'t str,
    file: &str,
    prune: Prune,
    lazy: bool,
) -> Result<(Value, LazySpans), Diagnostic> {
    let trimmed = json_start(text);
    match trimmed {
        Some(json) if json.starts_with('{') => {
            let deferred = Cell::new(None);
            let members = RefCell::new(Deferred::default());
            let split = |checker: Option<&Sender<&'t RawValue>>| {
                let mut de = serde_json::Deserializer::from_str(json);
                PruningVisitor {
                    prune,
                    level: Level::Root,
                    deferred: &deferred,
                    members: lazy.then_some(&members),
                    checker,
                }
                .deserialize(&mut de)
                .and_then(|v| de.end().map(|()| v))
            };
            let (value, checked) = if lazy && alongside_pays(json) {
                let (value, failures) = checked_alongside(split);
                (value, Some(failures))
            } else {
                (split(None), None)
            };
            let mut value = value.map_err(|e| json_error(text, json, file, &e))?;
            // An error in a member read as text: located at its object,
            // with the line in the whole text (the position serde gives is
            // within the member's text, so it is left out of the message).
            let located = |at: usize, pointer: &str, e: &serde_json::Error| {
                let lead = text.len() - json.len() + at;
                Diagnostic::error(
                    file,
                    pointer,
                    format!("invalid JSON: {}", without_position(e)),
                )
                .at_line(Some(text[..lead].matches('\n').count() + e.line()))
            };
            if let (Some(raw), Value::Object(root)) = (deferred.get(), &mut value) {
                let raw_at = raw.get().as_ptr() as usize - json.as_ptr() as usize;
                let paths =
                    parse_paths(raw).map_err(|(at, e)| located(raw_at + at, "/paths", &e))?;
                root.insert("paths".to_string(), paths);
            }
            let members = members.into_inner();
            if !lazy || members.is_empty() {
                return Ok((value, LazySpans::default()));
            }
            let (groups, others) = members.split();
            // Not an object: left in the tree, for whoever reads it to
            // report.
            for (kind, other) in others {
                match (kind, &mut value) {
                    (None, Value::Object(root)) => {
                        root.insert("paths".to_string(), other);
                    }
                    (Some(kind), value) => {
                        if let Some(Value::Object(c)) = value.get_mut("components") {
                            c.insert(kind, other);
                        }
                    }
                    _ => {}
                }
            }
            let first_error = match checked {
                Some(failures) => first_in_groups(&groups, failures),
                None => check_groups(&groups).err(),
            };
            if let Some((item, group, e)) = first_error {
                let at = item.get().as_ptr() as usize - json.as_ptr() as usize;
                return Err(located(at, &groups[group].0, &e));
            }
            let base = text.as_ptr() as usize;
            let mut spans = LazySpans::default();
            for (pointer, items) in groups {
                let places: PathSpans = items
                    .into_iter()
                    .map(|(key, item)| {
                        let start = item.get().as_ptr() as usize - base;
                        (key, start..start + item.get().len())
                    })
                    .collect();
                match pointer.strip_prefix("/components/") {
                    Some(kind) => spans.components.push((kind.to_string(), places)),
                    None => spans.paths = Some(places),
                }
            }
            Ok((value, spans))
        }
        _ => {
            let mut value = parse_text(text, file)?;
            if let Value::Object(map) = &mut value {
                prune_root(map, prune);
            }
            Ok((value, LazySpans::default()))
        }
    }
}

fn prune_root(map: &mut Map<String, Value>, prune: Prune) {
    for key in WEBHOOKS {
        map.shift_remove(*key);
    }
    if prune.examples
        && let Some(Value::Object(components)) = map.get_mut("components")
    {
        components.shift_remove("examples");
    }
}

/// The text after a BOM and leading blanks, when it is JSON.
fn json_start(text: &str) -> Option<&str> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    (trimmed.starts_with('{') || trimmed.starts_with('[')).then_some(trimmed)
}

fn json_error(text: &str, json: &str, file: &str, e: &serde_json::Error) -> Diagnostic {
    let lead_lines = text[..text.len() - json.len()].matches('\n').count();
    Diagnostic::error(file, "", format!("invalid JSON: {e}")).at_line(Some(e.line() + lead_lines))
}

/// Parses JSON or YAML, decided by the first non-blank character.
pub fn parse_text(text: &str, file: &str) -> Result<Value, Diagnostic> {
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return Err(Diagnostic::error(file, "", "the file is empty"));
    }
    if let Some(json) = json_start(text) {
        serde_json::from_str(json).map_err(|e| json_error(text, json, file, &e))
    } else {
        super::yaml::parse(text, file)
    }
}

/// Deserializes the root object (or `components` inside it), skipping
/// webhooks and (optionally) `components.examples` without building them.
impl<'de> DeserializeSeed<'de> for PruningVisitor<'_, 'de> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        match self.level {
            // The root must be an object; a malformed `components` is
            // reported later, by whoever reads it.
            Level::Root => d.deserialize_map(self),
            Level::Components => d.deserialize_any(self),
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Level {
    Root,
    Components,
}

#[derive(Clone, Copy)]
struct PruningVisitor<'s, 'de> {
    prune: Prune,
    level: Level,
    /// Where the root's `paths` is left as text, to be parsed by
    /// [`parse_paths`] once the rest is read.
    deferred: &'s Cell<Option<&'de RawValue>>,
    /// Where `paths` and the kinds of `components` in [`LAZY_COMPONENTS`]
    /// are left as their members' texts (each holding an empty object in
    /// the tree meanwhile), when they are to be kept so.
    members: Option<&'s RefCell<Deferred<'de>>>,
    /// Where the members read as text are sent to be checked as they are
    /// found (see [`checked_alongside`]), when they are.
    checker: Option<&'s Sender<&'de RawValue>>,
}

/// Path items below which `paths` is parsed on one thread.
const PARALLEL_PATHS_BYTES: usize = 1 << 20;

/// Parses the text of a root's `paths`: a large object's path items on
/// every core, in contiguous runs of about equal size (the items are
/// independent, and `paths` is most of a large document: 18 of Microsoft
/// Graph's 21 MB), keeping their order. An error comes with the byte
/// offset of the text it is relative to, within `paths`.
fn parse_paths(raw: &RawValue) -> Result<Value, (usize, serde_json::Error)> {
    let text = raw.get();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    if threads == 1 || text.len() < PARALLEL_PATHS_BYTES || !text.starts_with('{') {
        return serde_json::from_str(text).map_err(|e| (0, e));
    }
    let items = match serde_json::from_str::<Members<'_>>(text).map_err(|e| (0, e))? {
        Members(Some(items), _) => items,
        Members(None, value) => return Ok(value),
    };
    let offset = |item: &RawValue| item.get().as_ptr() as usize - text.as_ptr() as usize;
    let parse = |run: &[(String, &RawValue)]| {
        run.iter()
            .map(|(_, item)| {
                serde_json::from_str::<Value>(item.get()).map_err(|e| (offset(item), e))
            })
            .collect::<Result<Vec<Value>, _>>()
    };
    let runs = runs_by_bytes(&items, |(_, item)| item.get().len(), threads);
    let mut values = Vec::with_capacity(items.len());
    for run in on_every_core(&runs, parse) {
        values.extend(run?);
    }
    let mut map = Map::with_capacity(items.len());
    for ((key, _), value) in items.into_iter().zip(values) {
        map.insert(key, value);
    }
    Ok(Value::Object(map))
}

/// The members of the objects of a root read as text: (pointer of the
/// object, its members), in document order.
type Groups<'de> = Vec<(String, Vec<(String, &'de RawValue)>)>;

/// Checks every member of `groups` as a parse would, on every core when
/// there is much text; the first error in document order comes back with
/// its member and its group's position in `groups`.
fn check_groups<'g, 'de>(
    groups: &'g Groups<'de>,
) -> Result<(), (&'de RawValue, usize, serde_json::Error)> {
    let items: Vec<(usize, &'de RawValue)> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, (_, members))| members.iter().map(move |(_, item)| (g, *item)))
        .collect();
    let check = |run: &[(usize, &'de RawValue)]| {
        run.iter()
            .try_for_each(|&(g, item)| super::lazy::check(item.get()).map_err(|e| (item, g, e)))
    };
    let total: usize = items.iter().map(|(_, item)| item.get().len()).sum();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    if threads == 1 || total < PARALLEL_PATHS_BYTES {
        return check(&items);
    }
    let runs = runs_by_bytes(&items, |(_, item)| item.get().len(), threads);
    // The first error in document order wins.
    match on_every_core(&runs, check)
        .into_iter()
        .filter_map(Result::err)
        .min_by_key(|(item, _, _)| item.get().as_ptr() as usize)
    {
        Some(first) => Err(first),
        None => Ok(()),
    }
}

/// Whether checking the members of a root of `json` on a thread of its
/// own while the root is split pays: a large document, and a core to spare.
fn alongside_pays(json: &str) -> bool {
    json.len() >= PARALLEL_PATHS_BYTES
        && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
}

/// Runs `split` (the split of a root into members read as text) with
/// each member it finds checked (see [`check_groups`]) on another thread
/// meanwhile: the check then costs little more than the split alone
/// (Microsoft Graph: a 10 ms split, then 7 to 13 ms of checking on every
/// core, now both at once). Gives what `split` gave and every member that
/// failed its check, with its error.
fn checked_alongside<'de, R: Send>(
    split: impl FnOnce(Option<&Sender<&'de RawValue>>) -> R,
) -> (R, Vec<(&'de RawValue, serde_json::Error)>) {
    let (sender, received) = std::sync::mpsc::channel::<&'de RawValue>();
    std::thread::scope(|scope| {
        let checker = scope.spawn(move || {
            received
                .into_iter()
                .filter_map(|item| super::lazy::check(item.get()).err().map(|e| (item, e)))
                .collect::<Vec<_>>()
        });
        let value = split(Some(&sender));
        // The checker ends once the last member sent is checked.
        drop(sender);
        let failures = match checker.join() {
            Ok(failures) => failures,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        (value, failures)
    })
}

/// The first (in document order) of `failures` that is a member of
/// `groups` (a member of an object repeated later, which the last one
/// replaced, does not count), with its group's position: what
/// [`check_groups`] gives.
fn first_in_groups<'de>(
    groups: &Groups<'de>,
    failures: Vec<(&'de RawValue, serde_json::Error)>,
) -> Option<(&'de RawValue, usize, serde_json::Error)> {
    failures
        .into_iter()
        .filter_map(|(item, e)| {
            let group = groups
                .iter()
                .position(|(_, members)| members.iter().any(|(_, m)| std::ptr::eq(*m, item)))?;
            Some((item, group, e))
        })
        .min_by_key(|(item, _, _)| item.get().as_ptr() as usize)
}

/// `items` in contiguous runs of about `1 / threads` of their bytes each
/// (`len` measures one), in order: the share of one thread.
pub(super) fn runs_by_bytes<T>(
    items: &[T],
    len: impl Fn(&T) -> usize,
    threads: usize,
) -> Vec<&[T]> {
    let share = items
        .iter()
        .map(&len)
        .sum::<usize>()
        .div_ceil(threads.max(1));
    let mut runs = Vec::with_capacity(threads);
    let (mut start, mut size) = (0, 0);
    for (i, item) in items.iter().enumerate() {
        size += len(item);
        if size >= share {
            runs.push(&items[start..=i]);
            (start, size) = (i + 1, 0);
        }
    }
    runs.push(&items[start..]);
    runs
}

/// `work` done on each run, the first on this thread and each other on a
/// thread of its own; the results in the runs' order (a panic in one is
/// raised here).
pub(super) fn on_every_core<T: Sync, R: Send>(
    runs: &[&[T]],
    work: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    let Some((first, rest)) = runs.split_first() else {
        return Vec::new();
    };
    std::thread::scope(|scope| {
        let work = &work;
        let others: Vec<_> = rest
            .iter()
            .map(|run| scope.spawn(move || work(run)))
            .collect();
        let mut results = vec![work(first)];
        for handle in others {
            match handle.join() {
                Ok(more) => results.push(more),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        results
    })
}

/// A serde_json error's message without the position serde appends.
fn without_position(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    match message.strip_suffix(&position) {
        Some(bare) => bare.to_string(),
        None => message,
    }
}

/// The scalar `visit_*` methods of a visitor that builds a
/// [`serde_json::Value`] (as serde_json's own does) and hands it to
/// `$wrap`: the readers that skip or split parts of a document
/// ([`Members`], `lazy::Outline`) build scalars alike.
macro_rules! scalar_visits {
    ($wrap:expr) => {
        fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
            Ok(($wrap)(serde_json::Value::Bool(v)))
        }
        fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
            Ok(($wrap)(serde_json::Value::from(v)))
        }
        fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
            Ok(($wrap)(serde_json::Value::from(v)))
        }
        fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
            let n = serde_json::Number::from_f64(v);
            Ok(($wrap)(n.map_or(
                serde_json::Value::Null,
                serde_json::Value::Number,
            )))
        }
        fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
            Ok(($wrap)(serde_json::Value::String(v.to_string())))
        }
        fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
            Ok(($wrap)(serde_json::Value::String(v)))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(($wrap)(serde_json::Value::Null))
        }
    };
}
pub(super) use scalar_visits;

/// The root's objects read as their members' texts (see [`Members`]).
#[derive(Default)]
struct Deferred<'de> {
    paths: Option<Members<'de>>,
    /// Kinds of `components`, in document order.
    kinds: Vec<(String, Members<'de>)>,
}

impl<'de> Deferred<'de> {
    fn is_empty(&self) -> bool {
        self.paths.is_none() && self.kinds.is_empty()
    }

    /// Each object with its pointer, and each value that is not an
    /// object with its place (`None` for `paths`, else the kind).
    fn split(self) -> (Groups<'de>, Vec<(Option<String>, Value)>) {
        let (mut groups, mut others): (Groups<'de>, _) = (Vec::new(), Vec::new());
        if let Some(Members(members, value)) = self.paths {
            match members {
                Some(members) => groups.push(("/paths".to_string(), members)),
                None => others.push((None, value)),
            }
        }
        for (kind, Members(members, value)) in self.kinds {
            match members {
                Some(members) => groups.push((format!("/components/{kind}"), members)),
                None => others.push((Some(kind), value)),
            }
        }
        (groups, others)
    }
}

/// An object's members as text, read in one pass (`Some`), or a value
/// that is not an object, parsed (`None` and the value).
struct Members<'de>(Option<Vec<(String, &'de RawValue)>>, Value);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        ReadMembers(None).deserialize(d)
    }
}

/// Reads [`Members`], sending each member's text to a checker when given
/// one (see [`checked_alongside`]).
#[derive(Clone, Copy)]
struct ReadMembers<'s, 'de>(Option<&'s Sender<&'de RawValue>>);

impl<'de> DeserializeSeed<'de> for ReadMembers<'_, 'de> {
    type Value = Members<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Members<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ReadMembers<'_, 'de> {
    type Value = Members<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(access.size_hint().unwrap_or(0));
        while let Some((key, item)) = access.next_entry::<String, &'de RawValue>()? {
            if let Some(checker) = self.0 {
                // A checker gone has failed already; the split goes on.
                let _ = checker.send(item);
            }
            out.push((key, item));
        }
        Ok(Members(Some(out), Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element::<Value>()? {
            out.push(v);
        }
        Ok(Members(None, Value::Array(out)))
    }
    scalar_visits!(|v| Members(None, v));
}

impl<'de> Visitor<'de> for PruningVisitor<'_, 'de> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.level {
            Level::Root => f.write_str("an OpenAPI document (a JSON object)"),
            Level::Components => f.write_str("a `components` object"),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            let skip = match self.level {
                Level::Root => WEBHOOKS.contains(&key.as_str()),
                Level::Components => self.prune.examples && key == "examples",
            };
            if skip {
                access.next_value::<IgnoredAny>()?;
                continue;
            }
            let value = if self.level == Level::Root && key == "components" {
                // A repeated `components`: the last one counts, as in a
                // parsed object.
                if let Some(lazy) = self.members {
                    lazy.borrow_mut().kinds.clear();
                }
                access.next_value_seed(PruningVisitor {
                    level: Level::Components,
                    ..self
                })?
            } else if self.level == Level::Components
                && let Some(lazy) = self
                    .members
                    .filter(|_| LAZY_COMPONENTS.contains(&key.as_str()))
            {
                // Read as its members' texts now (checked later, not
                // built); the key keeps its place. A repeated kind: the
                // last one counts, as in a parsed object.
                let members = access.next_value_seed(ReadMembers(self.checker))?;
                let mut lazy = lazy.borrow_mut();
                lazy.kinds.retain(|(kind, _)| *kind != key);
                lazy.kinds.push((key.clone(), members));
                Value::Object(Map::new())
            } else if self.level == Level::Root
                && key == "paths"
                && let Some(lazy) = self.members
            {
                lazy.borrow_mut().paths = Some(access.next_value_seed(ReadMembers(self.checker))?);
                Value::Object(Map::new())
            } else if self.level == Level::Root && key == "paths" {
                // Read as text now (checked, not built), parsed once the
                // rest is read; the key keeps its place.
                self.deferred
                    .set(Some(access.next_value::<&'de RawValue>()?));
                Value::Null
            } else {
                access.next_value::<Value>()?
            };
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
