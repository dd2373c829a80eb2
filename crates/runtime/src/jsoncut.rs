//! Cutting an over-size JSON body so that what is kept is still valid JSON.
//!
//! The HTTP client stops reading a body at the size cap, which leaves a
//! prefix that ends anywhere (mid-string, mid-number). Handing that to a
//! model wastes the tokens, and a tool with an output schema cannot return
//! it as structured content at all. [`cut`] scans the prefix once, remembers
//! the last boundary after a whole array item at each depth, closes the
//! containers still open there, and says which array lost its tail and how
//! many items it kept. Array items are preferred to object members (a list
//! of whole items is what a paging API returns anyway); the shallowest array
//! wins, so `{"total": 9, "items": [...]}` keeps whole items of `items`.
//!
//! Self-contained: imports only serde_json.

use serde_json::Value;

/// Containers deeper than this are not considered as cut points.
const MAX_DEPTH: usize = 128;

/// A prefix of a JSON document, closed so that it parses.
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    /// The kept document.
    pub value: Value,
    /// JSONPath-like location of the container that lost its tail, e.g.
    /// `$.items` or `$` for a top-level array.
    pub at: String,
    /// Whether that container is an array (else an object whose later
    /// members were dropped).
    pub array: bool,
    /// Items (or members) of that container that were kept.
    pub kept: usize,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    /// An object's key (or its end).
    Key,
    /// The `:` after a key.
    Colon,
    /// A value (array item, member value, or the document).
    Value,
    /// A `,` or the container's end.
    Comma,
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    array: bool,
    /// Completed items (arrays) or members (objects).
    count: usize,
    /// The current member's key, as a byte range of the input (objects).
    key: (usize, usize),
}

/// A place the document can be closed: the byte offset just after a
/// complete value, and the containers open there.
#[derive(Debug, Clone, Default)]
struct CutPoint {
    end: usize,
    frames: Vec<Frame>,
}

/// Cuts the valid-JSON prefix of `bytes` (a JSON document truncated
/// anywhere) after the last whole array item of the shallowest array that
/// has one, else after the last whole member of an object. `None` when no
/// such boundary exists (a single huge string, say) or the prefix is not
/// the beginning of a JSON document.
pub fn cut(bytes: &[u8]) -> Option<Cut> {
    let mut frames: Vec<Frame> = Vec::new();
    let mut by_depth: Vec<Option<CutPoint>> = Vec::new();
    let mut last_member: Option<CutPoint> = None;
    let mut expect = Expect::Value;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        match expect {
            Expect::Key => match b {
                b'"' => {
                    // A key running into the cut ends the scan.
                    let Some(end) = string_end(bytes, i) else {
                        break;
                    };
                    if let Some(f) = frames.last_mut() {
                        f.key = (i + 1, end - 1);
                    }
                    i = end;
                    expect = Expect::Colon;
                    continue;
                }
                b'}' => {}
                _ => return None,
            },
            Expect::Colon => {
                if b != b':' {
                    return None;
                }
                expect = Expect::Value;
                i += 1;
                continue;
            }
            Expect::Comma => match b {
                b',' => {
                    expect = match frames.last() {
                        Some(f) if !f.array => Expect::Key,
                        Some(_) => Expect::Value,
                        None => return None,
                    };
                    i += 1;
                    continue;
                }
                b']' | b'}' => {}
                _ => return None,
            },
            Expect::Value => {}
        }
        // A value starts here, or a container ends.
        let end = match b {
            b'{' | b'[' => {
                frames.push(Frame {
                    array: b == b'[',
                    count: 0,
                    key: (0, 0),
                });
                expect = if b == b'[' {
                    Expect::Value
                } else {
                    Expect::Key
                };
                i += 1;
                continue;
            }
            b']' | b'}' => {
                let frame = frames.pop()?;
                if frame.array != (b == b']') {
                    return None;
                }
                i + 1
            }
            b'"' => match string_end(bytes, i) {
                Some(end) => end,
                // A string running into the cut: incomplete.
                None => break,
            },
            _ => {
                let end = scalar_end(bytes, i);
                if end == bytes.len() {
                    // A number or literal running into the cut: incomplete.
                    break;
                }
                end
            }
        };
        // A value completed at `end`, inside the innermost open frame.
        i = end;
        expect = Expect::Comma;
        let Some(parent) = frames.last_mut() else {
            // The whole document is complete.
            let value = serde_json::from_slice(&bytes[..end]).ok()?;
            return Some(Cut {
                value,
                at: "$".into(),
                array: false,
                kept: 0,
            });
        };
        parent.count += 1;
        let depth = frames.len();
        if depth > MAX_DEPTH {
            continue;
        }
        let slot = if frames[depth - 1].array {
            if by_depth.len() < depth {
                by_depth.resize(depth, None);
            }
            by_depth[depth - 1].get_or_insert_with(CutPoint::default)
        } else {
            last_member.get_or_insert_with(CutPoint::default)
        };
        slot.end = end;
        slot.frames.clear();
        slot.frames.extend_from_slice(&frames);
    }
    let point = by_depth.into_iter().flatten().next().or(last_member)?;
    close(bytes, &point)
}

/// The document cut at `point`, parsed, with where it was cut.
fn close(bytes: &[u8], point: &CutPoint) -> Option<Cut> {
    let mut text = bytes[..point.end].to_vec();
    for frame in point.frames.iter().rev() {
        text.push(if frame.array { b']' } else { b'}' });
    }
    let value: Value = serde_json::from_slice(&text).ok()?;
    let innermost = point.frames.last()?;
    let mut at = String::from("$");
    for frame in &point.frames[..point.frames.len() - 1] {
        if frame.array {
            at.push_str(&format!("[{}]", frame.count));
        } else {
            let key = String::from_utf8_lossy(&bytes[frame.key.0..frame.key.1]);
            push_key(&mut at, &key);
        }
    }
    Some(Cut {
        value,
        at,
        array: innermost.array,
        kept: innermost.count,
    })
}

/// `.key` for plain keys, `["key"]` otherwise.
fn push_key(path: &mut String, key: &str) {
    let plain = !key.is_empty()
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !key.starts_with(|c: char| c.is_ascii_digit());
    if plain {
        path.push('.');
        path.push_str(key);
    } else {
        path.push_str(&format!("[{}]", Value::String(key.to_string())));
    }
}

/// The offset just past the string starting at `start` (a `"`), or `None`
/// when the input ends inside it.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The offset just past a number or literal starting at `start`.
fn scalar_end(bytes: &[u8], start: usize) -> usize {
    bytes[start..]
        .iter()
        .position(|b| matches!(b, b',' | b']' | b'}') || b.is_ascii_whitespace())
        .map_or(bytes.len(), |n| start + n)
}

#[cfg(test)]
#[path = "jsoncut_tests.rs"]
mod tests;
