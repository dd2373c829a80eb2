//! Objects of the root document kept as text: an index of each member's
//! key and where its text is, with nothing built. The root's `paths` is
//! most of a large document (18 of Microsoft Graph's 21 MB), and the
//! members of `components` (schemas above all) most of the rest; a tree
//! of them costs about nine times their text (`serde_json::Value` with key
//! order kept), and most of it is never read: a large document's path
//! items are read once each to plan its tools, and only the components
//! some operation reaches are read at all (GitHub's REST description:
//! 625 of 969 schemas, 0.7 of 2.7 MB).
//!
//! A path item is parsed when it is read: for one use by a walk over the
//! operations ([`super::model::PathItems`]: planning every tool, building
//! a listed tool), dropped after it; or kept for the life of the document
//! when something holds on to it (a `$ref` into `paths`, the operations
//! handed out by [`super::Document::operations`]). A component is parsed
//! the first time a reference reaches it and kept. The text is checked
//! whole when the document is loaded, with the same errors a parse would
//! give, so parsing a member later cannot fail.
//!
//! The choice was measured (see "Full-list performance (issue 27)" in
//! bench/README.md): a `RawValue` index over the text was the smallest of
//! the representations tried and kept `serde_json::Value`, which the rest
//! of the document layer reads, for the parts that are read.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use serde::de::{
    Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use super::model::TOOL_EXTENSIONS;
use super::model::pointers::{ADDITIONAL_OPERATIONS, FIXED_METHODS};
use super::parse::scalar_visits;

/// An object of the root document (its `paths`, or one kind of its
/// `components`), as text (see the module documentation).
pub struct LazyMap {
    /// The document's text, shared by every object of it kept as text
    /// (copying each object's span cost a fifth of loading GitHub's
    /// description, in copies and first touches of fresh pages).
    text: Arc<String>,
    /// Each path item: its key and its text's place in `text`, in
    /// document order (a repeated key keeps its first place and its last
    /// text, as a parsed object keeps it).
    items: Vec<(String, Range<usize>)>,
    /// By key, hashed with foldhash (looked up for every `$ref` and path
    /// a build reads).
    index: HashMap<String, usize, foldhash::fast::RandomState>,
    /// Items kept once parsed (see [`LazyMap::kept`]).
    kept: Vec<OnceLock<Value>>,
    /// Whether the members are path items (loading coerces their
    /// operations' ids, summaries and descriptions to strings).
    path_items: bool,
}

impl fmt::Debug for LazyMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LazyMap")
            .field("items", &self.items.len())
            .field(
                "items_text_bytes",
                &self.items.iter().map(|(_, r)| r.len()).sum::<usize>(),
            )
            .finish_non_exhaustive()
    }
}

impl LazyMap {
    /// The path items `entries` (keys and places in `text`, in document
    /// order, checked already) of the document `text`.
    pub(super) fn paths(text: &Arc<String>, entries: Vec<(String, Range<usize>)>) -> Self {
        Self::new(text, entries, true)
    }

    /// The members `entries` of one kind of `components` (as
    /// [`LazyMap::paths`]).
    pub(super) fn components(text: &Arc<String>, entries: Vec<(String, Range<usize>)>) -> Self {
        Self::new(text, entries, false)
    }

    fn new(text: &Arc<String>, entries: Vec<(String, Range<usize>)>, path_items: bool) -> Self {
        let text = Arc::clone(text);
        let mut items: Vec<(String, Range<usize>)> = Vec::with_capacity(entries.len());
        let mut index = HashMap::with_capacity_and_hasher(
            entries.len(),
            foldhash::fast::RandomState::default(),
        );
        for (key, range) in entries {
            match index.get(&key) {
                Some(&at) => items[at] = (key, range),
                None => {
                    index.insert(key.clone(), items.len());
                    items.push((key, range));
                }
            }
        }
        let kept = items.iter().map(|_| OnceLock::new()).collect();
        Self {
            text,
            items,
            index,
            kept,
            path_items,
        }
    }

    /// How many path items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether `paths` is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The keys, in document order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.items.iter().map(|(key, _)| key.as_str())
    }

    /// The key of item `at`.
    pub fn key(&self, at: usize) -> &str {
        &self.items[at].0
    }

    /// The item whose key is `key`.
    pub fn find(&self, key: &str) -> Option<usize> {
        self.index.get(key).copied()
    }

    /// Bytes of item `at`'s text (to share the items out evenly).
    pub fn text_len(&self, at: usize) -> usize {
        self.items[at].1.len()
    }

    /// The text of item `at` (to look for something without parsing).
    pub fn text(&self, at: usize) -> &str {
        &self.text[self.items[at].1.clone()]
    }

    /// Item `at`, parsed for one use (the one kept, if any, is not used:
    /// the caller owns what it gets).
    pub fn parse(&self, at: usize) -> Value {
        let text = &self.text[self.items[at].1.clone()];
        // Checked when loaded: parsing cannot fail. Should it ever, the
        // item reads as not a mapping, which `operations` reports.
        let mut item = serde_json::from_str(text).unwrap_or(Value::Null);
        if self.path_items {
            // What loading does to the path items of a tree.
            super::load::coerce_path_item(&mut item);
        }
        item
    }

    /// Item `at` (a path item) parsed with only what planning reads (see
    /// [`outline`]), for one use: the planning walk reads every path
    /// item of a document, and half of a large one's text is responses,
    /// parameter schemas and extensions it never reads.
    pub fn parse_outline(&self, at: usize) -> Value {
        let text = &self.text[self.items[at].1.clone()];
        let mut de = serde_json::Deserializer::from_str(text);
        let mut item = Outline(Level::Item)
            .deserialize(&mut de)
            .unwrap_or(Value::Null);
        super::load::coerce_path_item(&mut item);
        item
    }

    /// Item `at`, parsed once and kept for the life of the document.
    pub fn kept(&self, at: usize) -> &Value {
        self.kept[at].get_or_init(|| self.parse(at))
    }

    /// Item `at` if it was kept already.
    pub fn kept_already(&self, at: usize) -> Option<&Value> {
        self.kept[at].get()
    }
}

