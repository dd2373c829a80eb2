//! Bracketed query and form keys (`a[b][0][c]=v`) read back into JSON:
//! how the runtime writes `deepObject` values (array members indexed, as
//! Stripe reads them) and how `qs` and PHP parse them. Each pair adds at
//! most one value, so a hostile query cannot make the tree larger than
//! itself: an index past an array's end appends, as `qs` compacts.

use serde_json::{Map, Value};

/// The bracketed segments of `key` after `name` (`a[b][0]` with name `a`:
/// `["b", "0"]`); `None` when `key` is not `name` followed by brackets
/// only.
pub fn segments<'k>(key: &'k str, name: &str) -> Option<Vec<&'k str>> {
    let mut rest = key.strip_prefix(name)?;
    if rest.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    while !rest.is_empty() {
        let inner = rest.strip_prefix('[')?;
        let end = inner.find(']')?;
        out.push(&inner[..end]);
        rest = &inner[end + 1..];
    }
    Some(out)
}

/// Puts `value` at `path` in `tree`: a name makes an object member, an
/// index (or `[]`) an array item; a leaf given twice becomes an array of
/// both (the key repeated, as older writers send an array).
pub fn insert(tree: &mut Value, path: &[&str], value: Value) {
    let Some((first, rest)) = path.split_first() else {
        match tree {
            Value::Null => *tree = value,
            Value::Array(items) => items.push(value),
            other => {
                let before = std::mem::take(other);
                *other = Value::Array(vec![before, value]);
            }
        }
        return;
    };
    let index = match first.is_empty() {
        true => Some(usize::MAX),
        false => first.parse::<usize>().ok(),
    };
    if tree.is_null() {
        *tree = match index {
            Some(_) => Value::Array(Vec::new()),
            None => Value::Object(Map::new()),
        };
    }
    match tree {
        Value::Array(items) if index.is_some() => {
            let at = index.unwrap_or(usize::MAX);
            if at >= items.len() {
                items.push(Value::Null);
            }
            let last = items.len() - 1;
            insert(&mut items[at.min(last)], rest, value);
        }
        Value::Object(members) => {
            insert(
                members.entry(first.to_string()).or_insert(Value::Null),
                rest,
                value,
            );
        }
        // A name under an array, or anything under a scalar: not a shape
        // any writer sends; the pair is dropped.
        _ => {}
    }
}

#[cfg(test)]
#[path = "brackets_tests.rs"]
mod tests;
