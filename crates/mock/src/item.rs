//! What the stateful mock does to one item: ids compared by their text,
//! new ids made (an integer sequence, the documented prefix and a number,
//! or a UUID), server-set properties filled in, properties put in schema
//! order, JSON merge patches (RFC 7396) applied, ids escaped for a
//! `Location`.

use serde_json::{Map, Value};

use super::resource::{IdKind, Resource};
use super::store::Scope;

/// Whether a stored id is the one a path names.
pub fn same_id(id: Option<&Value>, text: &str) -> bool {
    match id {
        Some(Value::String(s)) => s == text,
        Some(Value::Number(n)) => n.to_string() == text,
        Some(Value::Bool(b)) => b.to_string() == text,
        _ => false,
    }
}

/// The text a value compares as, for filters.
pub fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
        _ => None,
    }
}

/// A new id for `res` in scope `s` (never one in use).
pub fn new_id(res: &Resource, s: &mut Scope) -> Value {
    let taken = |s: &Scope, v: &Value| {
        let t = text_of(v).unwrap_or_default();
        s.items.iter().any(|it| same_id(it.get(&res.id), &t))
    };
    let mut n = s.next_id.max(1);
    for _ in 0..=s.items.len() {
        let v = match &res.id_kind {
            IdKind::Integer => Value::from(n),
            IdKind::Prefixed(p) => Value::String(format!("{p}{n}")),
            IdKind::Uuid => Value::String(uuid(&res.collection, n)),
        };
        if !taken(s, &v) {
            s.next_id = n.saturating_add(1);
            return v;
        }
        n = n.saturating_add(1);
    }
    Value::from(n)
}

/// A deterministic version-4-shaped UUID from the collection and a number.
pub fn uuid(collection: &str, n: u64) -> String {
    // FNV-1a of the collection path: different collections, different ids.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in collection.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        (h >> 32) as u32,
        (h >> 16) as u16,
        h as u16 & 0x0fff,
        (n >> 48) as u16 & 0x0fff,
        n & 0xffff_ffff_ffff
    )
}

/// The id a path names, typed like the resource's ids.
pub fn path_id(text: &str, kind: &IdKind) -> Value {
    match kind {
        IdKind::Integer => text
            .parse::<i64>()
            .map_or_else(|_| Value::from(text), Value::from),
        _ => Value::from(text),
    }
}

/// Fills what a server sets: required and `readOnly` properties the item
/// lacks, from the documented response item.
pub fn fill(item: &mut Map<String, Value>, res: &Resource, template: &Map<String, Value>) {
    for p in &res.shape.props {
        let wanted = p.read_only || res.shape.required.contains(&p.name);
        if wanted
            && !p.write_only
            && !item.contains_key(&p.name)
            && let Some(v) = template.get(&p.name)
        {
            item.insert(p.name.clone(), v.clone());
        }
    }
}

/// The item with its properties in schema order (the id first when the
/// schema puts it first), extra ones after.
pub fn order(mut item: Map<String, Value>, res: &Resource) -> Value {
    let mut out = Map::new();
    if let Some(v) = item.remove(&res.id) {
        out.insert(res.id.clone(), v);
    }
    for p in &res.shape.props {
        if let Some(v) = item.remove(&p.name) {
            out.insert(p.name.clone(), v);
        }
    }
    out.extend(item);
    Value::Object(out)
}

/// RFC 7396 JSON merge patch.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(t) = target else { return };
    for (k, v) in patch {
        if v.is_null() {
            t.remove(k);
        } else {
            merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
        }
    }
}

/// A path segment with everything but unreserved characters escaped.
pub fn encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC)
        .to_string()
        .replace("%2D", "-")
        .replace("%5F", "_")
        .replace("%2E", ".")
        .replace("%7E", "~")
}

#[cfg(test)]
#[path = "item_tests.rs"]
mod tests;
