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
    let chosen = {
        let mut attempt = |depth: usize, desc_max: Option<usize>| {
            let mut e = Expander {
                lookup: &mut *lookup,
                max_depth: depth,
                terse: desc_max.is_some(),
                desc_max: desc_max.unwrap_or(0),
                side,
                nodes: 0,
                node_limit: budget / 3 + 16,
                stack: Vec::new(),
                self_uri,
                inline_summaries: false,
            };
            let v = e.expand(&top_value, 0, None).ok()?;
            let v = e.point_to_self(v);
            (json_size(&v) <= budget).then_some(v)
        };
        let mut best = attempt(1, None);
        if best.is_some() {
            for depth in 2..=MAX_DEPTH {
                match attempt(depth, None) {
                    Some(v) => best = Some(v),
                    None => break,
                }
            }
        }
        best.or_else(|| attempt(1, Some(100)))
            .or_else(|| attempt(0, Some(100)))
            .or_else(|| attempt(0, Some(40)))
            .or_else(|| attempt(0, Some(0)))
    };
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
            let mut e = Expander {
                lookup: &mut *lookup,
                max_depth: 0,
                terse: true,
                desc_max: 0,
                side,
                nodes: 0,
                node_limit: usize::MAX,
                stack: Vec::new(),
                self_uri,
                inline_summaries: false,
            };
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
    fn tick(&mut self) -> Result<(), TooBig> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            Err(TooBig)
        } else {
            Ok(())
        }
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
        let Value::Object(map) = schema else {
            return Ok(schema.clone());
        };
        if let Some(key) = ref_key(map) {
            let key = key.to_string();
            let def = (self.lookup)(&key);
            let small = def.deps.is_empty()
                && (def.size <= SMALL || def.schema.as_object().is_some_and(|m| !is_structural(m)));
            let target = if small || (depth <= self.max_depth && !self.stack.contains(&key)) {
                self.stack.push(key.clone());
                let inner = self.expand(&def.schema, depth, Some(&key));
                self.stack.pop();
                inner?
            } else {
                // The site's own description leads the summary.
                let site = map
                    .get("description")
                    .and_then(Value::as_str)
                    .map(|d| first_sentence(d, if self.terse { self.desc_max } else { 160 }));
                let mut summary = self.summary(&def.schema, Some(&key));
                if let (Some(site), Some(Value::String(text))) = (
                    site.filter(|s| !s.is_empty()),
                    summary.get_mut("description"),
                ) {
                    *text = format!("{site} {text}");
                }
                let mut rest = map.clone();
                rest.remove("description");
                let terse = (self.terse && depth >= 1).then_some(self.desc_max);
                return Ok(with_siblings(summary, &rest, terse));
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
            return Ok(self.summary(schema, within));
        }
        let mut out = Map::with_capacity(map.len());
        for (k, v) in map {
            let k = k.as_str();
            if DOWN_MAP.contains(&k) {
                let Value::Object(props) = v else { continue };
                let mut o = Map::with_capacity(props.len());
                for (name, prop) in props {
                    o.insert(name.clone(), self.expand(prop, depth + 1, within)?);
                }
                out.insert(k.into(), Value::Object(o));
            } else if DOWN_ONE.contains(&k) {
                if self.side == Side::Output && v == &Value::Bool(false) {
                    continue; // stays open
                }
                out.insert(k.into(), self.expand(v, depth + 1, within)?);
            } else if k == "prefixItems" || SAME_LIST.contains(&k) {
                let Value::Array(items) = v else { continue };
                let next = if k == "prefixItems" { depth + 1 } else { depth };
                let mut o = Vec::with_capacity(items.len());
                for item in items {
                    o.push(self.expand(item, next, within)?);
                }
                out.insert(k.into(), Value::Array(o));
            } else if SAME_ONE.contains(&k) || k == "dependentSchemas" {
                if k == "dependentSchemas" {
                    continue; // rare; the full schema has it
                }
                out.insert(k.into(), self.expand(v, depth, within)?);
            } else if k == "$defs"
                || (self.terse && depth >= 1 && matches!(k, "examples" | "title"))
                || (self.terse && self.desc_max == 0 && depth >= 1 && implied_by_format(k, v, map))
            {
                continue;
            } else if self.terse && depth >= 1 && k == "description" {
                if let Some(d) = v.as_str().filter(|_| self.desc_max > 0) {
                    out.insert(k.into(), Value::String(first_sentence(d, self.desc_max)));
                }
            } else {
                out.insert(k.into(), v.clone());
            }
        }
        Ok(Value::Object(out))
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
            let note = format!(
                "Nested schemas are summarized; full schema: {}",
                self.self_uri
            );
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
    crate::runtime::schemas::schema_uri(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn table(defs: Value) -> HashMap<String, Arc<Converted>> {
        defs.as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| {
                let mut deps = Vec::new();
                crate::runtime::schemas::def_refs(v, &mut deps);
                let c = Converted {
                    schema: Arc::new(v.clone()),
                    deps,
                    size: json_size(v),
                };
                (k.clone(), Arc::new(c))
            })
            .collect()
    }

    fn big_defs() -> HashMap<String, Arc<Converted>> {
        let mut props = Map::new();
        for i in 0..40 {
            props.insert(
                format!("field_{i}"),
                json!({"type": "string", "description": format!("The {i}th field of a large object, described at some length so that it costs bytes.")}),
            );
        }
        props.insert("owner".into(), json!({"$ref": "#/$defs/User"}));
        props.insert(
            "status".into(),
            json!({"type": "string", "enum": ["open", "closed"]}),
        );
        table(json!({
            "Repo": {"type": "object", "properties": props, "required": ["field_1"], "additionalProperties": false},
            "User": {"type": "object", "properties": {"login": {"type": "string"}, "repos": {"type": "array", "items": {"$ref": "#/$defs/Repo"}}}},
            "State": {"type": "string", "enum": ["a", "b"]}
        }))
    }

    fn run(top: Value, side: Side, budget: usize) -> Fitted {
        let defs = big_defs();
        let mut deps = Vec::new();
        crate::runtime::schemas::def_refs(&top, &mut deps);
        let deps: BTreeSet<String> = deps.into_iter().collect();
        let mut lookup = |k: &str| Arc::clone(&defs[k]);
        fit(
            top.as_object().unwrap().clone(),
            &deps,
            side,
            budget,
            &mut lookup,
            "openapi2mcp://tools/t/input-schema",
        )
    }

    fn input_top() -> Value {
        json!({"type": "object", "properties": {
            "owner": {"type": "string", "description": "Path parameter."},
            "repo": {"$ref": "#/$defs/Repo"},
            "state": {"$ref": "#/$defs/State"}
        }, "required": ["owner", "repo"], "additionalProperties": false})
    }

    #[test]
    fn within_budget_nothing_changes() {
        let f = run(input_top(), Side::Input, 0);
        assert!(f.full.is_none());
        assert_eq!(f.listed["$defs"].as_object().unwrap().len(), 3);
        let f = run(
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            Side::Input,
            500,
        );
        assert!(f.full.is_none());
    }

    #[test]
    fn over_budget_keeps_every_argument_and_fits() {
        for budget in [300, 600, 1200, 2500] {
            let f = run(input_top(), Side::Input, budget);
            let listed = &f.listed;
            assert!(f.full.is_some());
            assert_eq!(
                listed["properties"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .collect::<Vec<_>>(),
                ["owner", "repo", "state"],
                "{budget}"
            );
            assert_eq!(listed["required"], json!(["owner", "repo"]));
            assert_eq!(
                listed["properties"]["state"]["enum"],
                json!(["a", "b"]),
                "enums are kept"
            );
            if !f.over {
                assert!(
                    json_size(listed) <= budget,
                    "{budget}: {}",
                    json_size(listed)
                );
            }
            assert!(listed.get("$defs").is_none());
            assert!(jsonschema::draft202012::new(listed).is_ok());
            let text = listed.to_string();
            assert!(text.contains("openapi2mcp://schemas/"), "{budget}: {text}");
        }
    }

    #[test]
    fn summaries_name_fields_and_resources() {
        let f = run(input_top(), Side::Input, 2500);
        let repo = &f.listed["properties"]["repo"];
        let d = repo["description"].as_str().unwrap();
        assert!(d.contains("Repo with 42 fields: field_0, field_1"), "{d}");
        assert!(d.contains("more); required: field_1."), "{d}");
        assert!(d.contains("openapi2mcp://schemas/Repo"), "{d}");
        assert_eq!(repo["type"], "object");
        assert!(
            repo.get("additionalProperties").is_none(),
            "summaries are open"
        );
    }

    #[test]
    fn output_schemas_stay_open_and_accept_the_full_shape() {
        let top = json!({"type": "object", "properties": {"repo": {"$ref": "#/$defs/Repo"}, "items": {"type": "array", "items": {"$ref": "#/$defs/Repo"}}}});
        for budget in [100, 400, 1500] {
            let f = run(top.clone(), Side::Output, budget);
            assert!(!f.over, "{budget}");
            assert!(json_size(&f.listed) <= budget, "{budget}");
            assert!(
                !f.listed
                    .to_string()
                    .contains("\"additionalProperties\":false")
            );
            let instance = json!({"repo": {"field_1": "x", "extra": 1, "owner": {"login": "a", "more": true}}, "items": [{"field_1": "y", "z": 2}]});
            let v = jsonschema::draft202012::new(&f.listed).unwrap();
            assert!(v.is_valid(&instance), "{budget}: {}", f.listed);
        }
    }

    #[test]
    fn deeper_levels_go_first() {
        let whole = json_size(&run(input_top(), Side::Input, 0).listed);
        let shallow = run(input_top(), Side::Input, 1200).listed.to_string();
        let deep = run(input_top(), Side::Input, whole - 1).listed;
        // With room, the repo's own fields are listed in full, and the
        // owner's nested repos are what gets summarized …
        assert!(deep["properties"]["repo"]["properties"]["field_3"]["description"].is_string());
        let owner = &deep["properties"]["repo"]["properties"]["owner"];
        let d = owner.to_string();
        assert!(d.contains("openapi2mcp://schemas/"), "{d}");
        // … and with less, they are summarized before the arguments are.
        assert!(shallow.contains("\"owner\""));
        assert!(shallow.len() < deep.to_string().len());
    }
}
