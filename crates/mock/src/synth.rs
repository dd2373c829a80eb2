//! Synthesizing a value from a schema, for responses and headers that
//! document no example. The schema is the document's, converted once to
//! JSON Schema 2020-12 as documented (constraints, `readOnly` and
//! `writeOnly` kept; see [`synthesize`]), so nothing here knows OpenAPI
//! dialects: types (type arrays), formats, `enum`/`const`/`default`/
//! `examples`, bounds, lengths, required and optional properties, `allOf`
//! merged, `oneOf`/`anyOf` first branch, `$ref`s (`#/$defs/<key>`)
//! followed through the converted entries. Recursion is bounded: a schema
//! already being generated higher up is not expanded again (an array of it
//! is `[]`, an optional property of it is left out, a required one is `{}`
//! or null). The same document and seed always give the same value.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use serde_json::{Map, Number, Value, json};

use openapi2mcp_document::dialect::Direction;
use openapi2mcp_document::model::Schema;
use openapi2mcp_tools::bundle::SchemaBundler;

/// Object nesting below which optional properties are still filled in.
const OPTIONAL_DEPTH: usize = 3;
/// Hard nesting limit (objects and arrays).
const MAX_DEPTH: usize = 24;
/// How many `$ref` hops may be open at once.
const MAX_REFS: usize = 48;
/// What a `$ref` to a `$defs` entry starts with.
const DEFS: &str = "#/$defs/";

/// A value for the document's `schema`: converted as documented by
/// `bundler` (which supplies the `$defs` its `$ref`s name), then
/// synthesized.
pub fn synthesize(
    synth: &mut Synth,
    bundler: &mut SchemaBundler<'_>,
    schema: &Schema<'_>,
) -> Value {
    let mut deps = BTreeSet::new();
    let converted = bundler.convert(schema, Direction::Document, &mut deps);
    synth.load(deps, bundler);
    synth.value(&converted)
}

/// [`synthesize`], also handing back the converted schema (as documented,
/// `readOnly`/`writeOnly` kept; its `$ref`s name entries of
/// [`Synth::defs`]): the stateful mock reads item shapes from it.
pub fn synthesize_keeping_schema(
    synth: &mut Synth,
    bundler: &mut SchemaBundler<'_>,
    schema: &Schema<'_>,
) -> (Value, Value) {
    let mut deps = BTreeSet::new();
    let converted = bundler.convert(schema, Direction::Document, &mut deps);
    synth.load(deps, bundler);
    let value = synth.value(&converted);
    (value, converted)
}

/// The schema is already being generated higher up (or nesting ran out).
#[derive(Debug)]
struct Recursion;

/// A value generator: the seed, and the converted `$defs` entries loaded
/// so far (each with everything it references, so a walk never needs
/// the bundler).
pub struct Synth {
    seed: u64,
    defs: HashMap<String, Arc<Value>>,
    dangling: HashSet<String>,
}

impl Synth {
    /// A generator; `seed` varies numbers in a stable way.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            defs: HashMap::new(),
            dangling: HashSet::new(),
        }
    }

    /// The converted `$defs` entries loaded so far, by key (what the
    /// `#/$defs/<key>` references of converted schemas name).
    pub fn defs(&self) -> HashMap<String, Arc<Value>> {
        self.defs.clone()
    }

    /// Loads the entries `deps` name and everything they reference.
    fn load(&mut self, deps: BTreeSet<String>, bundler: &mut SchemaBundler<'_>) {
        let mut queue: Vec<String> = deps.into_iter().collect();
        while let Some(key) = queue.pop() {
            if self.defs.contains_key(&key) || self.dangling.contains(&key) {
                continue;
            }
            let entry = bundler.entry(&key, Direction::Document);
            if bundler.dangling(&key) {
                self.dangling.insert(key);
                continue;
            }
            queue.extend(
                entry
                    .deps
                    .iter()
                    .filter(|d| !self.defs.contains_key(*d))
                    .cloned(),
            );
            self.defs.insert(key, Arc::clone(&entry.schema));
        }
    }

    /// A value valid for `schema` (JSON Schema 2020-12 whose `$ref`s name
    /// loaded entries), best effort for patterns.
    fn value(&self, schema: &Value) -> Value {
        let mut walk = Walk {
            seed: self.seed,
            stack: Vec::new(),
            defs: &self.defs,
        };
        walk.gen_value(schema, 0).unwrap_or(Value::Null)
    }
}

/// One synthesis: the seed, the `$defs` entries open, where they come from.
struct Walk<'a> {
    seed: u64,
    stack: Vec<&'a str>,
    defs: &'a HashMap<String, Arc<Value>>,
}

