//! YAML documents read as JSON values: aliases counted before they are
//! expanded (an alias bomb is refused, not built), merge keys applied,
//! non-string keys (`200:`) turned into strings (see
//! [`super::parse::parse_text`], which decides JSON or YAML).

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use super::diag::Diagnostic;

/// `text` (YAML) as a JSON value, or why it cannot be read.
pub(super) fn parse(text: &str, file: &str) -> Result<Value, Diagnostic> {
    check_alias_expansion(text, file)?;
    let yaml: serde_norway::Value = serde_norway::from_str(text).map_err(|e| {
        Diagnostic::error(file, "", format!("invalid YAML: {e}"))
            .at_line(e.location().map(|l| l.line()))
    })?;
    yaml_to_json(yaml, file)
}

/// How many YAML nodes a document may expand to beyond one per byte of its
/// text: aliases may repeat parts of a document, but nested aliases (the
/// "billion laughs") must not turn a small text into gigabytes.
const ALIAS_SLACK: u64 = 1_000_000;

/// Refuses a YAML text whose aliases expand it to more than
/// [`ALIAS_SLACK`] nodes plus one per byte. serde_norway's own limit (100
/// alias jumps per parser event) grows with the document: a 600 kB
/// document holding a nine-level alias bomb expanded past 24 GB. The count
/// is a parse that builds nothing and stops at the limit, run only when the
/// text may hold both an anchor and an alias; any other error is left to
/// the real parse.
fn check_alias_expansion(text: &str, file: &str) -> Result<(), Diagnostic> {
    if !(may_hold(text, b'&') && may_hold(text, b'*')) {
        return Ok(());
    }
    let budget = NodeBudget {
        left: std::cell::Cell::new(ALIAS_SLACK + text.len() as u64),
        exceeded: std::cell::Cell::new(false),
    };
    let _ = (&budget).deserialize(serde_norway::Deserializer::from_str(text));
    match budget.exceeded.get() {
        true => Err(Diagnostic::error(
            file,
            "",
            format!(
                "invalid YAML: its aliases expand it to more than {} nodes (one per byte plus \
                 {ALIAS_SLACK}); a document should not repeat itself that often",
                ALIAS_SLACK + text.len() as u64
            ),
        )),
        false => Ok(()),
    }
}

/// Whether `sigil` (`&` anchor, `*` alias) occurs where YAML would read it:
/// at a node's start (after a blank, a line break, `[`, `{` or `,`, or at
/// the very beginning) and followed by a name character.
fn may_hold(text: &str, sigil: u8) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| {
        b == sigil
            && (i == 0
                || matches!(
                    bytes[i - 1],
                    b' ' | b'\t' | b'\n' | b'\r' | b'[' | b'{' | b','
                ))
            && bytes
                .get(i + 1)
                .is_some_and(|&n| !n.is_ascii_whitespace() && !b",[]{}".contains(&n))
    })
}

/// Counts nodes while a YAML document is deserialized, building nothing,
/// and fails once more than `left` were seen.
struct NodeBudget {
    left: std::cell::Cell<u64>,
    exceeded: std::cell::Cell<bool>,
}

impl NodeBudget {
    fn spend<E: serde::de::Error>(&self) -> Result<(), E> {
        match self.left.get() {
            0 => {
                self.exceeded.set(true);
                Err(E::custom("alias expansion limit"))
            }
            n => {
                self.left.set(n - 1);
                Ok(())
            }
        }
    }
}

impl<'de> DeserializeSeed<'de> for &NodeBudget {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

macro_rules! count_scalars {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(fn $method<E: serde::de::Error>(self, _: $ty) -> Result<(), E> {
            self.spend()
        })*
    };
}

impl<'de> Visitor<'de> for &NodeBudget {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML node")
    }

    count_scalars!(
        visit_bool(bool),
        visit_i64(i64),
        visit_i128(i128),
        visit_u64(u64),
        visit_u128(u128),
        visit_f64(f64),
        visit_str(&str),
        visit_bytes(&[u8]),
    );

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.spend()
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        self.spend()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.spend()?;
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.spend()?;
        while map.next_key_seed(self)?.is_some() {
            map.next_value_seed(self)?;
        }
        Ok(())
    }

    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        use serde::de::VariantAccess;
        self.spend()?;
        let ((), variant) = data.variant_seed(self)?;
        variant.newtype_variant_seed(self)
    }
}

/// Converts a YAML value to JSON: merge keys applied, non-string keys
/// stringified (`200:` → `"200"`), tags dropped.
fn yaml_to_json(mut yaml: serde_norway::Value, file: &str) -> Result<Value, Diagnostic> {
    yaml.apply_merge()
        .map_err(|e| Diagnostic::error(file, "", format!("invalid YAML merge key: {e}")))?;
    Ok(convert_yaml(yaml))
}

fn convert_yaml(yaml: serde_norway::Value) -> Value {
    use serde_norway::Value as Y;
    match yaml {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => yaml_number(&n),
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(items.into_iter().map(convert_yaml).collect()),
        Y::Mapping(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (yaml_key(k), convert_yaml(v)))
                .collect(),
        ),
        Y::Tagged(tagged) => convert_yaml(tagged.value),
    }
}

fn yaml_number(n: &serde_norway::Number) -> Value {
    if let Some(i) = n.as_i64() {
        Value::from(i)
    } else if let Some(u) = n.as_u64() {
        Value::from(u)
    } else {
        n.as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| Value::String(n.to_string()), Value::Number)
    }
}

fn yaml_key(key: serde_norway::Value) -> String {
    use serde_norway::Value as Y;
    match key {
        Y::String(s) => s,
        Y::Null => "null".to_string(),
        Y::Bool(b) => b.to_string(),
        Y::Number(n) => n.to_string(),
        other => serde_json::to_string(&convert_yaml(other)).unwrap_or_default(),
    }
}

#[cfg(test)]
#[path = "yaml_tests.rs"]
mod tests;
