//! Compiling and running a selector with jaq, in the calling process and
//! without a time or memory bound: the evaluation worker (`worker`) runs
//! this, and unit tests do. Everything that does not depend on the
//! process is bounded here: the screen, the nesting of what is parsed as
//! JSON (`fromjson`, the input), and the size of the output.

use jaq_core::box_iter::box_once;
use jaq_core::load::{Arena, File, Loader};
use jaq_core::native::{Fun, run as native, v};
use jaq_core::{Compiler, Ctx, Cv, Exn, RunPtr, ValXs, Vars, data};
use jaq_json::Val;
use serde_json::Value;

use super::{MAX_DEPTH, MAX_EXPRESSION, MAX_OUTPUT_DEPTH, SelectError, screen};

/// What jaq runs on: JSON values, no inputs beyond the one.
type Data = data::JustLut<Val>;

/// Definitions of jaq's libraries a selector does not get: they reach
/// outside the value (their native parts are withheld by [`WITHHELD_FUNS`]).
const WITHHELD_DEFS: &[&str] = &["debug", "stderr", "halt", "halt_error"];

/// Native filters a selector does not get: the environment, the process,
/// logs; and `fromjson`, replaced by [`fromjson_bounded`].
const WITHHELD_FUNS: &[&str] = &["env", "halt", "debug_empty", "stderr_empty", "fromjson"];

/// Longest error reason passed on, in characters: jq's messages quote
/// the value they failed on, which can be the whole result.
const MAX_REASON: usize = 1000;

/// Checks the length of `expression` (the one check made before a worker
/// starts).
pub(super) fn check_length(expression: &str) -> Result<(), SelectError> {
    if expression.len() > MAX_EXPRESSION {
        return Err(SelectError::Invalid {
            expression: expression.to_string(),
            reason: format!(
                "it is {} bytes long; the limit is {MAX_EXPRESSION}",
                expression.len()
            ),
        });
    }
    Ok(())
}

/// Compiles and runs `expression` on `input` (JSON text) in this
/// process: one output is returned as is, several as an array, and the
/// outputs together may take `max_bytes` of JSON.
pub(super) fn evaluate(
    expression: &str,
    input: &[u8],
    max_bytes: usize,
) -> Result<Value, SelectError> {
    let invalid = |reason: String| SelectError::Invalid {
        expression: expression.to_string(),
        reason,
    };
    let failed = |reason: String| SelectError::Failed {
        expression: expression.to_string(),
        reason: shorten(reason),
    };
    let limit = |reason: String| SelectError::Limit {
        expression: expression.to_string(),
        reason,
    };
    check_length(expression)?;
    let defs = jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs())
        .filter(|d| !WITHHELD_DEFS.contains(&d.name));
    let arena = Arena::default();
    let program = File {
        code: expression,
        path: (),
    };
    let modules = Loader::new(defs)
        .load(&arena, program)
        .map_err(|errors| invalid(load_errors(expression, &errors)))?;
    screen::screen(expression).map_err(invalid)?;
    let filter = Compiler::default()
        .with_funs(funs())
        .compile(modules)
        .map_err(|errors| {
            let undefined: Vec<String> = errors
                .iter()
                .flat_map(|(_, errs)| errs.iter())
                .map(|(name, kind)| format!("`{name}` is not a known {}", kind.as_str()))
                .collect();
            invalid(undefined.join("; "))
        })?;
    if nesting_exceeds(input, MAX_DEPTH) {
        return Err(limit(format!(
            "cannot run: the result nests deeper than {MAX_DEPTH} levels"
        )));
    }
    let input = jaq_json::read::parse_single(input)
        .map_err(|e| failed(format!("the result is not JSON jq can read: {e}")))?;
    let ctx = Ctx::<Data>::new(&filter.lut, Vars::new([]));
    let mut outputs = Vec::new();
    let mut size = 0;
    for out in filter.id.run((ctx, input)) {
        let val = out.map_err(|exn| {
            failed(match exn.get_err() {
                Ok(err) => err.to_string(),
                Err(_) => "it stopped without a value".into(),
            })
        })?;
        let text = val.to_string();
        size += text.len() + 1;
        if size > max_bytes {
            return Err(limit(format!("produced more than {max_bytes} bytes")));
        }
        if nesting_exceeds(text.as_bytes(), MAX_OUTPUT_DEPTH) {
            return Err(limit(format!(
                "produced a value nested deeper than {MAX_OUTPUT_DEPTH} levels"
            )));
        }
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| failed(format!("its output is not JSON ({e}): {text:.200}")))?;
        outputs.push(value);
    }
    Ok(match outputs.len() {
        1 => outputs.pop().unwrap_or(Value::Null),
        _ => Value::Array(outputs),
    })
}

