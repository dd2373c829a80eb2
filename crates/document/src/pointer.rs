//! JSON pointers (RFC 6901), the one spelling every stage uses to name a
//! node: escaping and unescaping reference tokens, splitting a pointer, and
//! reading an array index.

use std::borrow::Cow;

/// Escapes one reference token (`~` → `~0`, `/` → `~1`).
pub fn escape_token(token: &str) -> String {
    if !token.contains(['~', '/']) {
        return token.to_string();
    }
    token.replace('~', "~0").replace('/', "~1")
}

/// Undoes [`escape_token`] (`~1` → `/`, then `~0` → `~`).
pub fn unescape_token(token: &str) -> String {
    unescaped(token).into_owned()
}

/// [`unescape_token`] borrowing `token` when it has nothing escaped (most
/// tokens: pointers are read once per `$ref` followed, so this is hot).
pub fn unescaped(token: &str) -> Cow<'_, str> {
    if !token.contains('~') {
        return Cow::Borrowed(token);
    }
    Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
}

/// Appends `token` (escaped) to `pointer`.
pub fn push_token(pointer: &str, token: &str) -> String {
    let mut p = String::with_capacity(pointer.len() + token.len() + 1);
    p.push_str(pointer);
    p.push('/');
    if token.contains(['~', '/']) {
        p.push_str(&escape_token(token));
    } else {
        p.push_str(token);
    }
    p
}

/// Splits a JSON pointer into unescaped tokens. `""` is the whole document.
pub fn pointer_tokens(pointer: &str) -> Result<Vec<String>, String> {
    Ok(tokens(pointer)?.map(Cow::into_owned).collect())
}

/// [`pointer_tokens`] without copying the tokens that need no unescaping.
pub fn tokens(pointer: &str) -> Result<impl Iterator<Item = Cow<'_, str>>, String> {
    let rest = match pointer {
        "" => None,
        _ => Some(
            pointer
                .strip_prefix('/')
                .ok_or_else(|| format!("JSON pointer `{pointer}` must start with `/`"))?,
        ),
    };
    Ok(rest.into_iter().flat_map(|r| r.split('/')).map(unescaped))
}

/// An array index token as RFC 6901 spells it: digits, no leading zero.
pub fn parse_index(token: &str) -> Option<usize> {
    let canonical = !token.is_empty()
        && token.bytes().all(|b| b.is_ascii_digit())
        && (token.len() == 1 || !token.starts_with('0'));
    if canonical { token.parse().ok() } else { None }
}

#[cfg(test)]
#[path = "pointer_tests.rs"]
mod tests;
