//! Collections and items recognized in the route table, for the stateful
//! mock (`mock --stateful`, `serve --mock`).
//!
//! A *resource* is a collection path and its item path: the item path is
//! the collection path plus one segment that is a bare `{slot}`
//! (`/pets` and `/pets/{petId}`), the collection path ends with a literal
//! segment and has a `GET` (list) or `POST` (create), and the item path
//! has a `GET`. Its item schema is the first object among the item `GET`'s
//! success response, the list's items and the create response; its id
//! property is, in order: the property named like the slot; the slot less
//! the collection's singular (`issue_number` of `issues` → `number`,
//! `petId` → `id`); `id` when the slot is the singular itself (Stripe's
//! `{customer}` of `customers`); `<singular>Id` / `<singular>_id`; the one
//! `readOnly` property whose name ends in `id`. Without an item schema or
//! an id property nothing is recognized, and those paths keep answering
//! with documented examples. Collection paths with slots
//! (`/repos/{owner}/{repo}/issues`) are scoped by their values.
//!
//! Roles: collection `GET` lists, collection `POST` creates, item `GET`
//! reads, `PUT` replaces, `PATCH` merges, `DELETE` removes, and an item
//! `POST` whose success response is the item schema itself merges too
//! (Stripe updates with `POST /v1/customers/{customer}`). Anything else
//! (`POST /pets/{petId}/adopt`, `/pets/{petId}/photo`) has no role.

use serde_json::{Map, Value};

use super::shape::{self, Defs, ObjectShape};
use super::table::{Loc, Route};
use openapi2mcp_model::wire::media::is_json;

/// What one route does to its resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `GET` the collection: the stored items, filtered and paged.
    List,
    /// `POST` the collection: store a new item.
    Create,
    /// `GET` an item.
    Get,
    /// `PUT` an item: replace it.
    Replace,
    /// `PATCH` (or an update-shaped `POST`) an item: merge into it.
    Merge,
    /// `DELETE` an item.
    Delete,
}

/// How an item's id is made when the server makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdKind {
    /// An integer sequence.
    Integer,
    /// A UUID (`format: uuid`, or a string id with nothing to imitate).
    Uuid,
    /// The documented ids' prefix and a number (`inv_1001` → `inv_1003`).
    Prefixed(String),
}

/// How a response carries the item or the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wrap {
    /// The body is the item (or the array of items).
    Bare,
    /// The body is an object with the item (or the items) in this property.
    In(String),
}

/// What a list response and its query parameters mean.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListSpec {
    /// Where the items go (`None`: the list response is not recognized,
    /// the documented example answers).
    pub wrap: Option<Wrap>,
    /// Page size parameter and its documented default.
    pub limit: Option<(String, Option<u64>)>,
    /// Offset parameter (items skipped).
    pub offset: Option<String>,
    /// Page-number parameter and its first page (1, or 0 when documented so).
    pub page: Option<(String, u64)>,
    /// Cursor parameter: items after the one with this id.
    pub after: Option<String>,
    /// Cursor parameter: items before the one with this id.
    pub before: Option<String>,
    /// Query parameters naming item properties: exact-match filters.
    pub filters: Vec<String>,
    /// Wrapper fields filled from the page: `has_more`-like (boolean).
    pub has_more: Option<String>,
    /// Wrapper fields filled from the page: the total (integer).
    pub total: Option<String>,
    /// Wrapper fields filled from the page: the next cursor (string).
    pub next_cursor: Option<String>,
}

/// One recognized collection and its items.
#[derive(Debug, Clone)]
pub struct Resource {
    /// The collection's path template (`/repos/{owner}/{repo}/issues`).
    pub collection: String,
    /// The item's path template (`…/issues/{issue_number}`).
    pub item: String,
    /// The item path's last slot (`issue_number`).
    pub slot: String,
    /// The collection path's slots, which scope the items.
    pub parents: Vec<String>,
    /// The item's id property (`number`).
    pub id: String,
    /// How new ids are made.
    pub id_kind: IdKind,
    /// The item schema, flat.
    pub shape: ObjectShape,
    /// Items from the document's examples, every scope's starting state.
    pub seed: Vec<Value>,
    /// The list operation's reading of its response and parameters.
    pub list: ListSpec,
}