/// jaq's native filters, less [`WITHHELD_FUNS`], plus [`fromjson_bounded`].
fn funs() -> impl Iterator<Item = Fun<Data>> {
    jaq_core::funs()
        .chain(jaq_std::funs())
        .chain(jaq_json::funs())
        .filter(|(name, _, _)| !WITHHELD_FUNS.contains(name))
        .chain([native::<Data>((
            "fromjson",
            v(0),
            fromjson_bounded as RunPtr<Data>,
        ))])
}

/// jq's `fromjson`, refusing text nested deeper than [`MAX_DEPTH`]
/// (jaq's JSON parser recurses once per level: `"[" * 200000 | fromjson`
/// would overflow the stack).
fn fromjson_bounded(cv: Cv<'_, Data>) -> ValXs<'_, Val> {
    let text = match cv.1.try_as_utf8_bytes_owned() {
        Ok(text) => text,
        Err(e) => return box_once(Err(Exn::from(e))),
    };
    if nesting_exceeds(&text, MAX_DEPTH) {
        return box_once(Err(Exn::from(jaq_json::Error::str(format_args!(
            "fromjson: the text nests deeper than {MAX_DEPTH} levels"
        )))));
    }
    let values: Vec<_> = jaq_json::read::parse_many(&text)
        .map(|r| {
            r.map_err(|e| {
                Exn::from(jaq_json::Error::str(format_args!(
                    "cannot parse {} as JSON: {e}",
                    shorten(cv.1.to_string())
                )))
            })
        })
        .collect();
    Box::new(values.into_iter())
}

/// Whether JSON `text` opens more than `limit` arrays or objects inside
/// one another (brackets in strings do not count). Text that is not JSON
/// is left for the parser to refuse.
fn nesting_exceeds(text: &[u8], limit: usize) -> bool {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &c in text {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// `reason` cut to [`MAX_REASON`] characters.
fn shorten(reason: String) -> String {
    match reason.char_indices().nth(MAX_REASON) {
        Some((end, _)) => format!("{}…", &reason[..end]),
        None => reason,
    }
}

/// jaq's lex and parse errors, with the byte offset of each.
fn load_errors(expression: &str, errors: &jaq_core::load::Errors<&str, ()>) -> String {
    use jaq_core::load::Error;
    let at = |s: &str| {
        let offset = (s.as_ptr() as usize).wrapping_sub(expression.as_ptr() as usize);
        if offset <= expression.len() {
            format!("at byte {offset}")
        } else {
            String::new()
        }
    };
    let mut out = Vec::new();
    for (_, error) in errors {
        match error {
            Error::Io(items) => {
                out.extend(
                    items
                        .iter()
                        .map(|(path, why)| format!("cannot load `{path}`: {why}")),
                );
            }
            Error::Lex(items) => out.extend(
                items
                    .iter()
                    .map(|(expect, s)| format!("expected {} {}", expect.as_str(), at(s))),
            ),
            Error::Parse(items) => out.extend(
                items
                    .iter()
                    .map(|(expect, s)| format!("expected {} {}", expect.as_str(), at(s))),
            ),
        }
    }
    if out.is_empty() {
        "it does not parse".into()
    } else {
        out.join("; ")
    }
}
