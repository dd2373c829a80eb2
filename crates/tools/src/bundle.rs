//! Schema bundling: the schemas a tool uses are gathered into its schema's
//! `$defs` instead of being expanded inline, so recursive schemas stay
//! finite and shared components are written once per tool.
//!
//! Every referenced schema gets one `$defs` key for the whole document
//! (`#/components/schemas/Pet` → `Pet`), and is converted to JSON Schema
//! 2020-12 once per [`Direction`]; a tool's `$defs` is the closure of what
//! it references, copied from that cache. A reference to nothing becomes a
//! permissive placeholder plus a diagnostic, never a failure of the tool.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::{Arc, OnceLock, RwLock};

use serde_json::{Map, Value, json};

use super::budget::{self, Fitted, Side};
use openapi2mcp_document::dialect::Direction;
use openapi2mcp_document::model::{RefTarget, Schema};
use openapi2mcp_document::pointer::unescape_token;
use openapi2mcp_document::{Diagnostic, Document};

/// Document-wide `$defs` keys and converted schemas.
pub struct SchemaBundler<'d> {
    doc: &'d Document,
    state: BundleState,
}

/// What a [`SchemaBundler`] has learnt of a document: the key table and
/// the conversions made so far. Kept after the build (see
/// [`super::live::LiveSchemas`]) so that later conversions use the same keys.
/// A clone may be [`BundleState::frozen`] for building tools on several
/// threads at once (see [`super::lazy`]).
#[derive(Default, Clone)]
pub struct BundleState {
    keys: KeyTable,
    converted: ConvertedCache,
    diagnostics: Vec<Diagnostic>,
    components: Vec<String>,
    dangling: HashSet<String, foldhash::fast::RandomState>,
    strict_output: bool,
    /// What the frozen clones of one state convert and fit, shared by
    /// them (see [`BundleState::frozen`]): each conversion is made once
    /// whatever thread needs it first.
    shared: Option<Arc<Shared>>,
}

/// Conversions and fitted schemas shared by the frozen clones of a state.
#[derive(Default)]
struct Shared {
    converted: RwLock<ConvertedCache>,
    /// Output schemas fitted to a budget, by what was fitted (see
    /// [`SchemaBundler::fit_output`]).
    fitted: RwLock<FastMap<FitKey, Arc<SharedFit>>>,
}

/// An output schema fitted to its budget (see [`SchemaBundler::fit_output`]).
#[derive(Clone)]
pub struct SharedFit {
    /// What `tools/list` shows, held by every tool with this result.
    pub listed: Arc<Map<String, Value>>,
    /// The full top level when `listed` summarizes it (as
    /// [`Fitted::full`]).
    pub full: Option<Value>,
}

/// What a fitted output schema depends on: the top level (as compact
/// JSON), the budget and the resource named for the tool's full schema.
/// The `$defs` it reaches follow from the top level and the key table.
#[derive(Clone, PartialEq, Eq, Hash)]
struct FitKey {
    top: String,
    budget: usize,
    self_uri: String,
}

impl BundleState {
    /// The keys of the root document's component schemas, in order.
    pub fn components(&self) -> &[String] {
        &self.components
    }

    /// This state with its key table frozen: a reference to a target
    /// that has no key yet assigns none (a new key's name depends on the
    /// keys assigned before it, so only a build in tool order may assign
    /// one) and marks the tool being built as missed (see
    /// [`SchemaBundler::begin_tool`]); conversions made meanwhile are not
    /// kept. What a frozen state does build equals what the unfrozen one
    /// would.
    pub fn frozen(mut self) -> Self {
        self.keys.frozen = true;
        self.shared = Some(Arc::default());
        self
    }

    /// Takes in the conversions and dangling keys `other` (a frozen clone
    /// of this state, see [`BundleState::frozen`]) made, so that later
    /// builds do not convert them again; its fitted schemas go.
    pub fn absorb(&mut self, other: BundleState) {
        self.converted.absorb(&other.converted);
        if let Some(shared) = other.shared {
            {
                let converted = shared.converted.read().unwrap_or_else(|e| e.into_inner());
                self.converted.absorb(&converted);
            }
            // The last holder lets go of what the build fitted (Graph: a
            // few thousand fitted results) on a thread of its own: this
            // one goes on to assemble the list meanwhile.
            if let Some(last) = Arc::into_inner(shared) {
                super::let_go(last);
            }
        }
        self.dangling.extend(other.dangling);
    }
}

