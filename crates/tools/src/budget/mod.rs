//! The schema budget: no tool schema bigger than it is worth.
//!
//! A tool's schema is its top level (the arguments, or the response) plus
//! the `$defs` it reaches. Within the budget (bytes of compact JSON) it is
//! listed as is. Over it, the schema is listed inline down to a depth, and
//! what lies deeper is *summarized*: replaced by an open schema that keeps
//! the type, `enum`, `const` and `format`, names the fields, and says which
//! resource holds the full schema (`openapi2mcp://schemas/{name}`, or the
//! tool's own full schema for inline parts). The deepest levels go first:
//! the largest depth that fits is used; when even depth 1 does not fit,
//! descriptions are shortened and field lists dropped; then the arguments
//! themselves are summarized (never removed). Output schemas additionally
//! stay open (no `additionalProperties: false`), and as a last resort
//! become one open object that names its fields.
//!
//! What is never dropped: a top-level argument (they are all kept, with
//! their `required`), an `enum`, a path parameter. The server validates
//! arguments against the full schema, so a guess at a summarized field is
//! answered with the exact field that is wrong.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{Map, Value, json};

mod deepen;
mod facts;

use facts::*;

use super::bundle::{Converted, json_size};

/// Which schema of a tool is being fitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// `inputSchema`: arguments.
    Input,
    /// `outputSchema`: structured results; must stay open when summarized.
    Output,
}

/// A schema fitted to its budget.
#[derive(Clone)]
pub struct Fitted {
    /// What `tools/list` shows.
    pub listed: Value,
    /// The full top level (its `$ref`s name `$defs` keys), when `listed`
    /// is a summary of it; `None` when nothing was summarized.
    pub full: Option<Value>,
    /// Whether `listed` is still over the budget (only when the top-level
    /// arguments alone exceed it).
    pub over: bool,
}

/// Deepest inline level tried.
const MAX_DEPTH: usize = 8;
/// A subschema this small (compact JSON, no references) is never
/// summarized: the summary would be no smaller.
const SMALL: usize = 160;
/// Field names a summary lists.
const FIELDS_LISTED: usize = 12;

/// Fits `top` (whose references name `deps` and their closure) to
/// `budget` bytes; `0` means unlimited. `lookup` hands out converted defs;
/// `self_uri` is the resource holding this tool's full schema.
pub fn fit(
    top: Map<String, Value>,
    deps: &BTreeSet<String>,
    side: Side,
    budget: usize,
    lookup: &mut dyn FnMut(&str) -> Arc<Converted>,
    self_uri: &str,
) -> Fitted {
    // The closure and its size, without copying anything; once the size
    // passes the budget the rest of the closure does not matter (a Graph
    // entity reaches thousands of schemas).
    let mut closure: Vec<(String, Arc<Converted>)> = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut queue: Vec<String> = deps.iter().rev().cloned().collect();
    let defs_overhead = if deps.is_empty() {
        0
    } else {
        "\"$defs\":{},".len()
    };
    let mut total = json_size(&top) + defs_overhead;
    while let Some(key) = queue.pop() {
        if budget > 0 && total > budget {
            break;
        }
        if !seen.insert(key.clone()) {
            continue;
        }
        let entry = lookup(&key);
        total += entry.size + key.len() + 4;
        queue.extend(entry.deps.iter().filter(|d| !seen.contains(*d)).cloned());
        closure.push((key, entry));
    }
    if budget == 0 || total <= budget {
        let mut listed = top;
        if !closure.is_empty() {
            closure.sort_by(|a, b| a.0.cmp(&b.0));
            let defs: Map<String, Value> = closure
                .into_iter()
                .map(|(k, c)| (k, (*c.schema).clone()))
                .collect();
            listed.insert("$defs".into(), Value::Object(defs));
        }
        return Fitted {
            listed: Value::Object(listed),
            full: None,
            over: false,
        };
    }
    let top_value = Value::Object(top);
    let chosen = deepen::deepest(&top_value, &mut *lookup, side, budget, self_uri).or_else(|| {
        [(1, 100), (0, 100), (0, 40), (0, 0)]
            .into_iter()
            .find_map(|(depth, desc_max)| {
                attempt(
                    &top_value,
                    &mut *lookup,
                    side,
                    budget,
                    self_uri,
                    depth,
                    Some(desc_max),
                )
            })
    });
    let listed = match chosen {
        Some(v) => v,
        None if side == Side::Output => [true, false]
            .into_iter()
            .map(|typed| top_fields(&top_value, &mut *lookup, self_uri, typed))
            .find(|v| json_size(v) <= budget)
            .unwrap_or_else(|| {
                [FIELDS_LISTED, FIELDS_LISTED / 2, 0]
                    .into_iter()
                    .map(|n| whole_summary(&top_value, &mut *lookup, self_uri, n))
                    .find(|v| json_size(v) <= budget)
                    .unwrap_or_else(|| json!({"type": "object"}))
            }),
        None => {
            // The arguments alone exceed the budget: list them summarized
            // anyway (an argument is never dropped); `over` says so.
            let mut e = Expander::new(&mut *lookup, side, self_uri, 0, Some(0), usize::MAX);
            match e.expand(&top_value, 0, None) {
                Ok(v) => e.point_to_self(v),
                Err(_) => top_value.clone(),
            }
        }
    };
    let over = json_size(&listed) > budget;
    Fitted {
        listed,
        full: Some(top_value),
        over,
    }
}

