//! JSON: a byte scanner that follows the pointer and skips everything else.

use super::{Hit, parse_index, read_hex};

/// Follows `tokens` from the root value; the root always exists because
/// the caller only sends text that starts with `{` or `[`.
pub(super) fn locate(src: &str, tokens: &[String]) -> Option<Hit> {
    let bytes = src.as_bytes();
    let start = if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        3
    } else {
        0
    };
    let mut value = skip_ws(bytes, start);
    let mut hit = Hit::Root;
    for token in tokens {
        let Some((at, next)) = step(src, value, token) else {
            break;
        };
        hit = Hit::At(at);
        value = next;
    }
    Some(hit)
}

/// One pointer step from the value at `value`: returns where the child is
/// reported (its key or its start) and where the child value starts.
fn step(src: &str, value: usize, token: &str) -> Option<(usize, usize)> {
    match src.as_bytes().get(value)? {
        b'{' => find_member(src, value, token),
        b'[' => {
            let at = find_element(src.as_bytes(), value, parse_index(token)?)?;
            Some((at, at))
        }
        _ => None,
    }
}

/// Finds member `key` of the object opening at `open`: (key offset, value offset).
fn find_member(src: &str, open: usize, key: &str) -> Option<(usize, usize)> {
    let bytes = src.as_bytes();
    let mut i = open + 1;
    loop {
        i = skip_ws(bytes, i);
        if *bytes.get(i)? != b'"' {
            return None;
        }
        let key_start = i;
        let key_end = string_end(bytes, i)?;
        i = skip_ws(bytes, key_end);
        if *bytes.get(i)? != b':' {
            return None;
        }
        i = skip_ws(bytes, i + 1);
        let raw = src.get(key_start + 1..key_end - 1)?;
        if key_matches(raw, key) {
            return Some((key_start, i));
        }
        i = skip_ws(bytes, skip_value(bytes, i)?);
        if *bytes.get(i)? != b',' {
            return None;
        }
        i += 1;
    }
}

/// Finds element `index` of the array opening at `open`: its start offset.
fn find_element(bytes: &[u8], open: usize, index: usize) -> Option<usize> {
    let mut i = skip_ws(bytes, open + 1);
    if *bytes.get(i)? == b']' {
        return None;
    }
    for _ in 0..index {
        i = skip_ws(bytes, skip_value(bytes, i)?);
        if *bytes.get(i)? != b',' {
            return None;
        }
        i = skip_ws(bytes, i + 1);
    }
    bytes.get(i).map(|_| i)
}

/// Whether the raw (still escaped) key text equals `key`.
fn key_matches(raw: &str, key: &str) -> bool {
    if raw.contains('\\') {
        unescape(raw).as_deref() == Some(key)
    } else {
        raw == key
    }
}

/// Skips JSON whitespace.
fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Offset just past the value starting at `i`, without recursion.
fn skip_value(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes.get(i)? {
        b'"' => string_end(bytes, i),
        b'{' | b'[' => skip_container(bytes, i),
        _ => skip_scalar(bytes, i),
    }
}

/// Offset just past the string whose opening quote is at `i`.
fn string_end(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        match bytes.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => j += 2,
            _ => j += 1,
        }
    }
}

/// Offset just past the object or array opening at `i`, counting depth
/// in a loop so deeply nested input cannot overflow the stack.
fn skip_container(bytes: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = i;
    while j < bytes.len() {
        match bytes[j] {
            b'"' => {
                j = string_end(bytes, j)?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

/// Offset just past a number or literal (`true`, `false`, `null`).
fn skip_scalar(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    while let Some(b) = bytes.get(j) {
        if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r' | b'"') {
            break;
        }
        j += 1;
    }
    (j > i).then_some(j)
}

/// Decodes JSON string escapes; `None` on a malformed escape.
fn unescape(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next()? {
            '"' => '"',
            '\\' => '\\',
            '/' => '/',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'u' => unicode_escape(&mut chars)?,
            _ => return None,
        });
    }
    Some(out)
}

/// Decodes the hex part of `\uXXXX`, joining a surrogate pair when the
/// low half follows; lone surrogates become U+FFFD.
fn unicode_escape(chars: &mut std::str::Chars<'_>) -> Option<char> {
    let high = read_hex(chars, 4)?;
    if !(0xD800..0xDC00).contains(&high) {
        return Some(char::from_u32(high).unwrap_or('\u{fffd}'));
    }
    let mut look = chars.clone();
    if look.next() == Some('\\')
        && look.next() == Some('u')
        && let Some(low) = read_hex(&mut look, 4).filter(|l| (0xDC00..0xE000).contains(l))
    {
        *chars = look;
        return char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
    }
    Some('\u{fffd}')
}
