//! Issue 11: which representation should hold a parsed OpenAPI document?
//!
//! One process measures one representation on one document, so that its
//! peak RSS (VmHWM) is its own:
//!
//!     parse-bench VARIANT DOC [MODE] [EVERY]
//!
//! MODE is `parse` (read + parse only; for the lazy variants: the path and
//! components index only), `walk` (then every selected operation and every
//! `$ref` it reaches, transitively, each target once for the whole document)
//! or `closure` (the same, but each operation follows its own `$ref`
//! closure again, as a tool with its own `$defs` would). EVERY=K selects
//! every K-th operation (default 1: all).
//!
//! It prints one JSON line: read/parse/walk times in ms, VmHWM in kB, and
//! counts and checksums of what the walk saw (nodes, refs, an order-free
//! checksum that must agree between variants, and an order-sensitive hash
//! that agrees only when the representation keeps the document's key order).
//! `bench/parse.sh` runs it and makes the table.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::time::Instant;

use serde_json::value::RawValue;

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

// ---------------------------------------------------------------------------
// A read-only view of a JSON node, implemented by every eager representation.

/// A node's shape; an object's members and an array's items are pushed
/// onto a caller's buffer (no allocation per node).
enum Shape<'a> {
    Obj,
    Arr,
    Str(&'a str),
    Scalar,
}

/// Children as pushed by [`Node::shape`]: (member key, node).
type Children<'a, T> = Vec<(Option<&'a str>, T)>;

