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
mod tests {
    use serde_json::json;

    use super::*;

    fn tree(pairs: &[(&str, &str)], name: &str) -> Value {
        let mut out = Value::Null;
        for (k, v) in pairs {
            if let Some(path) = segments(k, name) {
                insert(&mut out, &path, Value::from(*v));
            }
        }
        out
    }

    #[test]
    fn indexed_members_nest_as_stripe_and_qs_read_them() {
        let got = tree(
            &[
                ("tax_id_data[0][type]", "eu_vat"),
                ("tax_id_data[0][value]", "DE1"),
                ("tax_id_data[1][type]", "gb_vat"),
                ("other", "x"),
            ],
            "tax_id_data",
        );
        assert_eq!(
            got,
            json!([{"type": "eu_vat", "value": "DE1"}, {"type": "gb_vat"}])
        );
        let got = tree(
            &[
                ("m[a][b]", "1"),
                ("m[tags][0]", "x"),
                ("m[tags][1]", "y"),
                ("m[r]", "1"),
                ("m[r]", "2"),
                ("m[e][]", "p"),
                ("m[e][]", "q"),
            ],
            "m",
        );
        assert_eq!(
            got,
            json!({"a": {"b": "1"}, "tags": ["x", "y"], "r": ["1", "2"], "e": ["p", "q"]})
        );
    }

    #[test]
    fn hostile_keys_stay_small() {
        assert_eq!(segments("m", "m"), None);
        assert_eq!(segments("mx[a]", "m"), None);
        assert_eq!(segments("m[a", "m"), None);
        assert_eq!(segments("m[a]x", "m"), None);
        // A huge index appends; a name under an array is dropped.
        let got = tree(&[("m[99999999999]", "a"), ("m[x]", "b")], "m");
        assert_eq!(got, json!(["a"]));
    }
}
