//! Answering a request from the store instead of the examples, for the
//! routes [`resource::recognize`] gave a role. `None` means "answer as the
//! stateless mock does" (a body that is not an object, a JSON Patch, a
//! list whose response is not recognized).
//!
//! - List: the scope's items in creation order, filtered by the query
//!   parameters that name item properties (exact match on the text of the
//!   value; several values of an array parameter: any of them for a scalar
//!   property, all of them for an array property; a value outside the
//!   property's `enum`, or `all`/`any` when it has none, like GitHub's
//!   `state=all`, does not filter), then
//!   paged: `starting_after`/`ending_before`-like cursors (an item's id),
//!   `offset`-like, `page`-like (times the page size) and `limit`-like
//!   parameters (default: the parameter's documented default, else every
//!   item). A wrapper object gets the page in its items property and, when
//!   it has them, `has_more`, the total and the next cursor (the last id
//!   on the page); its other fields come from the documented example.
//! - Create: the body (JSON, or form fields), `writeOnly` properties left
//!   out, the id made by the server unless the body carries one (a taken
//!   one is 409), every required or `readOnly` property it lacks taken
//!   from the documented response example (else a value synthesized from
//!   the schema). Answered with the documented success status and
//!   `Location` when the response documents that header.
//! - Get / Replace / Merge / Delete: the item or a 404 (the documented 404
//!   response when there is one, else problem JSON). `PUT` keeps the id and
//!   the `readOnly` properties; `PUT` on a missing item creates it only
//!   when the operation documents a 201. `PATCH` is a JSON merge patch
//!   (RFC 7396). `DELETE` answers its documented status: no body for 204,
//!   else the deleted item or the documented body with the id filled in.
//! - A response whose schema is not the item but an object holding it in
//!   one property (`{"data": {...}}`) gets the item in that property.

use serde_json::{Map, Value};

use super::item::{encode, fill, merge_patch, new_id, order, path_id, same_id, text_of};
use super::resource::{self, Resource, Role, Wrap};
use super::respond::{self, Prefer};
use super::shape::{self, Defs};
use super::store::{Scope, ScopeKey, Store};
use super::table::Route;
use super::validate::{Problem, parse_query};
use super::{MockRequest, MockResponse};

/// Everything the stateful mock needs besides the routes.
pub struct Stateful {
    /// The recognized resources and each route's role.
    pub resources: resource::Resources,
    /// Each resource's starting scope (its seed).
    pub seeds: Vec<Scope>,
    /// The converted `$defs` the response schemas name.
    pub defs: Defs,
    /// The items.
    pub store: std::sync::Arc<Store>,
}

impl Stateful {
    /// Recognizes the resources of `routes`; `examples: false` starts every
    /// collection empty (nothing documented is used).
    pub fn new(routes: &[Route], defs: Defs, store: std::sync::Arc<Store>, examples: bool) -> Self {
        let mut resources = resource::recognize(routes, &defs);
        if !examples {
            for r in &mut resources.list {
                r.seed.clear();
            }
        }
        let seeds = resources
            .list
            .iter()
            .map(|r| Scope {
                items: r.seed.clone(),
                next_id: r.first_number(),
            })
            .collect();
        Self {
            resources,
            seeds,
            defs,
            store,
        }
    }
}

/// One request to answer from the store.
pub struct Call<'a> {
    /// The route chosen and its index.
    pub route: &'a Route,
    /// Its index in the table.
    pub index: usize,
    /// The request.
    pub req: &'a MockRequest,
    /// Decoded slot values in template order.
    pub slots: &'a [(String, String)],
    /// Whether documented examples may be used.
    pub examples: bool,
}

/// The answer from the store, or `None` for the stateless answer.
pub fn answer(st: &Stateful, call: &Call<'_>) -> Option<Result<MockResponse, Problem>> {
    let (ri, role) = st.resources.roles.get(call.index).copied().flatten()?;
    let res = &st.resources.list[ri];
    let seed = &st.seeds[ri];
    let key = ScopeKey {
        collection: res.collection.clone(),
        scope: res
            .parents
            .iter()
            .map(|p| {
                let v = slot(call.slots, p).unwrap_or_default();
                (p.clone(), v.to_string())
            })
            .collect(),
    };
    let ctx = Ctx { st, call, res };
    match role {
        Role::List => ctx.list(&key, seed),
        Role::Create => ctx.create(&key, seed),
        Role::Get => Some(ctx.get(&key, seed)),
        Role::Replace => ctx.replace(&key, seed),
        Role::Merge => ctx.merge(&key, seed),
        Role::Delete => Some(ctx.delete(&key, seed)),
    }
}