/// The output schema's top-level fields, open: each with its type only
/// (`typed`), or with no constraint at all; what is left when even the
/// summarized fields do not fit.
fn top_fields(
    top: &Value,
    lookup: &mut dyn FnMut(&str) -> Arc<Converted>,
    self_uri: &str,
    typed: bool,
) -> Value {
    let mut props: Map<String, Value> = Map::new();
    collect_members(top, lookup, 0, &mut |m| {
        if let Some(Value::Object(p)) = m.get("properties") {
            for (name, schema) in p {
                if !props.contains_key(name) {
                    props.insert(name.clone(), schema.clone());
                }
            }
        }
    });
    let props: Map<String, Value> = props
        .into_iter()
        .map(|(name, schema)| {
            let mut out = Map::new();
            if typed {
                let resolved = resolve(&schema, lookup);
                if let Some(t) = resolved.get("type") {
                    out.insert("type".into(), t.clone());
                }
            }
            (name, Value::Object(out))
        })
        .collect();
    json!({
        "type": "object",
        "properties": props,
        "description": format!("Field schemas summarized. Full schema: {self_uri}"),
    })
}

/// The output schema as one open object naming its fields: what is left
/// when not even the top-level fields fit.
fn whole_summary(
    top: &Value,
    lookup: &mut dyn FnMut(&str) -> Arc<Converted>,
    self_uri: &str,
    listed: usize,
) -> Value {
    let (fields, required) = fields_of(top, lookup);
    let mut text = String::from("The result object");
    if listed > 0 {
        describe_fields(&mut text, &fields, &required, listed);
    } else {
        text.push('.');
    }
    text.push_str(&format!(" Full schema: {self_uri}"));
    json!({"type": "object", "description": text})
}

/// One try at fitting `top` at inline level `depth`, descriptions cut to
/// `desc_max` characters when given: the result when it fits `budget`.
fn attempt(
    top: &Value,
    lookup: &mut dyn FnMut(&str) -> Arc<Converted>,
    side: Side,
    budget: usize,
    self_uri: &str,
    depth: usize,
    desc_max: Option<usize>,
) -> Option<Value> {
    attempt_with(top, lookup, side, budget, self_uri, depth, desc_max, true)
}

/// [`attempt`], given up as soon as what it copied is over the budget
/// when `cut_short` (the result is the same: see
/// [`Expander::size_limit`]).
#[allow(clippy::too_many_arguments)]
fn attempt_with(
    top: &Value,
    lookup: &mut dyn FnMut(&str) -> Arc<Converted>,
    side: Side,
    budget: usize,
    self_uri: &str,
    depth: usize,
    desc_max: Option<usize>,
    cut_short: bool,
) -> Option<Value> {
    let mut e = Expander::new(lookup, side, self_uri, depth, desc_max, budget / 3 + 16);
    if cut_short {
        e.size_limit = budget;
    }
    let v = e.expand(top, 0, None).ok()?;
    let v = e.point_to_self(v);
    (json_size(&v) <= budget).then_some(v)
}

