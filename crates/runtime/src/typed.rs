//! Serde helpers for the typed argument structs of generated crates.
//!
//! A generated crate reads a call's arguments (already checked against the
//! tool's input schema) into Rust structs and enums, lets custom code work
//! on them, and serializes them back into the request. That round trip
//! must give back exactly what the client sent, which plain derived serde
//! does not in three places, each handled here:
//!
//! - **Integers**: JSON Schema counts `1.0` as an integer, serde does not;
//!   [`integers`] reads any integral JSON number into `i64`/`i32`/`u64`
//!   (and `Option`s and `Vec`s of them) and names a value that does not fit
//!   instead of wrapping or rounding it.
//! - **`null` apart from absence**: an optional member that may be `null`
//!   is `Option<Option<T>>`; [`present`] (and [`present_integers`]) make a
//!   `null` the client sent `Some(None)`, so it is sent on as `null`.
//! - **Member order**: a nested object's members reach the API (a JSON
//!   body, a `deepObject` query) in the order the client gave them. A
//!   struct has one fixed order, so each nested struct keeps a
//!   [`MemberOrder`], read by [`members_in_order`] and applied by
//!   [`serialize_in_order`].
//!
//! Self-contained: no imports from the rest of the crate.

use std::fmt;
use std::sync::Arc;

use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{self, Serialize, Serializer};
use serde_json::{Map, Number, Value};

/// The order in which the client sent an object's members, kept by a
/// generated struct so that it is serialized in that order again. Empty for
/// a struct built in code (then the struct's field order is used). Never
/// makes two values different: every `MemberOrder` equals every other.
#[derive(Clone, Default)]
pub struct MemberOrder(Option<Arc<[String]>>);

impl MemberOrder {
    /// The member names, in the order they were read.
    pub fn names(&self) -> &[String] {
        self.0.as_deref().unwrap_or_default()
    }
}

impl PartialEq for MemberOrder {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for MemberOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

/// Reads an object as JSON members and their order, for a generated
/// struct's `Deserialize` (which then reads its fields from the members).
pub fn members_in_order<'de, D: Deserializer<'de>>(d: D) -> Result<(Value, MemberOrder), D::Error> {
    let members = Map::<String, Value>::deserialize(d)?;
    let order: Arc<[String]> = members.keys().cloned().collect();
    Ok((Value::Object(members), MemberOrder(Some(order))))
}

/// Serializes `members` (a generated struct serialized as JSON) with the
/// members named in `order` first, in that order, then the rest as they
/// come (fields in declaration order, then unknown members).
pub fn serialize_in_order<S: Serializer>(
    order: &MemberOrder,
    members: Result<Value, serde_json::Error>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match members.map_err(ser::Error::custom)? {
        Value::Object(map) => reorder(map, order.names()).serialize(s),
        other => other.serialize(s),
    }
}

/// `map` with the keys in `order` first (those present), then the others.
fn reorder(mut map: Map<String, Value>, order: &[String]) -> Map<String, Value> {
    if order.is_empty() {
        return map;
    }
    let mut out = Map::with_capacity(map.len());
    for name in order {
        if let Some((key, value)) = map.remove_entry(name) {
            out.insert(key, value);
        }
    }
    out.extend(map);
    out
}

/// For an optional member that may be `null` (`Option<Option<T>>`, with
/// `#[serde(default, deserialize_with = "present")]`): present is `Some`,
/// so a `null` the client sent is `Some(None)` and is sent on.
pub fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

/// Integer-typed values read from any integral JSON number (`1` and `1.0`
/// alike, as JSON Schema's `integer`), refusing one that does not fit.
pub trait Integers: Sized {
    /// Reads `value`, or says why it cannot be read.
    fn from_json(value: Value) -> Result<Self, String>;
}

/// The number as an `i128` when it is integral and exactly known.
fn integral(n: &Number) -> Result<i128, String> {
    if let Some(i) = n.as_i64() {
        return Ok(i.into());
    }
    if let Some(u) = n.as_u64() {
        return Ok(u.into());
    }
    // A float: integral, and within ±2^53, where a float is the integer the
    // client wrote (past it, `9007199254740993.0` reads as ...992).
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match n.as_f64() {
        Some(f) if f.fract() != 0.0 => Err(format!("{n} is not an integer")),
        Some(f) if f.abs() <= EXACT => Ok(f as i128),
        _ => Err(format!(
            "{n} is written as a decimal number too large to read exactly as an integer"
        )),
    }
}

macro_rules! integers {
    ($($ty:ty => $what:literal),*) => {$(
        impl Integers for $ty {
            fn from_json(value: Value) -> Result<Self, String> {
                let Value::Number(n) = &value else {
                    return Err(format!("expected an integer, got {value}"));
                };
                let i = integral(n)?;
                <$ty>::try_from(i).map_err(|_| format!("{n} does not fit: expected {}", $what))
            }
        }
    )*};
}

integers!(
    i64 => "an integer from -2^63 to 2^63-1 (i64)",
    i32 => "an integer from -2^31 to 2^31-1 (i32)",
    u64 => "an integer from 0 to 2^64-1 (u64)"
);

impl<T: Integers> Integers for Option<T> {
    fn from_json(value: Value) -> Result<Self, String> {
        match value {
            Value::Null => Ok(None),
            other => T::from_json(other).map(Some),
        }
    }
}

impl<T: Integers> Integers for Vec<T> {
    fn from_json(value: Value) -> Result<Self, String> {
        match value {
            Value::Array(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, item)| T::from_json(item).map_err(|e| format!("item {i}: {e}")))
                .collect(),
            other => Err(format!("expected an array, got {other}")),
        }
    }
}

/// For a member of an integer type (`#[serde(deserialize_with = "integers")]`).
pub fn integers<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Integers,
{
    T::from_json(Value::deserialize(d)?).map_err(de::Error::custom)
}

/// [`integers`] for an optional member (`#[serde(default, deserialize_with =
/// "present_integers")]`): present is `Some` (and a `null` `Some(None)`
/// when `T` is an `Option`).
pub fn present_integers<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Integers,
{
    integers(d).map(Some)
}

#[cfg(test)]
#[path = "typed_tests.rs"]
mod tests;