/// A map hashed with foldhash: the bundler's maps are read on every
/// `$ref` of every tool (SipHash was a tenth of Graph's tool build).
type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// Converted schemas by `$defs` key and direction: looked up without
/// building a key (a `(String, Direction)` key cost an allocation on
/// every `$ref` a tool's schema meets) and hashed with foldhash.
#[derive(Default, Clone)]
struct ConvertedCache {
    by_key: FastMap<String, [Option<Arc<Converted>>; DIRECTIONS]>,
}

/// The [`Direction`]s a schema may be converted in.
const DIRECTIONS: usize = 4;
const _: () = assert!(Direction::Document as usize + 1 == DIRECTIONS);

impl ConvertedCache {
    fn get(&self, key: &str, direction: Direction) -> Option<&Arc<Converted>> {
        self.by_key.get(key)?[direction as usize].as_ref()
    }

    fn insert(&mut self, key: &str, direction: Direction, converted: Arc<Converted>) {
        let slots = match self.by_key.get_mut(key) {
            Some(slots) => slots,
            None => self.by_key.entry(key.to_string()).or_default(),
        };
        slots[direction as usize] = Some(converted);
    }

    /// Takes in what `other` has and this does not.
    fn absorb(&mut self, other: &ConvertedCache) {
        for (key, theirs) in &other.by_key {
            let ours = match self.by_key.get_mut(key.as_str()) {
                Some(ours) => ours,
                None => self.by_key.entry(key.clone()).or_default(),
            };
            for (ours, theirs) in ours.iter_mut().zip(theirs) {
                if ours.is_none() {
                    ours.clone_from(theirs);
                }
            }
        }
    }
}

/// One converted `$defs` entry, the keys it references directly, and its
/// size as compact JSON.
pub struct Converted {
    /// The JSON Schema 2020-12 form, `$ref`s pointing at `#/$defs/…`.
    pub schema: Arc<Value>,
    /// Keys referenced directly.
    pub deps: Vec<String>,
    /// Bytes of `schema` as compact JSON.
    pub size: usize,
    /// The summary a tool's schema lists where this def lies deeper than
    /// the budget allows, with full descriptions (see `budget`), made
    /// once: a Graph entity is summarized in hundreds of tools.
    pub summary: OnceLock<Value>,
}

impl Converted {
    /// `schema` (referencing `deps` directly) and its size.
    pub fn new(schema: Value, deps: Vec<String>) -> Self {
        Self {
            size: json_size(&schema),
            schema: Arc::new(schema),
            deps,
            summary: OnceLock::new(),
        }
    }
}

/// Whether `value` (a summary) names a target a frozen key table had no
/// key for (see [`MISSED_KEY`]): it belongs to a build that is thrown
/// away, and is not kept.
pub(crate) fn mentions_missed(value: &Value) -> bool {
    super::any_text(value, &|text| text.contains(MISSED_KEY))
}

/// Ref target (file key, pointer) ↔ `$defs` key.
#[derive(Default, Clone)]
struct KeyTable {
    by_target: FastMap<(String, String), String>,
    targets: FastMap<String, (String, String)>,
    used: HashSet<String, foldhash::fast::RandomState>,
    /// No key may be assigned (see [`BundleState::frozen`]).
    frozen: bool,
    /// A frozen table was asked for a key it does not have.
    missed: bool,
}

/// What a frozen key table answers for a target without a key: no key
/// can be named so (a `$defs` key never starts with a control character),
/// and the build it was asked for is thrown away.
pub(crate) const MISSED_KEY: &str = "\u{1}missed";

impl KeyTable {
    /// The key for a target, assigning a new unique one on first sight.
    fn key_for(&mut self, file: String, pointer: String) -> &str {
        let target = (file, pointer);
        if !self.by_target.contains_key(&target) {
            if self.frozen {
                self.missed = true;
                return MISSED_KEY;
            }
            let base = def_name(&target.1);
            let mut key = base.clone();
            let mut n = 2;
            while self.used.contains(&key) {
                key = format!("{base}_{n}");
                n += 1;
            }
            self.used.insert(key.clone());
            self.targets.insert(key.clone(), target.clone());
            self.by_target.insert(target.clone(), key);
        }
        &self.by_target[&target]
    }
}

/// A readable `$defs` key from a JSON pointer's last token, limited to
/// characters that need no escaping in a `$ref`.
fn def_name(pointer: &str) -> String {
    let last = pointer.rsplit('/').next().unwrap_or_default();
    let last = unescape_token(last);
    let name: String = last
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() { "root".into() } else { name }
}

impl<'d> SchemaBundler<'d> {
    /// A bundler for one document. Every schema under the root document's
    /// `components/schemas` gets its key first, in document order, so that
    /// keys (and the resource names made from them) do not depend on which
    /// operation happened to reference a schema first.
    pub fn new(doc: &'d Document) -> Self {
        let mut state = BundleState::default();
        let root = doc.root_key().to_string();
        for pointer in doc.component_schema_pointers() {
            let key = state.keys.key_for(root.clone(), pointer).to_string();
            state.components.push(key);
        }
        Self { doc, state }
    }