struct TooBig;

struct Expander<'a> {
    lookup: &'a mut dyn FnMut(&str) -> Arc<Converted>,
    /// Schemas at this depth or shallower are listed inline.
    max_depth: usize,
    /// Shorter descriptions, no examples, no field lists.
    terse: bool,
    /// In terse mode, the longest description kept below the top level
    /// (`0`: none).
    desc_max: usize,
    side: Side,
    nodes: usize,
    node_limit: usize,
    /// Defs being expanded (a reference back into one is summarized).
    stack: Vec<String>,
    self_uri: &'a str,
    /// Whether an inline schema (not a component) was summarized: the top
    /// level then says once where the tool's full schema is.
    inline_summaries: bool,
    /// Where the places summarized only for their depth are written down,
    /// when they are (see [`deepen`]).
    record: Option<Vec<deepen::Cut>>,
    /// Whether the schema being expanded (since the last place a value is
    /// put in its own slot) was summarized for its depth.
    cut_here: bool,
    /// Whether a `$ref`'s sibling keyword replaced a keyword of its
    /// expanded target that may hold a written-down place (see
    /// [`deepen`]).
    overlaid: bool,
    /// At most the bytes of compact JSON the result will have: keywords
    /// copied below the top (a lower bound of each value's size, see
    /// [`lower_size`]), but not those a `$ref`'s siblings replace.
    lower: usize,
    /// Keywords of the `$ref` sites around the schema expanded next,
    /// which replace its own: what it has under them is not counted.
    shadow: Vec<String>,
    /// Whether counting is paused (inside a keyword a site replaces).
    paused: usize,
    /// An expansion whose `lower` passes this is given up ([`TooBig`]):
    /// its result cannot fit. `usize::MAX` when the result is wanted
    /// whatever its size.
    size_limit: usize,
}

impl<'a> Expander<'a> {
    fn new(
        lookup: &'a mut dyn FnMut(&str) -> Arc<Converted>,
        side: Side,
        self_uri: &'a str,
        max_depth: usize,
        desc_max: Option<usize>,
        node_limit: usize,
    ) -> Self {
        Self {
            lookup,
            max_depth,
            terse: desc_max.is_some(),
            desc_max: desc_max.unwrap_or(0),
            side,
            nodes: 0,
            node_limit,
            stack: Vec::new(),
            self_uri,
            inline_summaries: false,
            record: None,
            cut_here: false,
            overlaid: false,
            lower: 0,
            shadow: Vec::new(),
            paused: 0,
            size_limit: usize::MAX,
        }
    }
}

/// Keywords whose value is one subschema one level down.
const DOWN_ONE: &[&str] = &[
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "additionalItems",
];
/// Keywords whose value is a map of subschemas one level down.
const DOWN_MAP: &[&str] = &["properties", "patternProperties"];
/// Keywords whose value is a list of subschemas at the same level.
const SAME_LIST: &[&str] = &["allOf", "anyOf", "oneOf"];
/// Keywords whose value is a subschema at the same level.
const SAME_ONE: &[&str] = &["not", "if", "then", "else"];

