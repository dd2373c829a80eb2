//! Pointer → line lookup for diagnostics.
//!
//! Diagnostics name the offending node by JSON pointer, but documents are
//! parsed into `serde_json::Value`, which keeps no source positions. Users
//! still want a line number to jump to, so this module recovers it from the
//! original text on demand, only when a diagnostic is printed.
//!
//! Nothing here builds a tree: a JSON scanner and a line-based YAML scanner
//! walk forward along the pointer path, skipping everything else, so a lookup
//! is linear in the text and allocates next to nothing even for the 13 MB
//! documents some vendors publish.

mod json;
mod yaml;

use super::pointer::{parse_index, pointer_tokens};

/// Returns the 1-based line where the node at `pointer` starts in `source`.
///
/// `source` is JSON (when its first non-blank character is `{` or `[`) or
/// block-style YAML; `pointer` is an RFC 6901 JSON pointer (`""` is the whole
/// document, which is line 1). Object members are located at their key,
/// array elements where the element starts (the `- ` line in YAML).
///
/// When the pointer cannot be followed to the end (missing key, index out of
/// range, a scalar in the way, a YAML construct the scanner gives up on such
/// as a multi-line flow collection), the line of the deepest node that was
/// found is returned instead, so the user lands near the problem. `None` means
/// not even the root could be found (an empty or comment-only document).
/// Never panics, whatever the input.
pub fn line_of(source: &str, pointer: &str) -> Option<usize> {
    let tokens = pointer_tokens(pointer).unwrap_or_default();
    let hit = if looks_like_json(source) {
        json::locate(source, &tokens)
    } else {
        yaml::locate(source, &tokens)
    }?;
    Some(match hit {
        Hit::Root => 1,
        Hit::At(offset) => line_at(source, offset),
    })
}

/// The deepest node a scanner reached along the pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hit {
    /// Only the document itself (reported as line 1).
    Root,
    /// The node (key, or element start) at this byte offset.
    At(usize),
}

/// Whether the text is JSON rather than YAML: its first non-blank character
/// (after an optional byte order mark) opens an object or array.
fn looks_like_json(source: &str) -> bool {
    let trimmed = source.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    trimmed.starts_with(['{', '['])
}

/// The 1-based line containing byte `offset`.
fn line_at(source: &str, offset: usize) -> usize {
    let bytes = source.as_bytes();
    let before = bytes.get(..offset).unwrap_or(bytes);
    1 + before.iter().filter(|&&b| b == b'\n').count()
}

/// Reads `n` hex digits as a code point value.
fn read_hex(chars: &mut std::str::Chars<'_>, n: usize) -> Option<u32> {
    let mut value = 0u32;
    for _ in 0..n {
        value = value * 16 + chars.next()?.to_digit(16)?;
    }
    Some(value)
}

#[cfg(test)]
mod tests;