impl<'a> Walk<'a> {
    fn gen_value(&mut self, node: &'a Value, depth: usize) -> Result<Value, Recursion> {
        if depth > MAX_DEPTH {
            return Err(Recursion);
        }
        let value = node;
        if let Some(v) = literal(value) {
            return Ok(v);
        }
        let Value::Object(map) = value else {
            // `true`, `false` or junk: anything goes.
            return Ok(json!("string"));
        };
        if let Some(r) = map.get("$ref").and_then(Value::as_str) {
            return self.with_ref(r, |s, target| s.gen_value(target, depth));
        }
        let types = types_of(map);
        let nullable = types.contains(&"null");
        if let Some(all) = node.get("allOf").filter(|a| a.is_array()) {
            return self.all_of(node, all, depth, nullable);
        }
        let own_shape = !types.is_empty() || map.contains_key("properties");
        for key in ["oneOf", "anyOf"] {
            if let Some(list) = node.get(key).filter(|l| l.is_array()) {
                if own_shape && object_like(map, &types) {
                    let mut own = self.object(node, depth)?;
                    if let Ok(Value::Object(extra)) = self.first_branch(list, depth) {
                        for (k, v) in extra {
                            own.entry(k).or_insert(v);
                        }
                    }
                    return Ok(Value::Object(own));
                }
                if !own_shape {
                    return self.first_branch(list, depth).or(if nullable {
                        Ok(Value::Null)
                    } else {
                        Err(Recursion)
                    });
                }
            }
        }
        let ty = types
            .iter()
            .copied()
            .find(|t| *t != "null")
            .or(if nullable { Some("null") } else { None })
            .unwrap_or_else(|| infer_type(map));
        match ty {
            "null" => Ok(Value::Null),
            "boolean" => Ok(Value::Bool(self.seed.is_multiple_of(2))),
            "integer" => Ok(self.integer(map)),
            "number" => Ok(self.number(map)),
            "string" => Ok(Value::String(string(map))),
            "array" => self.array(node, depth),
            "object" => self.object(node, depth).map(Value::Object),
            _ => Ok(json!("string")),
        }
    }

    /// The `$defs` entry `reference` names.
    fn target(&self, reference: &str) -> Option<(&'a str, &'a Value)> {
        let key = reference.strip_prefix(DEFS)?;
        let (key, def) = self.defs.get_key_value(key)?;
        Some((key.as_str(), &**def))
    }