impl Expander<'_> {
    /// Counts `bytes` more of the result (see [`Expander::lower`]).
    fn grow(&mut self, bytes: usize) -> Result<(), TooBig> {
        if self.paused > 0 {
            return Ok(());
        }
        self.lower += bytes;
        if self.lower > self.size_limit {
            Err(TooBig)
        } else {
            Ok(())
        }
    }

    fn tick(&mut self) -> Result<(), TooBig> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            Err(TooBig)
        } else {
            Ok(())
        }
    }

    /// [`Expander::expand`] of a schema whose value has a slot of its own
    /// in the result (a property, an item, a member of `allOf`...): when
    /// places are written down and this one was summarized for its depth,
    /// it is written down (see [`deepen`]).
    fn child(
        &mut self,
        schema: &Value,
        depth: usize,
        within: Option<&str>,
    ) -> Result<Value, TooBig> {
        if self.record.is_none() {
            return self.expand(schema, depth, within);
        }
        let outer_cut = std::mem::replace(&mut self.cut_here, false);
        let outer_inline = std::mem::replace(&mut self.inline_summaries, false);
        let before = self.nodes;
        let value = self.expand(schema, depth, within)?;
        if self.cut_here
            && let Some(record) = &mut self.record
        {
            record.push(deepen::Cut {
                schema: schema.clone(),
                depth,
                within: within.map(str::to_string),
                stack: self.stack.clone(),
                size: json_size(&value),
                nodes: self.nodes - before,
                inline: self.inline_summaries,
            });
        }
        self.cut_here = outer_cut;
        self.inline_summaries |= outer_inline;
        Ok(value)
    }

    /// `schema` at `depth` (the tool schema is depth 0, its properties 1),
    /// inside def `within` (for the pointer to the full schema).
    fn expand(
        &mut self,
        schema: &Value,
        depth: usize,
        within: Option<&str>,
    ) -> Result<Value, TooBig> {
        self.tick()?;
        // Keywords of the `$ref` sites around this schema, which replace
        // its own (see `with_siblings`).
        let mut shadow = std::mem::take(&mut self.shadow);
        let Value::Object(map) = schema else {
            return Ok(schema.clone());
        };
        if let Some(key) = ref_key(map) {
            let key = key.to_string();
            let def = (self.lookup)(&key);
            let small = def.deps.is_empty()
                && (def.size <= SMALL || def.schema.as_object().is_some_and(|m| !is_structural(m)));
            let looped = self.stack.contains(&key);
            let target = if small || (depth <= self.max_depth && !looped) {
                self.stack.push(key.clone());
                if self.size_limit != usize::MAX {
                    shadow.extend(map.keys().filter(|k| *k != "$ref").cloned());
                    self.shadow = shadow;
                }
                let inner = self.expand(&def.schema, depth, Some(&key));
                self.shadow.clear();
                self.stack.pop();
                let inner = inner?;
                if self.record.is_some() {
                    self.overlaid |= overlays_children(&inner, map);
                }
                inner
            } else {
                // Listed inline at a deeper level, unless it refers back
                // to a schema being expanded.
                self.cut_here |= !looped;
                // The site's own description leads the summary.
                let site = map
                    .get("description")
                    .and_then(Value::as_str)
                    .map(|d| first_sentence(d, if self.terse { self.desc_max } else { 160 }));
                let mut summary = self.def_summary(&def, &key);
                if let (Some(site), Some(Value::String(text))) = (
                    site.filter(|s| !s.is_empty()),
                    summary.get_mut("description"),
                ) {
                    *text = format!("{site} {text}");
                }
                let mut rest = map.clone();
                rest.remove("description");
                let terse = (self.terse && depth >= 1).then_some(self.desc_max);
                let summary = with_siblings(summary, &rest, terse);
                // What the summary adds counts towards the size too: an
                // attempt that cannot fit is given up sooner.
                self.grow(lower_size(&summary))?;
                return Ok(summary);
            };
            let terse = (self.terse && depth >= 1).then_some(self.desc_max);
            return Ok(with_siblings(target, map, terse));
        }
        if self.terse
            && self.desc_max == 0
            && depth >= 2
            && let Some(compact) = without_big_enum(map)
        {
            return Ok(compact);
        }
        if depth > self.max_depth && is_structural(map) && !is_small(schema) {
            self.cut_here = true;
            let summary = self.summary(schema, within);
            self.grow(lower_size(&summary))?;
            return Ok(summary);
        }
        let mut out = Map::with_capacity(map.len());
        for (k, v) in map {
            // A keyword a site replaces does not count towards the size.
            let shadowed = !shadow.is_empty() && shadow.iter().any(|s| s == k);
            self.paused += usize::from(shadowed);
            let done = self.keyword(&mut out, k, v, map, depth, within);
            self.paused -= usize::from(shadowed);
            done?;
        }
        Ok(Value::Object(out))
    }

    /// Keyword `k` (value `v`) of the object schema `map` at `depth`,
    /// expanded into `out`.
    fn keyword(
        &mut self,
        out: &mut Map<String, Value>,
        k: &str,
        v: &Value,
        map: &Map<String, Value>,
        depth: usize,
        within: Option<&str>,
    ) -> Result<(), TooBig> {
        if DOWN_MAP.contains(&k) {
            let Value::Object(props) = v else {
                return Ok(());
            };
            let mut o = Map::with_capacity(props.len());
            for (name, prop) in props {
                o.insert(name.clone(), self.child(prop, depth + 1, within)?);
            }
            out.insert(k.into(), Value::Object(o));
        } else if DOWN_ONE.contains(&k) {
            if self.side == Side::Output && v == &Value::Bool(false) {
                return Ok(()); // stays open
            }
            out.insert(k.into(), self.child(v, depth + 1, within)?);
        } else if k == "prefixItems" || SAME_LIST.contains(&k) {
            let Value::Array(items) = v else {
                return Ok(());
            };
            let next = if k == "prefixItems" { depth + 1 } else { depth };
            let mut o = Vec::with_capacity(items.len());
            for item in items {
                o.push(self.child(item, next, within)?);
            }
            out.insert(k.into(), Value::Array(o));
        } else if SAME_ONE.contains(&k) || k == "dependentSchemas" {
            if k == "dependentSchemas" {
                return Ok(()); // rare; the full schema has it
            }
            out.insert(k.into(), self.child(v, depth, within)?);
        } else if k == "$defs"
            || (self.terse && depth >= 1 && matches!(k, "examples" | "title"))
            || (self.terse && self.desc_max == 0 && depth >= 1 && implied_by_format(k, v, map))
        {
            return Ok(());
        } else if self.terse && depth >= 1 && k == "description" {
            if let Some(d) = v.as_str().filter(|_| self.desc_max > 0) {
                let d = first_sentence(d, self.desc_max);
                self.grow(k.len() + 5 + d.len())?;
                out.insert(k.into(), Value::String(d));
            }
        } else {
            if depth >= 1 && self.size_limit != usize::MAX {
                self.grow(k.len() + 3 + lower_size(v))?;
            }
            out.insert(k.into(), v.clone());
        }
        Ok(())
    }

    /// [`Expander::summary`] of def `key` (`def`): with full descriptions,
    /// made once for the def and copied (it depends on nothing else).
    fn def_summary(&mut self, def: &Converted, key: &str) -> Value {
        if self.terse {
            return self.summary(&def.schema, Some(key));
        }
        if let Some(made) = def.summary.get() {
            return made.clone();
        }
        let made = self.summary(&def.schema, Some(key));
        if !crate::bundle::mentions_missed(&made) {
            let _ = def.summary.set(made.clone());
        }
        made
    }

    /// An open stand-in for `schema`: its type, enum, const and format,
    /// what fields it has, and where the full schema is.
    fn summary(&mut self, schema: &Value, key: Option<&str>) -> Value {
        let mut out = Map::new();
        let resolved = resolve(schema, &mut *self.lookup);
        if let Value::Object(m) = &*resolved {
            for k in ["type", "enum", "const", "format"] {
                if let Some(v) = m.get(k) {
                    out.insert(k.into(), v.clone());
                }
            }
            if !out.contains_key("type")
                && let Some(t) = all_of_type(&resolved, &mut *self.lookup, 0)
            {
                out.insert("type".into(), t);
            }
            if let Some(items) = m.get("items")
                && is_type(m.get("type"), "array")
            {
                let items_key = items.as_object().and_then(ref_key).map(str::to_string);
                out.insert("items".into(), self.shallow(items, items_key.as_deref()));
            }
        }
        let mut text = String::new();
        let room = if self.terse {
            self.desc_max.min(80)
        } else {
            160
        };
        if let Some(d) = resolved
            .get("description")
            .and_then(Value::as_str)
            .filter(|_| room > 0)
        {
            text.push_str(&first_sentence(d, room));
            if !text.ends_with(['.', '!', '?', ':']) {
                text.push('.');
            }
        }
        let listed = match (self.terse, self.desc_max) {
            (false, _) => FIELDS_LISTED,
            (true, 0) => 0,
            (true, _) => FIELDS_LISTED / 2,
        };
        if listed > 0 {
            let (fields, required) = fields_of(&resolved, &mut *self.lookup);
            if !fields.is_empty() {
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(key.unwrap_or("An object"));
                describe_fields(&mut text, &fields, &required, listed);
            }
            let variants = variant_names(&resolved);
            if !variants.is_empty() {
                text.push_str(&format!(" One of: {}.", variants.join(", ")));
            }
        }
        match key {
            Some(key) => {
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(&format!("Full schema: {}", schema_uri(key)));
            }
            None => self.inline_summaries = true,
        }
        if !text.is_empty() {
            out.insert("description".into(), Value::String(text));
        }
        Value::Object(out)
    }

    /// Says once, at the top, where the full schema of the tool is, when
    /// an inline part of it was summarized.
    fn point_to_self(&self, top: Value) -> Value {
        let Value::Object(mut m) = top else {
            return top;
        };
        if self.inline_summaries {
            let note = self_note(self.self_uri);
            let text = match m.get("description").and_then(Value::as_str) {
                Some(d) if !d.is_empty() => format!("{d}\n\n{note}"),
                _ => note,
            };
            m.insert("description".into(), Value::String(text));
        }
        Value::Object(m)
    }

    /// A one-level stand-in (array items inside a summary).
    fn shallow(&mut self, schema: &Value, key: Option<&str>) -> Value {
        let resolved = resolve(schema, &mut *self.lookup);
        if self.terse
            && self.desc_max == 0
            && let Some(compact) = resolved.as_object().and_then(without_big_enum)
        {
            return compact;
        }
        if is_small(&resolved) {
            return (*resolved).clone();
        }
        let mut out = Map::new();
        if let Value::Object(m) = &*resolved {
            for k in ["type", "enum", "const", "format"] {
                if let Some(v) = m.get(k) {
                    out.insert(k.into(), v.clone());
                }
            }
        }
        if let Some(key) = key {
            out.insert(
                "description".into(),
                Value::String(format!("{key}. Full schema: {}", schema_uri(key))),
            );
        }
        Value::Object(out)
    }
}

