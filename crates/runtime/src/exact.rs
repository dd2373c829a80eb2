//! Integers beyond 64 bits, sent to the API exactly as the client wrote
//! them.
//!
//! serde_json (as rmcp and this crate use it) reads an integer that fits
//! neither `u64` nor `i64` as an `f64`: `123456789012345678901234567890`
//! becomes `1.2345678901234568e29`, and a request built from it would send
//! other digits than the client gave (an account number, a snowflake id, a
//! Decimal128 amount). Reading every number exactly (serde_json's
//! `arbitrary_precision`) would change how rmcp's own messages parse (its
//! untagged enums buffer numbers), so the exact text travels beside the
//! arguments instead: the server scans the raw message ([`scan`]) and runs
//! the call within [`scope`]; while the request is built, a number that
//! is one of those literals rounded to an `f64` is written with the
//! literal's digits ([`number_text`], [`json_text`]).
//!
//! Two different literals that round to the same `f64` cannot be told
//! apart once parsed; a call holding such a pair is refused
//! ([`clash`]) rather than sent with one of them changed.

use std::sync::Arc;

use serde_json::{Number, Value};

/// The integer literals beyond 64 bits in one client message, by the
/// bits of the `f64` serde_json read each as.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExactIntegers {
    /// `(f64 bits, the literal)`, in the order they appear.
    literals: Vec<(u64, String)>,
    /// Two literals that read as the same `f64`.
    clash: Option<(String, String)>,
}

impl ExactIntegers {
    /// The literal that reads as `value`, if any.
    fn literal_of(&self, value: f64) -> Option<&str> {
        let bits = value.to_bits();
        self.literals
            .iter()
            .find(|(b, _)| *b == bits)
            .map(|(_, text)| text.as_str())
    }

    /// Whether none was found ([`scan`] returns `None` then).
    pub fn is_empty(&self) -> bool {
        self.literals.is_empty()
    }
}

/// The integer literals beyond 64 bits in the JSON text `raw` (a whole
/// JSON-RPC message; literals inside strings are not numbers and are
/// skipped); `None` when there is none, the common case, found without
/// tokenizing: such a literal has at least 20 digits in a row.
pub fn scan(raw: &[u8]) -> Option<ExactIntegers> {
    if !has_digit_run(raw, 20) {
        return None;
    }
    let mut found = ExactIntegers::default();
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'"' => i = string_end(raw, i + 1),
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < raw.len()
                    && matches!(raw[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                remember(&mut found, &raw[start..i]);
            }
            _ => i += 1,
        }
    }
    (!found.is_empty()).then_some(found)
}

/// Adds `token` (a JSON number's text) when it is an integer that neither
/// `u64` nor `i64` holds.
fn remember(found: &mut ExactIntegers, token: &[u8]) {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) || digits.len() < 19 {
        return;
    }
    let Ok(text) = std::str::from_utf8(token) else {
        return;
    };
    if text.parse::<u64>().is_ok() || text.parse::<i64>().is_ok() {
        return;
    }
    // serde_json's own reading, so the bits match what the arguments hold.
    let Ok(value) = serde_json::from_str::<f64>(text) else {
        return;
    };
    let bits = value.to_bits();
    match found.literals.iter().find(|(b, _)| *b == bits) {
        Some((_, same)) if same == text => {}
        Some((_, other)) => {
            if found.clash.is_none() {
                found.clash = Some((other.clone(), text.to_string()));
            }
        }
        None => found.literals.push((bits, text.to_string())),
    }
}

/// Whether `raw` has `n` ASCII digits in a row.
fn has_digit_run(raw: &[u8], n: usize) -> bool {
    let mut run = 0;
    for b in raw {
        if b.is_ascii_digit() {
            run += 1;
            if run >= n {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// The index just past the string whose text starts at `i` (after its
/// opening quote); the end of `raw` when it is not closed.
fn string_end(raw: &[u8], mut i: usize) -> usize {
    while i < raw.len() {
        match raw[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    raw.len()
}

tokio::task_local! {
    static EXACT: Arc<ExactIntegers>;
}

/// Runs `call` with `exact`'s literals in force for the requests it
/// builds (`None`: as it is).
pub async fn scope<F: Future>(exact: Option<Arc<ExactIntegers>>, call: F) -> F::Output {
    match exact {
        Some(exact) => EXACT.scope(exact, call).await,
        None => call.await,
    }
}

/// Runs `f` (building a request, outside any call: a confirmation's
/// preview) with `exact`'s literals in force.
pub fn sync_scope<R>(exact: Option<Arc<ExactIntegers>>, f: impl FnOnce() -> R) -> R {
    match exact {
        Some(exact) => EXACT.sync_scope(exact, f),
        None => f(),
    }
}

/// Why the call in force cannot be sent exactly: two of its literals read
/// as the same number.
pub fn clash() -> Option<String> {
    EXACT
        .try_with(|exact| {
            exact.clash.as_ref().map(|(a, b)| {
                format!(
                    "the integers {a} and {b} are beyond 64 bits and read as the same number, so one of them could not be sent as given; send such integers as strings"
                )
            })
        })
        .ok()
        .flatten()
}

/// The literal of the call in force that reads as `value`.
fn literal(value: f64) -> Option<String> {
    EXACT
        .try_with(|exact| exact.literal_of(value).map(str::to_string))
        .ok()
        .flatten()
}

/// A number as parameter text: a literal beyond 64 bits as the client
/// wrote it; other integral values without a fraction (`1.0` → `1`:
/// JSON Schema counts `1.0` as an integer, so it passes an integer
/// parameter's schema, but an API parsing the parameter as an integer
/// would reject the text `1.0`).
pub(crate) fn number_text(n: &Number) -> String {
    const EXACT_F64: f64 = 9_007_199_254_740_992.0; // 2^53
    match n.as_f64() {
        Some(f) if n.is_f64() => match literal(f) {
            Some(text) => text,
            None if f.fract() == 0.0 && f.abs() < EXACT_F64 => format!("{}", f as i64),
            None => n.to_string(),
        },
        _ => n.to_string(),
    }
}

/// `value` as compact JSON, its literals beyond 64 bits as the client
/// wrote them (a request body; a confirmation's digest of the arguments,
/// so that a confirmation of one such integer is not one of another that
/// reads as the same `f64`).
pub fn json_text(value: &Value) -> String {
    let exact = EXACT.try_with(Arc::clone).ok();
    let Some(exact) = exact else {
        return value.to_string();
    };
    let mut out = Vec::new();
    let mut writer = serde_json::Serializer::with_formatter(&mut out, Literals(&exact));
    match serde::Serialize::serialize(value, &mut writer) {
        // serde_json writes valid UTF-8, and the literals are ASCII.
        Ok(()) => String::from_utf8(out).unwrap_or_else(|_| value.to_string()),
        Err(_) => value.to_string(),
    }
}

/// serde_json's compact format, writing a number that reads as one of
/// the literals with the literal's digits.
struct Literals<'a>(&'a ExactIntegers);

impl serde_json::ser::Formatter for Literals<'_> {
    fn write_f64<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        value: f64,
    ) -> std::io::Result<()> {
        match self.0.literal_of(value) {
            Some(text) => writer.write_all(text.as_bytes()),
            None => serde_json::ser::CompactFormatter.write_f64(writer, value),
        }
    }
}

#[cfg(test)]
#[path = "exact_tests.rs"]
mod tests;