fn slot<'s>(slots: &'s [(String, String)], name: &str) -> Option<&'s str> {
    slots
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

struct Ctx<'a> {
    st: &'a Stateful,
    call: &'a Call<'a>,
    res: &'a Resource,
}

impl Ctx<'_> {
    fn header(&self, name: &str) -> Option<&str> {
        self.call
            .req
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn id_text(&self) -> &str {
        slot(self.call.slots, &self.res.slot).unwrap_or_default()
    }

    /// The request body as an object, `writeOnly` properties left out.
    fn body(&self) -> Option<Map<String, Value>> {
        let mut obj = resource::body_object(
            self.header("content-type"),
            &self.call.req.body,
            &self.res.shape,
        )?;
        for p in &self.res.shape.props {
            if p.write_only {
                obj.remove(&p.name);
            }
        }
        Some(obj)
    }

    /// How this route's success response carries the item.
    fn item_wrap(&self) -> Wrap {
        let Some(schema) = resource::success(self.call.route).and_then(|(_, m)| m.schema.as_ref())
        else {
            return Wrap::Bare;
        };
        let Some(obj) = shape::object(&self.st.defs, schema) else {
            return Wrap::Bare;
        };
        if obj == self.res.shape || obj.prop(&self.res.id).is_some() {
            return Wrap::Bare;
        }
        obj.props
            .iter()
            .zip(&obj.schemas)
            .find(|(_, s)| {
                shape::object(&self.st.defs, s).is_some_and(|o| o.prop(&self.res.id).is_some())
            })
            .map_or(Wrap::Bare, |(p, _)| Wrap::In(p.name.clone()))
    }

    /// The documented success body (example, else synthesized).
    fn template(&self) -> Option<Value> {
        let (_, media) = resource::success(self.call.route)?;
        let documented = if self.call.examples {
            media.examples.first().map(|(_, v)| v.clone())
        } else {
            None
        };
        documented.or_else(|| media.synthesized.clone())
    }

    /// The documented item of this route's response (the wrapped part).
    fn template_item(&self) -> Option<Map<String, Value>> {
        let t = self.template()?;
        let t = match self.item_wrap() {
            Wrap::Bare => t,
            Wrap::In(p) => t.get(&p)?.clone(),
        };
        match t {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// A response with `body` as JSON (or none for 204/205/304).
    fn respond(&self, status: u16, body: Option<Value>, location: Option<String>) -> MockResponse {
        let success = resource::success(self.call.route);
        let mut headers: Vec<(String, String)> = Vec::new();
        let documented = self
            .call
            .route
            .responses
            .iter()
            .find(|r| r.code == status.to_string());
        let mut wants_location = false;
        for (k, v) in documented.map(|r| r.headers.as_slice()).unwrap_or_default() {
            if k.eq_ignore_ascii_case("location") {
                wants_location = true;
            } else {
                headers.push((k.clone(), v.clone()));
            }
        }
        if wants_location && let Some(l) = location {
            headers.push(("location".into(), l));
        }
        let no_body = matches!(status, 204 | 205 | 304);
        let body = match body {
            Some(v) if !no_body => {
                let ct = success
                    .map(|(_, m)| respond::concrete(&m.media_type))
                    .unwrap_or_else(|| "application/json".into());
                headers.push(("content-type".into(), ct));
                serde_json::to_vec(&v).unwrap_or_default()
            }
            _ => Vec::new(),
        };
        MockResponse {
            status,
            headers,
            body,
        }
    }

    /// The route's success status (`fallback` when no 2xx is documented).
    fn status(&self, fallback: u16) -> u16 {
        self.call
            .route
            .responses
            .iter()
            .filter_map(|r| r.code.parse::<u16>().ok())
            .filter(|c| (200..300).contains(c))
            .min()
            .unwrap_or(fallback)
    }

    /// `item` shaped as this route's response carries it.
    fn shaped(&self, item: Value) -> Value {
        match self.item_wrap() {
            Wrap::Bare => item,
            Wrap::In(p) => {
                let mut t = match self.template() {
                    Some(Value::Object(m)) => m,
                    _ => Map::new(),
                };
                t.insert(p, item);
                Value::Object(t)
            }
        }
    }

    fn not_found(&self) -> Result<MockResponse, Problem> {
        let documented = self
            .call
            .route
            .responses
            .iter()
            .any(|r| r.code == "404" || r.code.eq_ignore_ascii_case("4XX"));
        if documented {
            let prefer = Prefer {
                code: Some("404".into()),
                example: None,
            };
            if let Ok(r) = respond::render(
                self.call.route,
                &prefer,
                self.header("accept"),
                self.call.examples,
            ) {
                return Ok(MockResponse {
                    status: r.status,
                    headers: r.headers,
                    body: r.body,
                });
            }
        }
        Err(Problem {
            status: 404,
            detail: format!(
                "no item with {} `{}` in {}: it was never created, or it was deleted (list the collection to see what exists)",
                self.res.slot,
                self.id_text(),
                self.collection_path()
            ),
        })
    }

    /// The collection's path as requested (the item path less its last segment).
    fn collection_path(&self) -> String {
        let path = &self.call.req.path;
        match self.call.route.path == self.res.item {
            true => path
                .trim_end_matches('/')
                .rsplit_once('/')
                .map_or(path.clone(), |(c, _)| c.to_string()),
            false => path.trim_end_matches('/').to_string(),
        }
    }

    fn get(&self, key: &ScopeKey, seed: &Scope) -> Result<MockResponse, Problem> {
        let id = self.id_text();
        let found = self.st.store.read(key, seed, |s| {
            s.items
                .iter()
                .find(|it| same_id(it.get(&self.res.id), id))
                .cloned()
        });
        match found {
            Some(item) => Ok(self.respond(self.status(200), Some(self.shaped(item)), None)),
            None => self.not_found(),
        }
    }

    fn delete(&self, key: &ScopeKey, seed: &Scope) -> Result<MockResponse, Problem> {
        let id = self.id_text().to_string();
        let removed = self.st.store.write(key, seed, |s| {
            Ok(s.items
                .iter()
                .position(|it| same_id(it.get(&self.res.id), &id))
                .map(|i| s.items.remove(i)))
        })?;
        let Some(item) = removed else {
            return self.not_found();
        };
        let status = self.status(204);
        let same_shape = resource::success(self.call.route)
            .and_then(|(_, m)| m.schema.as_ref())
            .and_then(|s| shape::object(&self.st.defs, s))
            .is_some_and(|o| o == self.res.shape);
        let body = if same_shape {
            Some(self.shaped(item.clone()))
        } else {
            self.template().map(|mut t| {
                if let Some(obj) = t.as_object_mut() {
                    for k in [self.res.id.as_str(), "id"] {
                        if obj.contains_key(k)
                            && let Some(v) = item.get(k)
                        {
                            obj.insert(k.to_string(), v.clone());
                        }
                    }
                }
                t
            })
        };
        Ok(self.respond(status, body, None))
    }

    fn create(&self, key: &ScopeKey, seed: &Scope) -> Option<Result<MockResponse, Problem>> {
        let body = self.body()?;
        let template = self.template_item().unwrap_or_default();
        let res = self.res;
        let made = self.st.store.write(key, seed, |s| {
            let given = body.get(&res.id).filter(|v| !v.is_null()).cloned();
            let id = match given {
                Some(id) => {
                    let text = text_of(&id).unwrap_or_default();
                    if s.items.iter().any(|it| same_id(it.get(&res.id), &text)) {
                        return Err(Problem {
                            status: 409,
                            detail: format!(
                                "an item with {} `{text}` exists already in {}",
                                res.id,
                                self.collection_path()
                            ),
                        });
                    }
                    id
                }
                None => new_id(res, s),
            };
            if let Some(n) = resource::number_of(&id, &res.id_kind) {
                s.next_id = s.next_id.max(n.saturating_add(1));
            }
            let mut item = body.clone();
            item.insert(res.id.clone(), id);
            fill(&mut item, res, &template);
            let item = order(item, res);
            s.items.push(item.clone());
            Ok(item)
        });
        Some(made.map(|item| {
            let location = format!(
                "{}/{}",
                self.call.req.path.trim_end_matches('/'),
                encode(&text_of(&item[&res.id]).unwrap_or_default())
            );
            self.respond(self.status(201), Some(self.shaped(item)), Some(location))
        }))
    }

    fn replace(&self, key: &ScopeKey, seed: &Scope) -> Option<Result<MockResponse, Problem>> {
        let body = self.body()?;
        let res = self.res;
        let id = self.id_text().to_string();
        let creates = self.call.route.responses.iter().any(|r| r.code == "201");
        let template = self.template_item().unwrap_or_default();
        let outcome = self.st.store.write(key, seed, |s| {
            let at = s.items.iter().position(|it| same_id(it.get(&res.id), &id));
            let mut item = body.clone();
            match at {
                Some(i) => {
                    let old = &s.items[i];
                    item.insert(res.id.clone(), old[&res.id].clone());
                    for p in res.shape.props.iter().filter(|p| p.read_only) {
                        if !item.contains_key(&p.name)
                            && let Some(v) = old.get(&p.name)
                        {
                            item.insert(p.name.clone(), v.clone());
                        }
                    }
                    let item = order(item, res);
                    s.items[i] = item.clone();
                    Ok(Some((item, false)))
                }
                None if creates => {
                    let value = path_id(&id, &res.id_kind);
                    if let Some(n) = resource::number_of(&value, &res.id_kind) {
                        s.next_id = s.next_id.max(n.saturating_add(1));
                    }
                    item.insert(res.id.clone(), value);
                    fill(&mut item, res, &template);
                    let item = order(item, res);
                    s.items.push(item.clone());
                    Ok(Some((item, true)))
                }
                None => Ok(None),
            }
        });
        Some(match outcome {
            Ok(Some((item, created))) => {
                let status = if created { 201 } else { self.status(200) };
                let status = if !created && status == 201 {
                    200
                } else {
                    status
                };
                Ok(self.respond(status, Some(self.shaped(item)), None))
            }
            Ok(None) => self.not_found(),
            Err(p) => Err(p),
        })
    }

    fn merge(&self, key: &ScopeKey, seed: &Scope) -> Option<Result<MockResponse, Problem>> {
        if self.header("content-type").is_some_and(|ct| {
            openapi2mcp_model::wire::media::essence(ct) == "application/json-patch+json"
        }) {
            return None;
        }
        let patch = self.body()?;
        let res = self.res;
        let id = self.id_text().to_string();
        let outcome = self.st.store.write(key, seed, |s| {
            let Some(i) = s.items.iter().position(|it| same_id(it.get(&res.id), &id)) else {
                return Ok(None);
            };
            let mut item = s.items[i].clone();
            let keep = item.get(&res.id).cloned();
            merge_patch(&mut item, &Value::Object(patch.clone()));
            if let (Some(obj), Some(keep)) = (item.as_object_mut(), keep) {
                obj.insert(res.id.clone(), keep);
            }
            s.items[i] = item.clone();
            Ok(Some(item))
        });
        Some(match outcome {
            Ok(Some(item)) => Ok(self.respond(self.status(200), Some(self.shaped(item)), None)),
            Ok(None) => self.not_found(),
            Err(p) => Err(p),
        })
    }

    fn list(&self, key: &ScopeKey, seed: &Scope) -> Option<Result<MockResponse, Problem>> {
        let spec = &self.res.list;
        let wrap = spec.wrap.clone()?;
        let query = parse_query(self.call.req.query.as_deref().unwrap_or_default());
        let values = |name: &str| -> Vec<String> {
            query
                .iter()
                .filter(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .collect()
        };
        let items = self.st.store.read(key, seed, |s| s.items.clone());
        // Filters.
        let mut filters: Vec<(&str, Vec<String>)> = Vec::new();
        for name in &spec.filters {
            let array_param = self.call.route.params.iter().any(|p| {
                p.name == *name
                    && p.schema
                        .as_ref()
                        .is_some_and(|s| s.types().iter().any(|t| t == "array"))
            });
            let mut wanted: Vec<String> = values(name);
            if array_param {
                wanted = wanted
                    .iter()
                    .flat_map(|v| v.split(',').map(str::to_string))
                    .filter(|v| !v.is_empty())
                    .collect();
            }
            match self
                .res
                .shape
                .prop(name)
                .and_then(|p| p.enumeration.as_ref())
            {
                Some(allowed) => {
                    wanted.retain(|w| allowed.iter().any(|a| text_of(a).as_deref() == Some(w)))
                }
                // GitHub's `state=all`: "every state", not a state.
                None => wanted.retain(|w| !matches!(w.as_str(), "all" | "any")),
            }
            if !wanted.is_empty() {
                filters.push((name, wanted));
            }
        }
        let kept: Vec<Value> = items
            .into_iter()
            .filter(|it| {
                filters.iter().all(|(name, wanted)| match it.get(*name) {
                    Some(Value::Array(a)) => {
                        let have: Vec<String> = a.iter().filter_map(text_of).collect();
                        wanted.iter().all(|w| have.contains(w))
                    }
                    Some(v) => text_of(v).is_some_and(|t| wanted.contains(&t)),
                    None => false,
                })
            })
            .collect();
        // Cursors, then offset/page and limit.
        let first = |name: &Option<String>| {
            name.as_ref()
                .and_then(|n| values(n).into_iter().next().map(|v| (n.clone(), v)))
        };
        let position = |(name, cursor): (String, String)| {
            kept.iter()
                .position(|it| same_id(it.get(&self.res.id), &cursor))
                .ok_or_else(|| {
                    Problem::bad(format!(
                        "query parameter `{name}`: no item with {} `{cursor}` in {}",
                        self.res.id,
                        self.collection_path()
                    ))
                })
        };
        let mut start = 0usize;
        let mut end = kept.len();
        if let Some(c) = first(&spec.after) {
            start = match position(c) {
                Ok(i) => i + 1,
                Err(p) => return Some(Err(p)),
            };
        }
        if let Some(c) = first(&spec.before) {
            end = match position(c) {
                Ok(i) => i,
                Err(p) => return Some(Err(p)),
            };
        }
        let number = |name: &Option<String>| -> Option<u64> {
            name.as_ref()
                .and_then(|n| values(n).into_iter().next())
                .and_then(|v| v.parse().ok())
        };
        let limit = spec
            .limit
            .as_ref()
            .and_then(|(n, default)| number(&Some(n.clone())).or(*default))
            .map(|l| l as usize);
        if let Some(o) = number(&spec.offset) {
            start = start.saturating_add(o as usize);
        }
        if let (Some((name, first_page)), Some(limit)) = (&spec.page, limit)
            && let Some(p) = number(&Some(name.clone()))
        {
            start = start
                .saturating_add((p.saturating_sub(*first_page) as usize).saturating_mul(limit));
        }
        let before_end = end;
        if spec.before.is_some() && first(&spec.before).is_some() {
            // Items just before the cursor: the last `limit` of them.
            if let Some(limit) = limit {
                start = start.max(end.saturating_sub(limit));
            }
        } else if let Some(limit) = limit {
            end = end.min(start.saturating_add(limit));
        }
        let start = start.min(end);
        let page: Vec<Value> = kept[start..end].to_vec();
        let has_more = end < before_end
            || (spec.before.is_some() && start > 0 && first(&spec.before).is_some());
        let next = if end < before_end {
            page.last()
                .and_then(|it| it.get(&self.res.id))
                .and_then(text_of)
        } else {
            None
        };
        let total = kept.len();
        let body = match &wrap {
            Wrap::Bare => Value::Array(page),
            Wrap::In(p) => {
                let mut t = match self.template() {
                    Some(Value::Object(m)) => m,
                    _ => Map::new(),
                };
                t.insert(p.clone(), Value::Array(page));
                if let Some(f) = &spec.has_more {
                    t.insert(f.clone(), Value::Bool(has_more));
                }
                if let Some(f) = &spec.total {
                    t.insert(f.clone(), Value::from(total));
                }
                if let Some(f) = &spec.next_cursor {
                    t.insert(f.clone(), next.clone().map_or(Value::Null, Value::String));
                }
                Value::Object(t)
            }
        };
        let mut response = self.respond(self.status(200), Some(body), None);
        response.headers.retain(|(k, _)| {
            let k = k.to_ascii_lowercase();
            !(k.contains("cursor") || k.contains("total"))
        });
        let documented: Vec<String> = resource::success(self.call.route)
            .map(|(r, _)| r.headers.iter().map(|(k, _)| k.clone()).collect())
            .unwrap_or_default();
        for k in documented {
            let lower = k.to_ascii_lowercase();
            if lower.contains("cursor")
                && let Some(n) = &next
            {
                response.headers.push((k.clone(), n.clone()));
            } else if lower.contains("total") {
                response.headers.push((k.clone(), total.to_string()));
            }
        }
        Some(Ok(response))
    }
}