/// The object written out as it is (each member parsed for the write),
/// exactly as its parsed tree would be.
impl Serialize for LazyMap {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.items.len()))?;
        for (at, (key, _)) in self.items.iter().enumerate() {
            match self.kept_already(at) {
                Some(value) => map.serialize_entry(key, value)?,
                None => map.serialize_entry(key, &self.parse(at))?,
            }
        }
        map.end()
    }
}

/// A path item's outline: the path item as parsed, less what planning a
/// tool never reads (the planning walk of the tool builder's `tools::plan` names,
/// describes and lists the arguments of each operation; its schemas are
/// read when the tool is built, from the whole item):
/// - an operation's `responses`, `callbacks` and `externalDocs`;
/// - a parameter's `schema`, `example` and `examples`;
/// - extensions (`x-…`) of path items, operations and parameters, but
///   those a tool is named and chosen by ([`TOOL_EXTENSIONS`]: `x-mcp`
///   and the other generators' extensions of the same meaning).
///
/// Requests bodies are kept whole (their properties are arguments).
/// Everything else is parsed as it is. The test
/// `outlines_plan_the_tools_a_whole_item_plans` holds the planning walk
/// to it.
#[derive(Clone, Copy)]
struct Outline(Level);

/// Where in a path item an [`Outline`] is.
#[derive(Clone, Copy, PartialEq)]
enum Level {
    Item,
    /// `additionalOperations` (OpenAPI 3.2): operations by method.
    Operations,
    Operation,
    Parameters,
    Parameter,
}

impl Outline {
    /// What `key`'s value is at this level: skipped (`None`), or read at
    /// which level (`Some(None)`: as a plain value).
    fn child(self, key: &str) -> Option<Option<Level>> {
        let extension = key.starts_with("x-") && !TOOL_EXTENSIONS.contains(&key);
        match self.0 {
            Level::Item if extension => None,
            Level::Item if FIXED_METHODS.contains(&key) => Some(Some(Level::Operation)),
            Level::Item if key == ADDITIONAL_OPERATIONS => Some(Some(Level::Operations)),
            Level::Item | Level::Operation if key == "parameters" => Some(Some(Level::Parameters)),
            Level::Operations if extension => Some(None),
            Level::Operations => Some(Some(Level::Operation)),
            Level::Operation
                if extension || matches!(key, "responses" | "callbacks" | "externalDocs") =>
            {
                None
            }
            Level::Parameter if extension || matches!(key, "schema" | "example" | "examples") => {
                None
            }
            _ => Some(None),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Outline {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Outline {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    scalar_visits!(std::convert::identity);
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        if self.0 == Level::Parameters {
            while let Some(v) = seq.next_element_seed(Outline(Level::Parameter))? {
                out.push(v);
            }
        } else {
            while let Some(v) = seq.next_element::<Value>()? {
                out.push(v);
            }
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = match self.child(&key) {
                None => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
                Some(Some(level)) => map.next_value_seed(Outline(level))?,
                Some(None) => map.next_value::<Value>()?,
            };
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

/// Checks that `text` parses into a `serde_json::Value`, building
/// nothing: every string, number and nesting level is read exactly as a
/// parse reads it (escapes and surrogates, number ranges, the depth
/// limit), so the same text fails with the same error.
pub(super) fn check(text: &str) -> Result<(), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    <Check as Deserialize>::deserialize(&mut de)?;
    de.end()
}

/// A value read and thrown away (see [`check`]).
struct Check;

impl<'de> Deserialize<'de> for Check {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CheckVisitor)
    }
}

impl<'de> DeserializeSeed<'de> for Check {
    type Value = Check;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Check, D::Error> {
        d.deserialize_any(CheckVisitor)
    }
}

struct CheckVisitor;

impl<'de> Visitor<'de> for CheckVisitor {
    type Value = Check;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_str<E>(self, _: &str) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_borrowed_str<E>(self, _: &'de str) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_unit<E>(self) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Check, A::Error> {
        while seq.next_element_seed(Check)?.is_some() {}
        Ok(Check)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Check, A::Error> {
        while map.next_key_seed(Check)?.is_some() {
            map.next_value_seed(Check)?;
        }
        Ok(Check)
    }
}

#[cfg(test)]
#[path = "lazy_tests.rs"]
mod tests;