    /// Output schemas as the document types them ([`Direction::StrictOutput`])
    /// instead of tolerant ones ([`Direction::Output`]), for this bundler
    /// and whatever later resumes its state.
    pub fn strict_output(mut self, strict: bool) -> Self {
        self.state.strict_output = strict;
        self
    }

    /// The direction output schemas are converted in (see
    /// [`SchemaBundler::strict_output`]).
    pub fn output_direction(&self) -> Direction {
        if self.state.strict_output {
            Direction::StrictOutput
        } else {
            Direction::Output
        }
    }

    /// Picks up where an earlier bundler of the same document stopped.
    pub fn resume(doc: &'d Document, state: BundleState) -> Self {
        Self { doc, state }
    }

    /// Lets go of the document, keeping what was learnt.
    pub fn into_state(self) -> BundleState {
        self.state
    }

    /// Converts `schema`, rewriting its `$ref`s to `#/$defs/…` and adding
    /// the keys they name to `deps`.
    pub fn convert(
        &mut self,
        schema: &Schema<'_>,
        direction: Direction,
        deps: &mut BTreeSet<String>,
    ) -> Value {
        let mut found = Vec::new();
        let schema = self.convert_raw(schema, direction, &mut found);
        deps.extend(found);
        schema
    }

    fn convert_raw(
        &mut self,
        schema: &Schema<'_>,
        direction: Direction,
        found: &mut Vec<String>,
    ) -> Value {
        let keys = &mut self.state.keys;
        let diagnostics = &mut self.state.diagnostics;
        schema.convert(direction, &mut |target| {
            let key = match target {
                RefTarget::Found { file, pointer } => keys.key_for(file, pointer).to_string(),
                RefTarget::Broken {
                    from,
                    reference,
                    diagnostic,
                } => {
                    diagnostics.push(diagnostic);
                    keys.key_for(from.to_string(), format!("/unresolved/{reference}"))
                        .to_string()
                }
            };
            let pointer = format!("#/$defs/{}", key);
            if !found.contains(&key) {
                found.push(key);
            }
            pointer
        })
    }

    /// The `$defs` map for `deps` and everything they reference, sorted by key.
    pub fn defs(&mut self, deps: &BTreeSet<String>, direction: Direction) -> Map<String, Value> {
        let mut closure: BTreeMap<String, Arc<Converted>> = BTreeMap::new();
        let mut queue: Vec<String> = deps.iter().cloned().collect();
        while let Some(key) = queue.pop() {
            if closure.contains_key(&key) {
                continue;
            }
            let entry = self.entry(&key, direction);
            queue.extend(
                entry
                    .deps
                    .iter()
                    .filter(|d| !closure.contains_key(*d))
                    .cloned(),
            );
            closure.insert(key, entry);
        }
        closure
            .into_iter()
            .map(|(k, c)| (k, (*c.schema).clone()))
            .collect()
    }

    /// Starts building one tool with a frozen state (see
    /// [`BundleState::frozen`]): forgets an earlier miss and returns the
    /// mark to hand [`SchemaBundler::end_tool`].
    pub fn begin_tool(&mut self) -> usize {
        self.state.keys.missed = false;
        self.state.diagnostics.len()
    }

    /// Ends the tool begun at `mark`: `false` when it referenced a target
    /// without a key (what was built must then be thrown away, and the
    /// tool built again in order with an unfrozen state); its diagnostics
    /// are dropped with it.
    pub fn end_tool(&mut self, mark: usize) -> bool {
        if self.state.keys.missed {
            self.state.diagnostics.truncate(mark);
            self.state.keys.missed = false;
            return false;
        }
        true
    }

    /// The converted schema of `key` (converted on first use, then cached).
    pub fn entry(&mut self, key: &str, direction: Direction) -> Arc<Converted> {
        if let Some(c) = self.state.converted.get(key, direction) {
            return Arc::clone(c);
        }
        if let Some(shared) = &self.state.shared {
            let found = shared
                .converted
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .get(key, direction)
                .cloned();
            if let Some(c) = found {
                // Kept here too: the threads of a bulk build would
                // otherwise meet at the shared lock on every `$ref`.
                self.state.converted.insert(key, direction, Arc::clone(&c));
                return c;
            }
        }
        let (schema, deps) = match self.state.keys.targets.get(key).cloned() {
            Some((file, pointer)) => self.convert_target(key, &file, &pointer, direction),
            None => (json!({}), Vec::new()),
        };
        let rc = Arc::new(Converted::new(schema, deps));
        // A conversion that met a target without a key (frozen table) is
        // wrong and must not outlive the tool being built.
        if !self.state.keys.missed {
            if let Some(shared) = &self.state.shared {
                let mut converted = shared.converted.write().unwrap_or_else(|e| e.into_inner());
                converted.insert(key, direction, Arc::clone(&rc));
            }
            self.state.converted.insert(key, direction, Arc::clone(&rc));
        }
        rc
    }

