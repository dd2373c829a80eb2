//! Tool descriptions that spend a model's tokens well (`--descriptions
//! short`): markdown links reduced to their text, bare URLs and the
//! sentences a document repeats across many operations (GitHub's "OAuth
//! app tokens and personal access tokens (classic) need the `repo` scope
//! to use this endpoint.") removed, and what is left cut to its first
//! paragraph. Parameter descriptions stay where they are, in the
//! `inputSchema`.

use std::collections::HashMap;

use openapi2mcp_model::catalog::ToolHead;

/// How much of an operation's description a tool carries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum DescriptionMode {
    /// The summary and the whole description, as written.
    #[default]
    Full,
    /// The first paragraph, without links, URLs or boilerplate.
    Short,
}

/// A sentence in at least this many tools (and this share of them) is
/// boilerplate.
const BOILERPLATE_MIN_TOOLS: usize = 5;
const BOILERPLATE_MIN_SHARE: f64 = 0.01;

/// Shortens every tool's description (see the module docs).
pub fn shorten_all(tools: &mut [ToolHead]) {
    let cleaned: Vec<String> = tools.iter().map(|t| clean(&t.description)).collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for text in &cleaned {
        let mut seen = Vec::new();
        for s in sentences(text) {
            if !seen.contains(&s) {
                seen.push(s);
                *counts.entry(s).or_default() += 1;
            }
        }
    }
    let threshold =
        BOILERPLATE_MIN_TOOLS.max((tools.len() as f64 * BOILERPLATE_MIN_SHARE).ceil() as usize);
    let boilerplate = |s: &str| counts.get(s).is_some_and(|n| *n >= threshold);
    let short: Vec<String> = cleaned
        .iter()
        .map(|text| {
            let first = first_paragraphs(text);
            let kept: Vec<&str> = sentences(first).filter(|s| !boilerplate(s)).collect();
            if kept.is_empty() {
                // Never leave a tool without a description.
                first.trim().to_string()
            } else {
                kept.join(" ")
            }
        })
        .collect();
    for (tool, text) in tools.iter_mut().zip(short) {
        if !text.trim().is_empty() {
            tool.description = text;
        }
    }
}

/// Markdown links as their text; bare URLs and `<...>` autolinks removed;
/// runs of spaces collapsed.
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(['[', 'h', '<']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some((label, after)) = markdown_link(tail) {
            out.push_str(label);
            rest = after;
        } else if tail.starts_with("http://") || tail.starts_with("https://") {
            let end = tail
                .find(|c: char| c.is_whitespace() || c == ')' || c == '>')
                .unwrap_or(tail.len());
            rest = &tail[end..];
        } else if tail.starts_with("<http") {
            let end = tail.find('>').map_or(tail.len(), |e| e + 1);
            rest = &tail[end..];
        } else {
            let c = tail.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &tail[c.len_utf8()..];
        }
    }
    out.push_str(rest);
    // Empty parentheses left by a removed URL, and doubled spaces.
    let out = out.replace(" ()", "").replace("()", "");
    let mut collapsed = String::with_capacity(out.len());
    let mut prev_space = false;
    for c in out.chars() {
        let space = c == ' ';
        if !(space && prev_space) {
            collapsed.push(c);
        }
        prev_space = space;
    }
    collapsed
}

/// `[label](target)` at the start of `text`: the label and what follows.
fn markdown_link(text: &str) -> Option<(&str, &str)> {
    let body = text.strip_prefix('[')?;
    let close = body.find(']')?;
    let label = &body[..close];
    if label.contains('\n') {
        return None;
    }
    let after = body[close + 1..].strip_prefix('(')?;
    let end = after.find(')')?;
    if after[..end].contains(char::is_whitespace) {
        return None;
    }
    Some((label, &after[end + 1..]))
}

/// The first paragraph; the summary line and the description's first
/// paragraph when the tool's description starts with a one-line summary.
fn first_paragraphs(text: &str) -> &str {
    let text = text.trim();
    let Some(first_break) = text.find("\n\n") else {
        return text;
    };
    let first = &text[..first_break];
    // A one-line summary followed by the description proper: keep both.
    if !first.contains('\n') && first.len() < 120 {
        let rest = &text[first_break + 2..];
        let second = rest.find("\n\n").map_or(rest.len(), |i| i);
        return &text[..first_break + 2 + second];
    }
    first
}

/// The sentences of `text`: split after `.`, `!` or `?` followed by
/// whitespace, and at line breaks.
fn sentences(text: &str) -> impl Iterator<Item = &str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let end_of_sentence = matches!(b, b'.' | b'!' | b'?')
            && bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace());
        if end_of_sentence || b == b'\n' {
            let s = text[start..=i].trim();
            if !s.is_empty() {
                out.push(s);
            }
            start = i + 1;
        }
    }
    let s = text[start..].trim();
    if !s.is_empty() {
        out.push(s);
    }
    out.into_iter()
}

#[cfg(test)]
#[path = "descriptions_tests.rs"]
mod tests;