impl Resource {
    /// The first free number of the seed's ids (integer or prefixed).
    pub fn first_number(&self) -> u64 {
        self.seed
            .iter()
            .filter_map(|item| number_of(item.get(&self.id)?, &self.id_kind))
            .max()
            .map_or(1, |n| n.saturating_add(1))
    }
}

/// The number an id carries: an integer id, or the digits after the prefix.
pub fn number_of(id: &Value, kind: &IdKind) -> Option<u64> {
    match (kind, id) {
        (IdKind::Integer, Value::Number(n)) => n.as_u64(),
        (IdKind::Prefixed(prefix), Value::String(s)) => {
            s.strip_prefix(prefix.as_str())?.parse().ok()
        }
        _ => None,
    }
}

/// The resources of a route table, and each route's role.
#[derive(Debug, Default)]
pub struct Resources {
    /// The recognized resources.
    pub list: Vec<Resource>,
    /// Parallel to the routes: the resource (index) and role of each.
    pub roles: Vec<Option<(usize, Role)>>,
}

/// Recognizes the resources of `routes` (schemas read through `defs`).
pub fn recognize(routes: &[Route], defs: &Defs) -> Resources {
    let mut out = Resources {
        list: Vec::new(),
        roles: vec![None; routes.len()],
    };
    let mut item_paths: Vec<&str> = routes
        .iter()
        .map(|r| r.path.as_str())
        .filter(|p| item_slot(p).is_some())
        .collect();
    item_paths.sort_unstable();
    item_paths.dedup();
    for item in item_paths {
        if let Some((resource, roles)) = one(routes, defs, item) {
            let index = out.list.len();
            for (route, role) in roles {
                out.roles[route] = Some((index, role));
            }
            out.list.push(resource);
        }
    }
    out
}

/// `(collection path, slot)` when the last segment of `path` is a bare
/// slot after a literal segment.
fn item_slot(path: &str) -> Option<(&str, &str)> {
    let (collection, last) = path.rsplit_once('/')?;
    let slot = last.strip_prefix('{')?.strip_suffix('}')?;
    if slot.is_empty() || slot.contains(['{', '}']) {
        return None;
    }
    let literal = collection.rsplit('/').next()?;
    if literal.is_empty() || literal.contains(['{', '}']) {
        return None;
    }
    Some((collection, slot))
}

/// The path's slots in order.
fn slots(path: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        out.push(after[..close].to_string());
        rest = &after[close + 1..];
    }
    out
}

/// The lowest documented 2xx response's JSON media of a route.
pub fn success(route: &Route) -> Option<(&super::table::Response, &super::table::Media)> {
    let response = route
        .responses
        .iter()
        .filter(|r| r.code.len() == 3 && r.code.starts_with('2') && r.code.parse::<u16>().is_ok())
        .min_by_key(|r| r.code.clone())?;
    let media = response.media.iter().find(|m| is_json(&m.media_type))?;
    Some((response, media))
}

fn success_schema(route: &Route) -> Option<&Value> {
    success(route).and_then(|(_, m)| m.schema.as_ref())
}