    /// `top` (converted, referencing `deps`) fitted to `budget` bytes: as
    /// is with its `$defs` when it fits, else summarized (see
    /// [`super::budget`]). `self_uri` is the resource of the tool's full
    /// schema.
    pub fn fit(
        &mut self,
        top: Map<String, Value>,
        deps: &BTreeSet<String>,
        side: Side,
        budget: usize,
        self_uri: &str,
    ) -> Fitted {
        let direction = match side {
            Side::Input => Direction::Input,
            Side::Output => self.output_direction(),
        };
        let mut lookup = |k: &str| self.entry(k, direction);
        budget::fit(top, deps, side, budget, &mut lookup, self_uri)
    }

    /// [`SchemaBundler::fit`] of an output schema, shared: tools share
    /// their results (a Graph entity is the result of dozens of
    /// operations), so in a bulk build (a frozen state, see
    /// `BundleState::frozen`) each distinct schema is fitted once and its
    /// tools hold the one listed schema (neither copied for each nor
    /// dropped by each); what was fitted is let go of with the state.
    /// Only results: arguments repeat less and would be held in full.
    pub fn fit_output(
        &mut self,
        top: Map<String, Value>,
        deps: &BTreeSet<String>,
        budget: usize,
        self_uri: &str,
    ) -> SharedFit {
        let key = self
            .state
            .shared
            .is_some()
            .then(|| serde_json::to_string(&top).ok())
            .flatten()
            .map(|top| FitKey {
                top,
                budget,
                self_uri: self_uri.to_string(),
            });
        let shared = self.state.shared.clone();
        if let (Some(key), Some(shared)) = (&key, &shared) {
            let fitted = shared.fitted.read().unwrap_or_else(|e| e.into_inner());
            if let Some(fitted) = fitted.get(key) {
                return (**fitted).clone();
            }
        }
        let fitted = self.fit(top, deps, Side::Output, budget, self_uri);
        let listed = match fitted.listed {
            Value::Object(listed) => listed,
            // Never: the budget keeps an object an object. An open object
            // is still true of every result.
            _ => Map::from_iter([("type".to_string(), json!("object"))]),
        };
        let fitted = SharedFit {
            listed: Arc::new(listed),
            full: fitted.full,
        };
        if let (Some(key), Some(shared)) = (key, shared)
            && !self.state.keys.missed
        {
            let mut memo = shared.fitted.write().unwrap_or_else(|e| e.into_inner());
            memo.insert(key, Arc::new(fitted.clone()));
        }
        fitted
    }

    /// Whether `key` names a schema of this document.
    pub fn knows(&self, key: &str) -> bool {
        self.state.keys.targets.contains_key(key)
    }

    /// Whether `key` names a reference that leads nowhere (known once its
    /// entry was asked for).
    pub fn dangling(&self, key: &str) -> bool {
        self.state.dangling.contains(key)
    }

    fn convert_target(
        &mut self,
        key: &str,
        file: &str,
        pointer: &str,
        direction: Direction,
    ) -> (Value, Vec<String>) {
        let doc = self.doc;
        match doc.schema_at(file, pointer) {
            Some(schema) => {
                let mut deps = Vec::new();
                let schema = self.convert_raw(&schema, direction, &mut deps);
                (schema, deps)
            }
            None => {
                self.state.dangling.insert(key.to_string());
                let shown = pointer.trim_start_matches("/unresolved/");
                self.state.diagnostics.push(Diagnostic::warning(
                    doc.display_name(file),
                    "",
                    format!(
                        "schema reference `{shown}` points at nothing; any value accepted there"
                    ),
                ));
                (
                    json!({"$comment": format!("unresolved reference {shown}")}),
                    Vec::new(),
                )
            }
        }
    }

    /// Diagnostics gathered so far (unresolved references), deduplicated.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = Vec::new();
        for d in self.state.diagnostics.drain(..) {
            if !out.contains(&d) {
                out.push(d);
            }
        }
        out
    }
}

/// Bytes of `value` as compact JSON, without building the text.
pub use openapi2mcp_model::wire::json_size;

#[cfg(test)]
#[path = "bundle_tests.rs"]
mod tests;