/// At most the bytes of `value` as compact JSON, cheaply: strings as if
/// nothing in them needed escaping, numbers as one digit.
fn lower_size(value: &Value) -> usize {
    match value {
        Value::String(s) => s.len() + 2,
        Value::Array(items) => {
            2 + items.len().saturating_sub(1) + items.iter().map(lower_size).sum::<usize>()
        }
        Value::Object(m) => {
            2 + m.len().saturating_sub(1)
                + m.iter()
                    .map(|(k, v)| k.len() + 3 + lower_size(v))
                    .sum::<usize>()
        }
        Value::Number(_) => 1,
        Value::Bool(_) | Value::Null => 4,
    }
}

/// What the top of a schema says when an inline part of it was
/// summarized: where the tool's full schema is.
fn self_note(self_uri: &str) -> String {
    format!("Nested schemas are summarized; full schema: {self_uri}")
}

/// Keywords whose values are expanded subschemas (and so may hold places
/// summarized for their depth).
fn holds_subschemas(k: &str) -> bool {
    DOWN_MAP.contains(&k)
        || DOWN_ONE.contains(&k)
        || SAME_LIST.contains(&k)
        || SAME_ONE.contains(&k)
        || k == "prefixItems"
}

/// Whether laying the `$ref` site `site`'s keywords over its expanded
/// target (see [`with_siblings`]) replaces one of the target's expanded
/// subschemas.
fn overlays_children(target: &Value, site: &Map<String, Value>) -> bool {
    site.len() > 1
        && target.as_object().is_some_and(|t| {
            site.keys()
                .any(|k| k != "$ref" && holds_subschemas(k) && t.contains_key(k))
        })
}

/// Whether a `type` keyword is `name`, alone or with `null` (as tolerant
/// output schemas write it).
fn is_type(t: Option<&Value>, name: &str) -> bool {
    match t {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(ts)) => {
            ts.iter().any(|t| t == name) && ts.iter().all(|t| t == name || t == "null")
        }
        _ => false,
    }
}

fn schema_uri(key: &str) -> String {
    openapi2mcp_model::schemas::schema_uri(key)
}

#[cfg(test)]
mod tests;