    /// Follows `reference`, refusing a target already open.
    fn with_ref<T>(
        &mut self,
        reference: &str,
        f: impl FnOnce(&mut Self, &'a Value) -> Result<T, Recursion>,
    ) -> Result<T, Recursion> {
        let Some((key, target)) = self.target(reference) else {
            return Err(Recursion);
        };
        if self.stack.contains(&key) || self.stack.len() >= MAX_REFS {
            return Err(Recursion);
        }
        self.stack.push(key);
        let out = f(self, target);
        self.stack.pop();
        out
    }

    fn first_branch(&mut self, list: &'a Value, depth: usize) -> Result<Value, Recursion> {
        let mut saw_null = false;
        for branch in list.as_array().into_iter().flatten() {
            if is_null_schema(branch) {
                saw_null = true;
                continue;
            }
            if let Ok(v) = self.gen_value(branch, depth) {
                return Ok(v);
            }
        }
        if saw_null {
            Ok(Value::Null)
        } else {
            Err(Recursion)
        }
    }

    fn all_of(
        &mut self,
        node: &'a Value,
        all: &'a Value,
        depth: usize,
        nullable: bool,
    ) -> Result<Value, Recursion> {
        let mut view = ObjectView::default();
        self.collect(node, &mut view);
        if view.is_object {
            return self.fill(view, depth).map(Value::Object);
        }
        // Not an object: the first branch that yields a value.
        self.first_branch(all, depth).or(if nullable {
            Ok(Value::Null)
        } else {
            Err(Recursion)
        })
    }

    fn object(&mut self, node: &'a Value, depth: usize) -> Result<Map<String, Value>, Recursion> {
        let mut view = ObjectView::default();
        self.collect(node, &mut view);
        self.fill(view, depth)
    }

    /// Gathers properties, `required` and `additionalProperties` of `node`
    /// and of everything its `allOf` and `$ref`s bring in.
    fn collect(&mut self, node: &'a Value, view: &mut ObjectView<'a>) {
        let Value::Object(map) = node else {
            return;
        };
        if let Some(r) = map.get("$ref").and_then(Value::as_str) {
            let _ = self.with_ref(r, |s, target| {
                s.collect(target, view);
                Ok(())
            });
            return;
        }
        let types = types_of(map);
        if object_like(map, &types) {
            view.is_object = true;
        }
        if let Some(Value::Object(pm)) = map.get("properties") {
            for (name, p) in pm {
                if view.props.iter().any(|(n, _)| n == name)
                    || p.get("writeOnly") == Some(&Value::Bool(true))
                {
                    continue;
                }
                view.props.push((name.clone(), p));
            }
        }
        if let Some(Value::Array(req)) = map.get("required") {
            view.required
                .extend(req.iter().filter_map(Value::as_str).map(str::to_string));
        }
        if view.additional.is_none()
            && let Some(ap) = map.get("additionalProperties").filter(|a| a.is_object())
        {
            view.additional = Some(ap);
        }
        if let Some(Value::Array(all)) = map.get("allOf") {
            for branch in all {
                self.collect(branch, view);
            }
        }
    }

    fn fill(
        &mut self,
        view: ObjectView<'a>,
        depth: usize,
    ) -> Result<Map<String, Value>, Recursion> {
        if depth > MAX_DEPTH {
            return Err(Recursion);
        }
        let mut out = Map::new();
        for (name, prop) in &view.props {
            let required = view.required.iter().any(|r| r == name);
            if !required && depth >= OPTIONAL_DEPTH {
                continue;
            }
            match self.gen_value(prop, depth + 1) {
                Ok(v) => {
                    out.insert(name.clone(), v);
                }
                Err(Recursion) if required => {
                    out.insert(name.clone(), self.placeholder(prop));
                }
                Err(Recursion) => {}
            }
        }
        // Required names no property describes: any value will do.
        for name in &view.required {
            if !out.contains_key(name) && !view.props.iter().any(|(n, _)| n == name) {
                let v = match &view.additional {
                    Some(ap) => self.gen_value(ap, depth + 1).unwrap_or(json!("string")),
                    None => json!("string"),
                };
                out.insert(name.clone(), v);
            }
        }
        if view.props.is_empty()
            && let Some(ap) = &view.additional
            && depth < OPTIONAL_DEPTH
            && let Ok(v) = self.gen_value(ap, depth + 1)
        {
            out.insert("key".into(), v);
        }
        Ok(out)
    }

    /// What a required property whose schema is recursive gets: null when
    /// allowed, `[]` for an array, else `{}`.
    fn placeholder(&mut self, node: &'a Value) -> Value {
        let cur = self.resolved(node);
        let Value::Object(map) = cur else {
            return json!({});
        };
        let types = types_of(map);
        if types.contains(&"null") {
            Value::Null
        } else if types.contains(&"array") {
            json!([])
        } else {
            json!({})
        }
    }

    fn array(&mut self, node: &'a Value, depth: usize) -> Result<Value, Recursion> {
        let Value::Object(map) = node else {
            return Ok(json!([]));
        };
        let min = map.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        let max = map.get("maxItems").and_then(Value::as_u64);
        let n = min.max(1).min(max.unwrap_or(u64::MAX)).min(16) as usize;
        if n == 0 || depth >= MAX_DEPTH {
            return Ok(json!([]));
        }
        let unique = map.get("uniqueItems") == Some(&Value::Bool(true));
        if let Some(Value::Array(prefix)) = map.get("prefixItems") {
            let mut out = Vec::new();
            for item in prefix {
                match self.gen_value(item, depth + 1) {
                    Ok(v) => out.push(v),
                    Err(_) => return Ok(json!([])),
                }
            }
            return Ok(Value::Array(out));
        }
        let Some(items) = map.get("items") else {
            return Ok(Value::Array(vec![json!("string"); n]));
        };
        let item = match self.gen_value(items, depth + 1) {
            Ok(v) => v,
            Err(Recursion) => return Ok(json!([])),
        };
        if unique && n > 1 {
            // Distinct items where the item schema enumerates them.
            if let Some(Value::Array(choices)) = self.resolved(items).get("enum")
                && choices.len() >= n
            {
                return Ok(Value::Array(choices[..n].to_vec()));
            }
            if let Value::Number(_) = item {
                return Ok(Value::Array((1..=n as u64).map(Value::from).collect()));
            }
            if let Value::String(s) = &item {
                return Ok(Value::Array(
                    (0..n).map(|i| Value::String(format!("{s}{i}"))).collect(),
                ));
            }
        }
        Ok(Value::Array(vec![item; n]))
    }

    /// `node` with its `$ref`s followed (as far as they lead).
    fn resolved(&self, node: &'a Value) -> &'a Value {
        let mut cur = node;
        for _ in 0..MAX_REFS {
            let Some(r) = cur.get("$ref").and_then(Value::as_str) else {
                break;
            };
            match self.target(r) {
                Some((_, t)) => cur = t,
                None => break,
            }
        }
        cur
    }

    fn integer(&self, map: &Map<String, Value>) -> Value {
        let (mut lo, mut hi) = match map.get("format").and_then(Value::as_str) {
            Some("int32") => (i32::MIN as f64, i32::MAX as f64),
            Some("int8") => (i8::MIN as f64, i8::MAX as f64),
            Some("uint8") => (0.0, u8::MAX as f64),
            _ => (-9.0e15, 9.0e15),
        };
        let (min, max) = bounds(map, 1.0);
        if let Some(m) = min {
            lo = lo.max(m.ceil());
        }
        if let Some(m) = max {
            hi = hi.min(m.floor());
        }
        let mut v = (1 + self.seed % 100) as f64;
        v = v.clamp(lo.min(hi), hi.max(lo));
        if let Some(step) = map.get("multipleOf").and_then(Value::as_f64)
            && step > 0.0
        {
            let up = (v / step).ceil() * step;
            v = if up <= hi {
                up
            } else {
                (v / step).floor() * step
            };
        }
        Value::Number(Number::from(v as i64))
    }

    fn number(&self, map: &Map<String, Value>) -> Value {
        let (min, max) = bounds(map, 0.5);
        let base = 1.0 + (self.seed % 100) as f64 / 2.0;
        let mut v = match (min, max) {
            (Some(lo), Some(hi)) => base.clamp(lo.min(hi), hi.max(lo)),
            (Some(lo), None) => base.max(lo),
            (None, Some(hi)) => base.min(hi),
            (None, None) => base,
        };
        if let Some(step) = map.get("multipleOf").and_then(Value::as_f64)
            && step > 0.0
        {
            v = (v / step).ceil() * step;
        }
        if v.fract() == 0.0 && v.abs() < 9.0e15 {
            Value::Number(Number::from(v as i64))
        } else {
            Number::from_f64(v).map_or(json!(1), Value::Number)
        }
    }
}

/// What an object schema (with its `allOf` parts) declares.
#[derive(Default)]
struct ObjectView<'a> {
    is_object: bool,
    props: Vec<(String, &'a Value)>,
    required: Vec<String>,
    additional: Option<&'a Value>,
}

/// A value the schema states outright: `const`, else the first of
/// `examples` and `default` that fits the schema's own type, format,
/// pattern, bounds and `enum` (documents do carry wrong examples), else
/// the first `enum` member.
fn literal(schema: &Value) -> Option<Value> {
    let map = schema.as_object()?;
    if let Some(v) = map.get("const") {
        return Some(v.clone());
    }
    let listed = match map.get("examples") {
        Some(Value::Array(list)) => list.first(),
        _ => None,
    };
    let candidates = [listed, map.get("default")];
    if let Some(v) = candidates.into_iter().flatten().find(|v| fits(v, map)) {
        return Some(v.clone());
    }
    if let Some(Value::Array(choices)) = map.get("enum") {
        return choices
            .iter()
            .find(|c| !c.is_null())
            .or(choices.first())
            .cloned();
    }
    None
}

/// Whether a documented value agrees with the schema's own keywords
/// (`$ref`s and combinators are not followed: those values are trusted).
fn fits(value: &Value, map: &Map<String, Value>) -> bool {
    let types = types_of(map);
    if !types.is_empty() && !types.iter().any(|t| type_matches(t, value)) {
        return false;
    }
    if let Some(Value::Array(choices)) = map.get("enum")
        && !choices.contains(value)
    {
        return false;
    }
    match value {
        Value::Array(items) => match map.get("items") {
            Some(Value::Object(item)) => items.iter().all(|i| fits(i, item)),
            _ => true,
        },
        Value::Object(members) => match map.get("properties") {
            Some(Value::Object(props)) => members.iter().all(|(k, v)| match props.get(k) {
                Some(Value::Object(p)) => fits(v, p),
                _ => true,
            }),
            _ => true,
        },
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or_default();
            let (min, max) = bounds(map, 0.0);
            let exclusive = |k: &str| map.get(k).is_some_and(Value::is_number);
            let above = min.is_none_or(|m| {
                if exclusive("exclusiveMinimum") {
                    x > m
                } else {
                    x >= m
                }
            });
            let below = max.is_none_or(|m| {
                if exclusive("exclusiveMaximum") {
                    x < m
                } else {
                    x <= m
                }
            });
            above && below
        }
        Value::String(_) if map.contains_key("format") || map.contains_key("pattern") => {
            let mut schema = Map::new();
            for key in ["format", "minLength", "maxLength"] {
                if let Some(v) = map.get(key) {
                    schema.insert(key.into(), v.clone());
                }
            }
            if let Some(p) = map.get("pattern") {
                schema.insert("pattern".into(), p.clone());
            }
            jsonschema::options()
                .should_validate_formats(true)
                .build(&Value::Object(schema))
                .map_or(true, |v| v.is_valid(value))
        }
        _ => true,
    }
}

fn type_matches(ty: &str, value: &Value) -> bool {
    match ty {
        "integer" => value.as_f64().is_some_and(|f| f.fract() == 0.0),
        "number" => value.is_number(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => true,
    }
}

/// The declared types.
fn types_of(map: &Map<String, Value>) -> Vec<&str> {
    match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn object_like(map: &Map<String, Value>, types: &[&str]) -> bool {
    types.contains(&"object")
        || (types.iter().all(|t| *t == "null")
            && (map.contains_key("properties") || map.contains_key("additionalProperties")))
}

fn is_null_schema(v: &Value) -> bool {
    match v.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.iter().all(|t| t == "null"),
        _ => false,
    }
}

/// A type from the keywords when `type` is absent.
fn infer_type(map: &Map<String, Value>) -> &'static str {
    if [
        "properties",
        "additionalProperties",
        "required",
        "patternProperties",
    ]
    .iter()
    .any(|k| map.contains_key(*k))
    {
        "object"
    } else if map.contains_key("items") || map.contains_key("prefixItems") {
        "array"
    } else if ["format", "pattern", "minLength", "maxLength"]
        .iter()
        .any(|k| map.contains_key(*k))
    {
        "string"
    } else if [
        "minimum",
        "maximum",
        "multipleOf",
        "exclusiveMinimum",
        "exclusiveMaximum",
    ]
    .iter()
    .any(|k| map.contains_key(*k))
    {
        "number"
    } else {
        "any"
    }
}

/// Inclusive lower and upper bounds, exclusive ones moved inwards by `step`.
fn bounds(map: &Map<String, Value>, step: f64) -> (Option<f64>, Option<f64>) {
    let num = |k: &str| map.get(k).and_then(Value::as_f64);
    let mut min = num("minimum");
    let mut max = num("maximum");
    if let Some(m) = num("exclusiveMinimum") {
        let m = m + step;
        min = Some(min.map_or(m, |x| x.max(m)));
    }
    if let Some(m) = num("exclusiveMaximum") {
        let m = m - step;
        max = Some(max.map_or(m, |x| x.min(m)));
    }
    (min, max)
}

/// A string for the format, the pattern (best effort) and the length limits.
fn string(map: &Map<String, Value>) -> String {
    let format = map.get("format").and_then(Value::as_str);
    let fixed = format.and_then(|f| {
        Some(match f {
            "date-time" => "2024-01-01T00:00:00Z",
            "date" => "2024-01-01",
            "time" => "00:00:00Z",
            "duration" => "P1D",
            "uuid" => "00000000-0000-4000-8000-000000000000",
            "email" | "idn-email" => "user@example.com",
            "uri" | "url" | "iri" | "uri-reference" | "iri-reference" => "https://example.com",
            "uri-template" => "https://example.com/{id}",
            "hostname" | "idn-hostname" => "example.com",
            "ipv4" => "192.0.2.1",
            "ipv6" => "2001:db8::1",
            "byte" => "c3RyaW5n",
            "password" => "password",
            "json-pointer" => "/a",
            "regex" => ".*",
            _ => return None,
        })
    });
    let mut s = match (fixed, map.get("pattern").and_then(Value::as_str)) {
        (Some(f), _) => f.to_string(),
        (None, Some(p)) => super::pattern::sample(p).unwrap_or_else(|| "string".into()),
        (None, None) => "string".into(),
    };
    let min = map.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = map
        .get("maxLength")
        .and_then(Value::as_u64)
        .map(|m| m as usize);
    let len = s.chars().count();
    if len < min {
        s.extend(std::iter::repeat_n('x', min - len));
    }
    if let Some(max) = max
        && s.chars().count() > max
    {
        s = s.chars().take(max).collect();
    }
    s
}

#[cfg(test)]
#[path = "synth_tests.rs"]
mod tests;