fn one(routes: &[Route], defs: &Defs, item: &str) -> Option<(Resource, Vec<(usize, Role)>)> {
    let (collection, slot) = item_slot(item)?;
    let find = |path: &str, method: &str| {
        routes
            .iter()
            .position(|r| r.path == path && r.method == method)
    };
    let get_item = find(item, "GET")?;
    let list = find(collection, "GET");
    let create = find(collection, "POST").filter(|&i| routes[i].body.is_some());
    if list.is_none() && create.is_none() {
        return None;
    }
    let list_schema = list.and_then(|i| success_schema(&routes[i]));
    let list_wrap = list_schema.and_then(|s| list_wrap(defs, s, collection));
    // The items of a wrapped list: the wrapper property's `items`.
    let wrapped_items: Option<Value> = match (&list_wrap, list_schema) {
        (Some(Wrap::In(p)), Some(s)) => shape::object(defs, s)
            .and_then(|o| o.schema_of(p).cloned())
            .and_then(|arr| arr.get("items").cloned()),
        _ => None,
    };
    let candidates: Vec<Value> = [
        success_schema(&routes[get_item]).cloned(),
        match (&list_wrap, list_schema) {
            (Some(Wrap::Bare), Some(s)) => shape::items(defs, s).cloned(),
            _ => wrapped_items,
        },
        create.and_then(|i| success_schema(&routes[i])).cloned(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let item_shape = candidates.iter().find_map(|s| shape::object(defs, s))?;
    let name = collection.rsplit('/').next().unwrap_or_default();
    let id = id_property(slot, name, &item_shape)?;
    let id_prop = item_shape.prop(&id)?;

    let mut roles = Vec::new();
    roles.push((get_item, Role::Get));
    if let Some(i) = create {
        roles.push((i, Role::Create));
    }
    if let Some(i) = find(item, "PUT") {
        roles.push((i, Role::Replace));
    }
    if let Some(i) = find(item, "PATCH") {
        roles.push((i, Role::Merge));
    }
    if let Some(i) = find(item, "DELETE") {
        roles.push((i, Role::Delete));
    }
    if let Some(i) = find(item, "POST")
        && routes[i].body.is_some()
        && success_schema(&routes[i])
            .and_then(|s| shape::object(defs, s))
            .is_some_and(|s| s == item_shape)
    {
        roles.push((i, Role::Merge));
    }
    let mut list_spec = ListSpec::default();
    if let Some(i) = list {
        list_spec = list_spec_of(&routes[i], defs, list_wrap.clone(), &item_shape);
        if list_spec.wrap.is_some() {
            roles.push((i, Role::List));
        }
    }

    let mut seed: Vec<Value> = Vec::new();
    let mut add = |item: &Value, replace: bool| {
        let Some(obj) = item.as_object() else { return };
        let Some(key) = obj.get(&id) else { return };
        match seed.iter_mut().find(|s| s.get(&id) == Some(key)) {
            Some(existing) if replace => *existing = item.clone(),
            Some(_) => {}
            None => seed.push(item.clone()),
        }
    };
    if let (Some(i), Some(wrap)) = (list, &list_spec.wrap)
        && let Some(example) = first_example(&routes[i])
    {
        let items = match wrap {
            Wrap::Bare => example.as_array(),
            Wrap::In(p) => example.get(p).and_then(Value::as_array),
        };
        for it in items.into_iter().flatten() {
            add(it, false);
        }
    }
    if let Some(example) = first_example(&routes[get_item]) {
        add(example, true);
    }
    let id_kind = id_kind(id_prop, &seed, &id);
    Some((
        Resource {
            collection: collection.to_string(),
            item: item.to_string(),
            slot: slot.to_string(),
            parents: slots(collection),
            id,
            id_kind,
            shape: item_shape,
            seed,
            list: list_spec,
        },
        roles,
    ))
}

/// The first documented example of a route's success JSON response.
pub fn first_example(route: &Route) -> Option<&Value> {
    success(route).and_then(|(_, m)| m.examples.first().map(|(_, v)| v))
}

/// Words of an identifier: `issue_number` → `[issue, number]`, `petId` →
/// `[pet, id]`, lower case.
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c == '.' {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `pets` → `pet`, `categories` → `category`, `addresses` → `address`.
pub fn singular(word: &str) -> String {
    let w = word.to_ascii_lowercase();
    if let Some(stem) = w.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for end in ["sses", "shes", "ches", "xes"] {
        if w.ends_with(end) {
            return w[..w.len() - 2].to_string();
        }
    }
    match w.strip_suffix('s') {
        Some(stem) if !stem.ends_with('s') => stem.to_string(),
        _ => w,
    }
}

/// The id property of an item, by the rules in the module comment.
pub fn id_property(slot: &str, collection: &str, shape: &ObjectShape) -> Option<String> {
    let has = |n: &str| shape.prop(n).is_some();
    if has(slot) {
        return Some(slot.to_string());
    }
    let slot_words = words(slot);
    let singular_words = words(&singular(collection));
    let find_words = |wanted: &[String]| {
        shape
            .props
            .iter()
            .find(|p| words(&p.name) == wanted)
            .map(|p| p.name.clone())
    };
    if slot_words.len() > singular_words.len()
        && slot_words.starts_with(&singular_words)
        && let Some(p) = find_words(&slot_words[singular_words.len()..])
    {
        return Some(p);
    }
    if slot_words.last().is_some_and(|w| w == "id") && has("id") {
        return Some("id".into());
    }
    if slot_words == singular_words && has("id") {
        return Some("id".into());
    }
    let mut with_id = singular_words.clone();
    with_id.push("id".into());
    if let Some(p) = find_words(&with_id) {
        return Some(p);
    }
    if slot_words.last().is_some_and(|w| w == "id") {
        let ids: Vec<&str> = shape
            .props
            .iter()
            .filter(|p| p.read_only && words(&p.name).last().is_some_and(|w| w == "id"))
            .map(|p| p.name.as_str())
            .collect();
        if let [one] = ids.as_slice() {
            return Some(one.to_string());
        }
    }
    None
}

fn id_kind(prop: &shape::Prop, seed: &[Value], id: &str) -> IdKind {
    if matches!(prop.ty.as_deref(), Some("integer" | "number")) {
        return IdKind::Integer;
    }
    if prop.format.as_deref() == Some("uuid") {
        return IdKind::Uuid;
    }
    // Imitate the documented ids: the text before their trailing digits.
    let prefixes: Vec<&str> = seed
        .iter()
        .filter_map(|s| s.get(id)?.as_str())
        .filter_map(|s| {
            let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            (digits > 0).then(|| &s[..s.len() - digits])
        })
        .collect();
    match prefixes.first() {
        Some(p) if prefixes.iter().all(|q| q == p) => IdKind::Prefixed(p.to_string()),
        _ => IdKind::Uuid,
    }
}

/// Property names of a list wrapper that hold the items, best first.
const ITEM_FIELDS: &[&str] = &[
    "data", "items", "results", "values", "value", "entries", "records", "elements", "content",
];

/// How a list response carries its items: bare array, or the array
/// property of a wrapper object (one of [`ITEM_FIELDS`], one named like
/// the collection, or the only array of objects).
fn list_wrap(defs: &Defs, schema: &Value, collection: &str) -> Option<Wrap> {
    if shape::type_of(defs, schema).as_deref() == Some("array") {
        return Some(Wrap::Bare);
    }
    let obj = shape::object(defs, schema)?;
    let arrays: Vec<&str> = obj
        .props
        .iter()
        .filter(|p| p.ty.as_deref() == Some("array") && p.item_ty.as_deref() == Some("object"))
        .map(|p| p.name.as_str())
        .collect();
    ITEM_FIELDS
        .iter()
        .copied()
        .chain([collection])
        .find(|f| arrays.contains(f))
        .or(match arrays.as_slice() {
            [one] => Some(*one),
            _ => None,
        })
        .map(|p| Wrap::In(p.to_string()))
}

const LIMIT: &[&str] = &[
    "limit",
    "per_page",
    "perPage",
    "page_size",
    "pageSize",
    "max_results",
    "maxResults",
    "$top",
];
const OFFSET: &[&str] = &[
    "offset",
    "skip",
    "$skip",
    "start",
    "start_index",
    "startIndex",
];
const PAGE: &[&str] = &["page", "page_number", "pageNumber"];
const AFTER: &[&str] = &[
    "starting_after",
    "after",
    "cursor",
    "page_token",
    "pageToken",
    "next_token",
    "nextToken",
    "continuation_token",
    "continuationToken",
    "marker",
];
const BEFORE: &[&str] = &["ending_before", "before"];
const HAS_MORE: &[&str] = &["has_more", "hasMore", "has_next", "hasNext", "more"];
const TOTAL: &[&str] = &[
    "total",
    "total_count",
    "totalCount",
    "count",
    "total_results",
    "totalResults",
    "total_items",
    "totalItems",
];
const NEXT: &[&str] = &[
    "next_cursor",
    "nextCursor",
    "next_page_token",
    "nextPageToken",
    "next_token",
    "nextToken",
    "cursor",
];

fn list_spec_of(route: &Route, defs: &Defs, wrap: Option<Wrap>, item: &ObjectShape) -> ListSpec {
    let query: Vec<&super::table::Param> = route
        .params
        .iter()
        .filter(|p| p.loc == Loc::Query)
        .collect();
    let named = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| query.iter().find(|p| p.name == *n))
            .copied()
    };
    let default_of = |p: &super::table::Param| {
        p.schema
            .as_ref()
            .and_then(|s| s.value.get("default"))
            .and_then(Value::as_u64)
    };
    let limit = named(LIMIT).map(|p| (p.name.clone(), default_of(p)));
    let page = named(PAGE).map(|p| {
        let zero = p.schema.as_ref().is_some_and(|s| {
            s.value.get("minimum").and_then(Value::as_u64) == Some(0)
                || s.value.get("default").and_then(Value::as_u64) == Some(0)
        });
        (p.name.clone(), if zero { 0 } else { 1 })
    });
    let offset = named(OFFSET).map(|p| p.name.clone());
    let after = named(AFTER).map(|p| p.name.clone());
    let before = named(BEFORE).map(|p| p.name.clone());
    let paging: Vec<&str> = [
        limit.as_ref().map(|l| l.0.as_str()),
        page.as_ref().map(|p| p.0.as_str()),
        offset.as_deref(),
        after.as_deref(),
        before.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let filters = query
        .iter()
        .filter(|p| !paging.contains(&p.name.as_str()))
        .filter(|p| item.prop(&p.name).is_some_and(shape::Prop::filterable))
        .map(|p| p.name.clone())
        .collect();
    let wrapper: Option<ObjectShape> = match &wrap {
        Some(Wrap::In(_)) => success_schema(route).and_then(|s| shape::object(defs, s)),
        _ => None,
    };
    let field = |names: &[&str], types: &[&str]| {
        wrapper.as_ref().and_then(|w| {
            names
                .iter()
                .find(|n| {
                    w.prop(n)
                        .is_some_and(|p| p.ty.as_deref().is_none_or(|t| types.contains(&t)))
                })
                .map(|n| n.to_string())
        })
    };
    ListSpec {
        has_more: field(HAS_MORE, &["boolean"]),
        total: field(TOTAL, &["integer", "number"]),
        next_cursor: field(NEXT, &["string"]),
        wrap,
        limit,
        offset,
        page,
        after,
        before,
        filters,
    }
}

/// A JSON object from `body` read as its schema says: JSON, or
/// `application/x-www-form-urlencoded` pairs (`a[b][c]=v` nested,
/// `a[0]=x` and `a[]=x` arrays, `a[0][b]=v` objects in arrays: see
/// [`super::brackets`]) coerced by the item's property types. `None` when the
/// body is not an object (then the documented example answers).
pub fn body_object(
    content_type: Option<&str>,
    body: &[u8],
    shape: &ObjectShape,
) -> Option<Map<String, Value>> {
    let ct = content_type.map(openapi2mcp_model::wire::media::essence);
    match ct.as_deref() {
        Some("application/x-www-form-urlencoded") => Some(form_object(body, shape)),
        Some(t) if !is_json(t) => None,
        _ if body.is_empty() => Some(Map::new()),
        _ => match serde_json::from_slice(body).ok()? {
            Value::Object(m) => Some(m),
            _ => None,
        },
    }
}

fn form_object(body: &[u8], shape: &ObjectShape) -> Map<String, Value> {
    let text = String::from_utf8_lossy(body);
    let mut out = Map::new();
    for (key, value) in super::validate::parse_query(&text) {
        let name = key
            .split_once('[')
            .map_or(key.as_str(), |(n, _)| n)
            .to_string();
        let slot = out.entry(name.clone()).or_insert(Value::Null);
        match super::brackets::segments(&key, &name) {
            Some(path) => super::brackets::insert(slot, &path, Value::String(value)),
            None => super::brackets::insert(slot, &[], Value::String(value)),
        }
    }
    out.into_iter()
        .map(|(name, value)| {
            let typed = match (shape.prop(&name), value) {
                (Some(prop), Value::String(text)) => form_scalar(prop.ty.as_deref(), &text),
                (Some(prop), Value::Array(items)) => Value::Array(
                    items
                        .into_iter()
                        .map(|item| match item {
                            Value::String(text) => form_scalar(prop.item_ty.as_deref(), &text),
                            other => other,
                        })
                        .collect(),
                ),
                (_, other) => other,
            };
            (name, typed)
        })
        .collect()
}

/// A form value as the property's type says (`integer`, `number`,
/// `boolean`); text otherwise, or when it does not parse.
fn form_scalar(ty: Option<&str>, text: &str) -> Value {
    match ty {
        Some("integer") => text
            .parse::<i64>()
            .map_or_else(|_| Value::from(text), Value::from),
        Some("number") => text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| Value::from(text), Value::Number),
        Some("boolean") => match text {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::from(text),
        },
        _ => Value::from(text),
    }
}

#[cfg(test)]
#[path = "resource_tests.rs"]
mod tests;