trait Node<'a>: Copy + 'a {
    /// The node's shape; members or items are pushed onto `out` in the
    /// representation's iteration order.
    fn shape(self, out: &mut Children<'a, Self>) -> Shape<'a>;
    /// Shape without children.
    fn leaf(self) -> Shape<'a> {
        let mut none = Vec::new();
        let s = self.shape(&mut none);
        s
    }
    /// Members of an object, in iteration order.
    fn members(self) -> Children<'a, Self> {
        let mut out = Vec::new();
        match self.shape(&mut out) {
            Shape::Obj => out,
            _ => Vec::new(),
        }
    }
    /// Member `key` of an object.
    fn get(self, key: &str) -> Option<Self>;
    /// Element `index` of an array.
    fn index(self, index: usize) -> Option<Self>;
    /// The node's identity (its address).
    fn id(self) -> usize;
    /// The string member `$ref`, if this is an object that has one.
    fn ref_str(self) -> Option<&'a str> {
        match self.get("$ref")?.leaf() {
            Shape::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl<'a> Node<'a> for &'a serde_json::Value {
    fn id(self) -> usize {
        std::ptr::from_ref(self) as usize
    }
    fn shape(self, out: &mut Children<'a, Self>) -> Shape<'a> {
        match self {
            serde_json::Value::Object(m) => { out.extend(m.iter().map(|(k, v)| (k.as_str(), v)).map(|(k, v)| (Some(k), v))); Shape::Obj },
            serde_json::Value::Array(a) => { out.extend(a.iter().map(|v| (None, v))); Shape::Arr },
            serde_json::Value::String(s) => Shape::Str(s),
            _ => Shape::Scalar,
        }
    }
    fn get(self, key: &str) -> Option<Self> {
        self.as_object()?.get(key)
    }
    fn index(self, index: usize) -> Option<Self> {
        self.as_array()?.get(index)
    }
}

impl<'a> Node<'a> for &'a sonic_rs::Value {
    fn id(self) -> usize {
        std::ptr::from_ref(self) as usize
    }
    fn shape(self, out: &mut Children<'a, Self>) -> Shape<'a> {
        use sonic_rs::{JsonContainerTrait, JsonValueTrait};
        if let Some(m) = self.as_object() {
            { out.extend(m.iter().map(|(k, v)| (Some(k), v))); Shape::Obj }
        } else if let Some(a) = self.as_array() {
            { out.extend(a.iter().map(|v| (None, v))); Shape::Arr }
        } else if let Some(s) = self.as_str() {
            Shape::Str(s)
        } else {
            Shape::Scalar
        }
    }
    fn get(self, key: &str) -> Option<Self> {
        sonic_rs::JsonContainerTrait::as_object(self)?.get(&key)
    }
    fn index(self, index: usize) -> Option<Self> {
        use sonic_rs::JsonContainerTrait;
        self.as_array()?.get(index)
    }
}

impl<'a> Node<'a> for &'a simd_json::OwnedValue {
    fn id(self) -> usize {
        std::ptr::from_ref(self) as usize
    }
    fn shape(self, out: &mut Children<'a, Self>) -> Shape<'a> {
        use simd_json::OwnedValue as V;
        match self {
            V::Object(m) => { out.extend(m.iter().map(|(k, v)| (k.as_str(), v)).map(|(k, v)| (Some(k), v))); Shape::Obj },
            V::Array(a) => { out.extend(a.iter().map(|v| (None, v))); Shape::Arr },
            V::String(s) => Shape::Str(s),
            V::Static(_) => Shape::Scalar,
        }
    }
    fn get(self, key: &str) -> Option<Self> {
        match self {
            simd_json::OwnedValue::Object(m) => m.get(key),
            _ => None,
        }
    }
    fn index(self, index: usize) -> Option<Self> {
        match self {
            simd_json::OwnedValue::Array(a) => a.get(index),
            _ => None,
        }
    }
}

impl<'a, 'b: 'a> Node<'a> for &'a simd_json::BorrowedValue<'b> {
    fn id(self) -> usize {
        std::ptr::from_ref(self) as usize
    }
    fn shape(self, out: &mut Children<'a, Self>) -> Shape<'a> {
        use simd_json::BorrowedValue as V;
        match self {
            V::Object(m) => { out.extend(m.iter().map(|(k, v)| (k.as_ref(), v)).map(|(k, v)| (Some(k), v))); Shape::Obj },
            V::Array(a) => { out.extend(a.iter().map(|v| (None, v))); Shape::Arr },
            V::String(s) => Shape::Str(s),
            V::Static(_) => Shape::Scalar,
        }
    }
    fn get(self, key: &str) -> Option<Self> {
        match self {
            simd_json::BorrowedValue::Object(m) => m.get(key),
            _ => None,
        }
    }
    fn index(self, index: usize) -> Option<Self> {
        match self {
            simd_json::BorrowedValue::Array(a) => a.get(index),
            _ => None,
        }
    }
}

impl<'a, 'b: 'a> Node<'a> for simd_json::tape::Value<'a, 'b> {
    fn id(self) -> usize {
        // SAFETY: tape::Value is a #[repr(transparent)] wrapper of a slice.
        let nodes: &[simd_json::Node<'b>] = unsafe { std::mem::transmute(self) };
        nodes.as_ptr() as usize
    }
    fn shape(self, out: &mut Children<'a, Self>) -> Shape<'a> {
        use simd_json::prelude::ValueIntoString;
        if let Some(m) = self.as_object() {
            { out.extend(m.iter().map(|(k, v)| (Some(k), v))); Shape::Obj }
        } else if let Some(a) = self.as_array() {
            { out.extend(a.iter().map(|v| (None, v))); Shape::Arr }
        } else if let Some(s) = self.into_string() {
            Shape::Str(s)
        } else {
            Shape::Scalar
        }
    }
    fn get(self, key: &str) -> Option<Self> {
        self.as_object()?.get(key)
    }
    fn index(self, index: usize) -> Option<Self> {
        self.as_array()?.get(index)
    }
}

impl<'a> Node<'a> for &'a ijson::IValue {
    fn id(self) -> usize {
        std::ptr::from_ref(self) as usize
    }
    fn shape(self, out: &mut Children<'a, Self>) -> Shape<'a> {
        if let Some(m) = self.as_object() {
            { out.extend(m.iter().map(|(k, v)| (k.as_str(), v)).map(|(k, v)| (Some(k), v))); Shape::Obj }
        } else if let Some(a) = self.as_array() {
            { out.extend(a.iter().map(|v| (None, v))); Shape::Arr }
        } else if let Some(s) = self.as_string() {
            Shape::Str(s.as_str())
        } else {
            Shape::Scalar
        }
    }
    fn get(self, key: &str) -> Option<Self> {
        self.as_object()?.get(key)
    }
    fn index(self, index: usize) -> Option<Self> {
        self.as_array()?.get(index)
    }
}

impl<'a, 'b: 'a> Node<'a> for &'a jiter::JsonValue<'b> {
    fn id(self) -> usize {
        std::ptr::from_ref(self) as usize
    }
    fn shape(self, out: &mut Children<'a, Self>) -> Shape<'a> {
        use jiter::JsonValue as V;
        match self {
            V::Object(m) => { out.extend(m.iter().map(|(k, v)| (k.as_ref(), v)).map(|(k, v)| (Some(k), v))); Shape::Obj },
            V::Array(a) => { out.extend(a.iter().map(|v| (None, v))); Shape::Arr },
            V::Str(s) => Shape::Str(s),
            _ => Shape::Scalar,
        }
    }
    fn get(self, key: &str) -> Option<Self> {
        match self {
            jiter::JsonValue::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    fn index(self, index: usize) -> Option<Self> {
        match self {
            jiter::JsonValue::Array(a) => a.get(index),
            _ => None,
        }
    }
}

impl<'a, 'b: 'a> Node<'a> for &'a serde_json_borrow::Value<'b> {
    fn id(self) -> usize {
        std::ptr::from_ref(self) as usize
    }
    fn shape(self, out: &mut Children<'a, Self>) -> Shape<'a> {
        use serde_json_borrow::Value as V;
        match self {
            V::Object(m) => { out.extend(m.iter().map(|(k, v)| (Some(k), v))); Shape::Obj },
            V::Array(a) => { out.extend(a.iter().map(|v| (None, v))); Shape::Arr },
            V::Str(s) => Shape::Str(s),
            _ => Shape::Scalar,
        }
    }
    fn get(self, key: &str) -> Option<Self> {
        match self {
            serde_json_borrow::Value::Object(m) => m.get(key),
            _ => None,
        }
    }
    fn index(self, index: usize) -> Option<Self> {
        match self {
            serde_json_borrow::Value::Array(a) => a.get(index),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// The walk: what building the tool model touches.

/// Splits `#/a/b~1c` into unescaped tokens; `None` for refs to other files.
fn pointer_tokens(reference: &str) -> Option<Vec<String>> {
    let frag = reference.strip_prefix('#')?;
    if frag.is_empty() {
        return Some(Vec::new());
    }
    Some(
        frag.strip_prefix('/')?
            .split('/')
            .map(|t| t.replace("%7B", "{").replace("%7D", "}").replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

fn fnv(h: u64, s: &str) -> u64 {
    let mut h = h;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h ^ 0xff
}

#[derive(Default)]
struct Stats {
    ops: u64,
    nodes: u64,
    refs: u64,
    unresolved: u64,
    /// Order-free: wrapping sum of the hashes of keys and strings.
    sum: u64,
    /// Order-sensitive: a chain over keys and strings in visiting order.
    order: u64,
}

/// Resolves `$ref` strings to nodes (memoized by the caller's strategy).
trait Resolve<'a, T> {
    fn resolve(&mut self, reference: &str) -> Option<T>;
}

/// Eager trees: JSON pointer from the root, memoized per `$ref` string.
struct FromRoot<T> {
    root: T,
    cache: HashMap<Box<str>, Option<T>>,
}

impl<'a, T: Node<'a>> Resolve<'a, T> for FromRoot<T> {
    fn resolve(&mut self, reference: &str) -> Option<T> {
        if let Some(hit) = self.cache.get(reference) {
            return *hit;
        }
        let found = pointer_tokens(reference).and_then(|tokens| {
            let mut cur = self.root;
            for t in &tokens {
                cur = match cur.get(t) {
                    Some(v) => v,
                    None => cur.index(t.parse().ok()?)?,
                };
            }
            Some(cur)
        });
        self.cache.insert(reference.into(), found);
        found
    }
}

/// Visits operations and the `$ref` targets they reach. A target is
/// visited once per operation (`closure`) or once per document.
struct Walker<R> {
    resolver: R,
    stats: Stats,
    seen: HashSet<usize>,
    closure: bool,
    /// Hash keys and strings (order check); off for the closure walks,
    /// which Node does not hash either.
    hash: bool,
}

impl<R> Walker<R> {
    fn new(resolver: R, closure: bool) -> Self {
        Walker {
            resolver,
            stats: Stats {
                order: 0xcbf2_9ce4_8422_2325,
                ..Stats::default()
            },
            seen: HashSet::new(),
            closure,
            hash: !closure,
        }
    }

    fn saw(&mut self, s: &str) {
        if self.hash {
            self.stats.order = fnv(self.stats.order, s);
            self.stats.sum = self.stats.sum.wrapping_add(fnv(0xcbf2_9ce4_8422_2325, s));
        }
    }

    /// One operation: its path item's parameters and the operation object,
    /// depth first in document order, a `$ref` target before the members
    /// beside the `$ref`.
    fn operation<'a, T: Node<'a>>(&mut self, path_params: Option<T>, op: T)
    where
        R: Resolve<'a, T>,
    {
        self.stats.ops += 1;
        if self.closure {
            self.seen.clear();
        }
        let mut stack: Children<'a, T> = vec![(None, op)];
        if let Some(p) = path_params {
            stack.push((None, p));
        }
        while let Some((key, v)) = stack.pop() {
            if let Some(k) = key {
                self.saw(k);
            }
            self.stats.nodes += 1;
            let start = stack.len();
            match v.shape(&mut stack) {
                Shape::Obj => {
                    stack[start..].reverse();
                    if let Some(r) = v.ref_str() {
                        self.stats.refs += 1;
                        match self.resolver.resolve(r) {
                            Some(target) => {
                                if self.seen.insert(target.id()) {
                                    stack.push((None, target));
                                }
                            }
                            None => self.stats.unresolved += 1,
                        }
                    }
                }
                Shape::Arr => stack[start..].reverse(),
                Shape::Str(s) => self.saw(s),
                Shape::Scalar => {}
            }
        }
    }
}

/// Walks every `every`-th operation of an eager tree.
fn walk_tree<'a, T: Node<'a>>(root: T, closure: bool, every: usize) -> Stats {
    let mut w = Walker::new(
        FromRoot {
            root,
            cache: HashMap::new(),
        },
        closure,
    );
    let mut n = 0usize;
    if let Some(paths) = root.get("paths") {
        for (_, item) in paths.members() {
            let params = item.get("parameters");
            for m in METHODS {
                if let Some(op) = item.get(m) {
                    n += 1;
                    if (n - 1) % every == 0 {
                        w.operation(params, op);
                    }
                }
            }
        }
    }
    w.stats
}

// ---------------------------------------------------------------------------
// Lazy: index `paths` (path → method → raw operation text) and the
// components maps (name → raw text); materialize an operation only when it
// is listed, and a `$ref` target only when reached (once, then shared).

/// How a lazy variant splits raw JSON objects and materializes raw text.
trait Lazy {
    type Value: 'static;
    /// The members of a raw JSON object, raw, in document order.
    fn members(raw: &str) -> Vec<(Cow<'_, str>, &str)>;
    fn materialize(raw: &str) -> Self::Value;
}

struct RawSerde;
impl Lazy for RawSerde {
    type Value = serde_json::Value;
    fn members(raw: &str) -> Vec<(Cow<'_, str>, &str)> {
        let map: indexmap::IndexMap<Cow<'_, str>, &RawValue> =
            serde_json::from_str(raw).unwrap_or_default();
        map.into_iter().map(|(k, v)| (k, v.get())).collect()
    }
    fn materialize(raw: &str) -> serde_json::Value {
        serde_json::from_str(raw).expect("valid JSON")
    }
}

struct LazySonic;
impl Lazy for LazySonic {
    type Value = sonic_rs::Value;
    fn members(raw: &str) -> Vec<(Cow<'_, str>, &str)> {
        sonic_rs::to_object_iter(raw)
            .filter_map(Result::ok)
            .map(|(k, v)| {
                let k: Cow<'_, str> = Cow::Owned(k.to_string());
                let raw_v: &str = match v.as_raw_cow() {
                    Cow::Borrowed(b) => b,
                    Cow::Owned(o) => Box::leak(o.into_boxed_str()),
                };
                (k, raw_v)
            })
            .collect()
    }
    fn materialize(raw: &str) -> sonic_rs::Value {
        sonic_rs::from_str(raw).expect("valid JSON")
    }
}

/// sonic-rs splits the raw objects (fast skipping), serde_json materializes
/// (the `serde_json::Value` the rest of the code uses).
struct LazyHybrid;
impl Lazy for LazyHybrid {
    type Value = serde_json::Value;
    fn members(raw: &str) -> Vec<(Cow<'_, str>, &str)> {
        LazySonic::members(raw)
    }
    fn materialize(raw: &str) -> serde_json::Value {
        RawSerde::materialize(raw)
    }
}

/// A pointer-prefix → raw-members index built on demand, plus the
/// materialized `$ref` targets (leaked: they live as long as the model).
struct LazyDoc<'t, L: Lazy> {
    maps: HashMap<String, Option<indexmap::IndexMap<Cow<'t, str>, &'t str>>>,
    root: &'t str,
    targets: HashMap<Box<str>, Option<*const L::Value>>,
    /// `sonic_rs::get` by pointer instead of the index (each target once).
    by_pointer: bool,
    _l: std::marker::PhantomData<L>,
}

impl<'t, L: Lazy> LazyDoc<'t, L> {
    fn new(root: &'t str, by_pointer: bool) -> Self {
        let mut maps = HashMap::new();
        maps.insert(String::new(), Some(L::members(root).into_iter().collect()));
        LazyDoc {
            maps,
            root,
            targets: HashMap::new(),
            by_pointer,
            _l: std::marker::PhantomData,
        }
    }

    /// The raw members of the object at `tokens` (cached).
    fn map_at(&mut self, tokens: &[String]) -> Option<&indexmap::IndexMap<Cow<'t, str>, &'t str>> {
        let key = tokens.join("/");
        if !self.maps.contains_key(&key) {
            let (last, parent) = tokens.split_last()?;
            let raw = *self.map_at(parent)?.get(last.as_str())?;
            let trimmed = raw.trim_start();
            let map = trimmed
                .starts_with('{')
                .then(|| L::members(raw).into_iter().collect());
            self.maps.insert(key.clone(), map);
        }
        self.maps.get(&key)?.as_ref()
    }

    fn raw_at(&mut self, tokens: &[String]) -> Option<&'t str> {
        if self.by_pointer {
            let v = sonic_rs::get_from_str(self.root, tokens.iter().map(String::as_str)).ok()?;
            // SAFETY of the borrow: a LazyValue of a &str input borrows it.
            return Some(unsafe { std::mem::transmute::<&str, &'t str>(v.as_raw_str()) });
        }
        let (last, parent) = tokens.split_last()?;
        self.map_at(parent)?.get(last.as_str()).copied()
    }

    /// Every operation as (path params raw, method, operation raw).
    fn operations(&mut self) -> Vec<(Option<&'t str>, &'t str)> {
        let mut out = Vec::new();
        let Some(paths) = self.raw_at(&["paths".to_owned()]) else {
            return out;
        };
        for (_, item) in L::members(paths) {
            let members: indexmap::IndexMap<Cow<'_, str>, &str> = L::members(item).into_iter().collect();
            let params = members.get("parameters").copied();
            for m in METHODS {
                if let Some(op) = members.get(m) {
                    out.push((params, *op));
                }
            }
        }
        out
    }
}

impl<'a, 't, L: Lazy> Resolve<'a, &'a L::Value> for LazyDoc<'t, L>
where
    &'a L::Value: Node<'a>,
{
    fn resolve(&mut self, reference: &str) -> Option<&'a L::Value> {
        if let Some(hit) = self.targets.get(reference) {
            // SAFETY: targets are leaked, never freed.
            return hit.map(|v| unsafe { &*v });
        }
        let mut at: Option<*const L::Value> = None;
        let mut rest: Vec<String> = Vec::new();
        if let Some(tokens) = pointer_tokens(reference) {
            // The longest prefix the raw index can reach, then the rest inside
            // the materialized value (e.g. `#/components/schemas/A/properties/b`).
            for split in (1..=tokens.len()).rev() {
                if let Some(raw) = self.raw_at(&tokens[..split]) {
                    at = Some(Box::into_raw(Box::new(L::materialize(raw))).cast_const());
                    rest = tokens[split..].to_vec();
                    break;
                }
            }
        }
        // SAFETY: targets are leaked, never freed.
        let start: Option<&'a L::Value> = at.map(|v| unsafe { &*v });
        let found = start.and_then(|v| {
            let mut cur: &'a L::Value = v;
            for t in &rest {
                cur = match cur.get(t) {
                    Some(x) => x,
                    None => cur.index(t.parse().ok()?)?,
                };
            }
            Some(cur)
        });
        // Every answer is cached, a target inside a materialized value too
        // (that value is leaked as well): a `$ref` string must always give
        // the same node, or the walk's `seen` set would never stop a cycle
        // through such a pointer.
        self.targets.insert(reference.into(), found.map(std::ptr::from_ref));
        found
    }
}

fn walk_lazy<L: Lazy>(text: &'static str, mode: &str, every: usize, by_pointer: bool, t: &mut Timer) -> Stats
where
    for<'a> &'a L::Value: Node<'a>,
{
    let mut doc = LazyDoc::<L>::new(text, by_pointer);
    let ops = doc.operations();
    // the index stage: also the components maps a resolver will need
    for part in ["schemas", "parameters", "responses", "requestBodies", "headers", "examples"] {
        let _ = doc.map_at(&["components".to_owned(), part.to_owned()]);
    }
    t.lap("parse");
    let mut w = Walker::new(doc, mode == "closure");
    if mode != "parse" {
        for (i, (params, op)) in ops.iter().enumerate() {
            if i % every != 0 {
                continue;
            }
            // The listed operation is materialized, walked, and dropped (the
            // tool model keeps its own output); `$ref` targets stay shared.
            let p = params.map(L::materialize);
            let o = L::materialize(op);
            w.operation(p.as_ref(), &o);
        }
        t.lap("walk");
    }
    w.stats
}


// ---------------------------------------------------------------------------
// Faithfulness probes: what each representation does with JSON that real
// (3.1: arbitrary JSON Schema) documents may hold.

const PROBES: [(&str, &str); 8] = [
    ("key order", r#"{"b":1,"a":2,"200":3,"10":4}"#),
    ("duplicate key", r#"{"a":1,"a":2}"#),
    ("2^64", r#"[18446744073709551616]"#),
    ("big integer", r#"[123456789012345678901234567890]"#),
    ("1.0 / -0", r#"[1.0,-0,1E2]"#),
    ("1e400", r#"[1e400]"#),
    ("lone surrogate", r#"["\ud800"]"#),
    ("NUL in key", r#"{"a\u0000b":1}"#),
];

fn probe_one(variant: &str, text: &str) -> String {
    fn e<E: std::fmt::Display>(err: E) -> String {
        let s = err.to_string();
        format!("ERROR ({})", s.chars().take(48).collect::<String>())
    }
    let mut bytes = text.as_bytes().to_vec();
    match variant {
        "serde-value-bytes" | "serde-value-str" | "lazy-raw" => {
            serde_json::from_str::<serde_json::Value>(text).map_or_else(e, |v| v.to_string())
        }
        "sonic-value" | "lazy-sonic" => sonic_rs::from_str::<sonic_rs::Value>(text)
            .map_or_else(e, |v| sonic_rs::to_string(&v).unwrap_or_default()),
        "simd-owned" => simd_json::to_owned_value(&mut bytes).map_or_else(e, |v| v.to_string()),
        "simd-borrowed" => simd_json::to_borrowed_value(&mut bytes).map_or_else(e, |v| v.to_string()),
        "simd-tape" => simd_json::to_tape(&mut bytes).map_or_else(e, |t| format!("{:?}", t.0)),
        "ijson" => serde_json::from_str::<ijson::IValue>(text)
            .map_or_else(e, |v| serde_json::to_string(&v).unwrap_or_default()),
        "jiter" => jiter::JsonValue::parse(text.as_bytes(), false).map_or_else(e, |v| format!("{v:?}")),
        "serde-borrow" => serde_json::from_str::<serde_json_borrow::Value>(text)
            .map_or_else(e, |v| serde_json::to_string(&v).unwrap_or_default()),
        _ => "?".into(),
    }
}

fn probe() {
    let variants = [
        "serde-value-str", "sonic-value", "simd-owned", "simd-borrowed", "simd-tape", "ijson", "jiter",
        "serde-borrow",
    ];
    // A large object: small ones are kept in order by simd-json's
    // vector-backed maps, large ones are not.
    let big = format!(
        "{{{}}}",
        (0..40).rev().map(|i| format!("\"k{i}\":{i}")).collect::<Vec<_>>().join(",")
    );
    println!("## 40-key object, keys k39..k0: first 5 keys as iterated");
    let first5 = |it: Vec<String>| it.into_iter().take(5).collect::<Vec<_>>().join(" ");
    let mut b1 = big.clone().into_bytes();
    let mut b2 = big.clone().into_bytes();
    let mut b3 = big.clone().into_bytes();
    let sj: serde_json::Value = serde_json::from_str(&big).unwrap();
    let so: sonic_rs::Value = sonic_rs::from_str(&big).unwrap();
    let ow = simd_json::to_owned_value(&mut b1).unwrap();
    let bw = simd_json::to_borrowed_value(&mut b2).unwrap();
    let tp = simd_json::to_tape(&mut b3).unwrap();
    let ij: ijson::IValue = serde_json::from_str(&big).unwrap();
    let ji = jiter::JsonValue::parse(big.as_bytes(), false).unwrap();
    let sb: serde_json_borrow::Value = serde_json::from_str(&big).unwrap();
    fn keys<'a, T: Node<'a>>(n: T) -> Vec<String> {
        n.members().into_iter().map(|(k, _)| k.unwrap_or_default().to_owned()).collect()
    }
    println!("  serde-value      {}", first5(keys(&sj)));
    println!("  sonic-value      {}", first5(keys(&so)));
    println!("  simd-owned       {}", first5(keys(&ow)));
    println!("  simd-borrowed    {}", first5(keys(&bw)));
    println!("  simd-tape        {}", first5(keys(tp.as_value())));
    println!("  ijson            {}", first5(keys(&ij)));
    println!("  jiter            {}", first5(keys(&ji)));
    println!("  serde-borrow     {}", first5(keys(&sb)));
    println!("## invalid JSON inside an operation the index skips: is it noticed?");
    for inner in [r#"[1,2x]"#, r#""\q""#, r#"01"#, r#"[1,]"#, r#"{"a" 1}"#, r#"tru"#] {
        let bad = format!(r#"{{"paths":{{"/a":{{"get":{{"x":{inner}}}}}}},"components":{{}}}}"#);
        let raw_ok = serde_json::from_str::<indexmap::IndexMap<Cow<'_, str>, &RawValue>>(&bad).is_ok();
        // the sonic index reads the root, `paths`, and each path item
        let root = LazySonic::members(&bad);
        let sonic_ok = sonic_rs::to_object_iter(bad.as_str()).all(|r| r.is_ok())
            && root.iter().filter(|(k, _)| k == "paths").all(|(_, paths)| {
                LazySonic::members(paths)
                    .iter()
                    .all(|(_, item)| sonic_rs::to_object_iter(*item).all(|r| r.is_ok()))
            });
        println!("  {inner:10} lazy-raw index: {}; lazy-sonic index: {}",
            if raw_ok { "not noticed" } else { "error" },
            if sonic_ok { "not noticed" } else { "error" });
    }
    for (name, text) in PROBES {
        println!("## {name}: {text}");
        for v in variants {
            println!("  {v:16} {}", probe_one(v, text));
        }
    }
}

// ---------------------------------------------------------------------------

struct Timer {
    last: Instant,
    laps: Vec<(&'static str, f64)>,
}

impl Timer {
    fn lap(&mut self, name: &'static str) {
        let now = Instant::now();
        self.laps.push((name, (now - self.last).as_secs_f64() * 1e3));
        self.last = now;
    }
}

fn status_kb(field: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn leak<T>(t: T) -> &'static T {
    Box::leak(Box::new(t))
}

fn run_tree<'a, T: Node<'a>>(root: T, mode: &str, every: usize, t: &mut Timer) -> Stats {
    if mode == "parse" {
        return Stats::default();
    }
    let s = walk_tree(root, mode == "closure", every);
    t.lap("walk");
    s
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("probe") {
        probe();
        return;
    }
    if args.len() < 3 {
        eprintln!("usage: parse-bench VARIANT DOC [parse|walk|closure] [EVERY]");
        std::process::exit(2);
    }
    let variant = args[1].as_str();
    let doc = args[2].as_str();
    let mode = args.get(3).map_or("parse", String::as_str);
    let every: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let mut t = Timer {
        last: Instant::now(),
        laps: Vec::new(),
    };
    // Everything parsed is leaked on purpose: the process exits without
    // freeing (as Node does), and borrowed variants need 'static input.
    let stats = match variant {
        "serde-value-bytes" => {
            let bytes = leak(std::fs::read(doc).expect("read"));
            t.lap("read");
            let v: &serde_json::Value = leak(serde_json::from_slice(bytes).expect("parse"));
            t.lap("parse");
            run_tree(v, mode, every, &mut t)
        }
        "serde-value-str" => {
            let text = leak(std::fs::read_to_string(doc).expect("read"));
            t.lap("read");
            let v: &serde_json::Value = leak(serde_json::from_str(text).expect("parse"));
            t.lap("parse");
            run_tree(v, mode, every, &mut t)
        }
        "sonic-value" => {
            let bytes = leak(std::fs::read(doc).expect("read"));
            t.lap("read");
            let v: &sonic_rs::Value = leak(sonic_rs::from_slice(bytes).expect("parse"));
            t.lap("parse");
            run_tree(v, mode, every, &mut t)
        }
        "simd-owned" => {
            let bytes = Box::leak(Box::new(std::fs::read(doc).expect("read")));
            t.lap("read");
            let v = leak(simd_json::to_owned_value(bytes).expect("parse"));
            t.lap("parse");
            run_tree(v, mode, every, &mut t)
        }
        "simd-borrowed" => {
            let bytes = Box::leak(Box::new(std::fs::read(doc).expect("read")));
            t.lap("read");
            let v = leak(simd_json::to_borrowed_value(bytes).expect("parse"));
            t.lap("parse");
            run_tree(v, mode, every, &mut t)
        }
        "simd-tape" => {
            let bytes = Box::leak(Box::new(std::fs::read(doc).expect("read")));
            t.lap("read");
            let tape = leak(simd_json::to_tape(bytes).expect("parse"));
            t.lap("parse");
            run_tree(tape.as_value(), mode, every, &mut t)
        }
        "ijson" => {
            let bytes = leak(std::fs::read(doc).expect("read"));
            t.lap("read");
            let v: &ijson::IValue = leak(serde_json::from_slice(bytes).expect("parse"));
            t.lap("parse");
            run_tree(v, mode, every, &mut t)
        }
        "jiter" => {
            let bytes = leak(std::fs::read(doc).expect("read"));
            t.lap("read");
            let v = leak(jiter::JsonValue::parse(bytes, false).expect("parse"));
            t.lap("parse");
            run_tree(v, mode, every, &mut t)
        }
        "serde-borrow" => {
            let text = leak(std::fs::read_to_string(doc).expect("read"));
            t.lap("read");
            let v: &serde_json_borrow::Value = leak(serde_json::from_str(text).expect("parse"));
            t.lap("parse");
            run_tree(v, mode, every, &mut t)
        }
        "lazy-raw" | "lazy-sonic" | "lazy-hybrid" | "sonic-get" => {
            let text: &'static str = leak(std::fs::read_to_string(doc).expect("read"));
            t.lap("read");
            match variant {
                "lazy-raw" => walk_lazy::<RawSerde>(text, mode, every, false, &mut t),
                "lazy-sonic" => walk_lazy::<LazySonic>(text, mode, every, false, &mut t),
                "lazy-hybrid" => walk_lazy::<LazyHybrid>(text, mode, every, false, &mut t),
                _ => walk_lazy::<LazySonic>(text, mode, every, true, &mut t),
            }
        }
        other => {
            eprintln!("unknown variant {other}");
            std::process::exit(2);
        }
    };
    let ms = |name: &str| t.laps.iter().filter(|(n, _)| *n == name).map(|(_, v)| v).sum::<f64>();
    let total: f64 = t.laps.iter().map(|(_, v)| v).sum();
    println!(
        "{{\"variant\":\"{variant}\",\"mode\":\"{mode}\",\"every\":{every},\"read_ms\":{:.2},\"parse_ms\":{:.2},\"walk_ms\":{:.2},\"total_ms\":{:.2},\"hwm_kb\":{},\"rss_kb\":{},\"ops\":{},\"nodes\":{},\"refs\":{},\"unresolved\":{},\"sum\":\"{:016x}\",\"order\":\"{:016x}\"}}",
        ms("read"),
        ms("parse"),
        ms("walk"),
        total,
        status_kb("VmHWM:"),
        status_kb("VmRSS:"),
        stats.ops,
        stats.nodes,
        stats.refs,
        stats.unresolved,
        stats.sum,
        stats.order,
    );
    // Exit without dropping anything (as Node does).
    std::process::exit(0);
}
