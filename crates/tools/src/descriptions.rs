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
mod tests {
    use super::*;

    #[test]
    fn links_become_text_and_urls_go() {
        assert_eq!(
            clean("See [the docs](https://docs.github.com/x) or https://example.com/y for more."),
            "See the docs or for more."
        );
        assert_eq!(clean("a <https://x.y/z> b"), "a b");
        assert_eq!(clean("[not a link] (x y)"), "[not a link] (x y)");
    }

    #[test]
    fn summaries_keep_their_first_paragraph() {
        assert_eq!(
            first_paragraphs("Get a pet\n\nReturns it.\n\nMore."),
            "Get a pet\n\nReturns it."
        );
        assert_eq!(
            first_paragraphs("One paragraph only."),
            "One paragraph only."
        );
    }

    #[test]
    fn boilerplate_repeated_across_tools_is_dropped() {
        use openapi2mcp_model::binding::HttpBinding;
        use openapi2mcp_model::catalog::{Origin, ToolAnnotations, ToolDef};
        let tool = |d: &str| ToolDef {
            name: "t".into(),
            title: "T".into(),
            description: d.into(),
            input_schema: serde_json::json!({"type": "object"}),
            output_schema: None,
            input_full: None,
            output_full: None,
            annotations: ToolAnnotations {
                title: "T".into(),
                read_only_hint: true,
                destructive_hint: false,
                idempotent_hint: true,
                open_world_hint: true,
            },
            origin: Origin {
                operation_id: None,
                method: "GET".into(),
                path: "/".into(),
                tags: vec![],
                deprecated: false,
            },
            http: HttpBinding {
                method: "GET".into(),
                path: "/".into(),
                params: vec![],
                body: None,
                servers: vec![],
                security: vec![],
                output: None,
                response_media_types: Vec::new(),
                response_headers: Vec::new(),
                lro: None,
                workflow: None,
            },
        };
        let mut tools: Vec<ToolDef> = (0..6)
            .map(|i| {
                tool(&format!(
                    "Does thing {i}. Tokens need the `repo` scope.\n\nDetails."
                ))
            })
            .collect();
        tools.push(tool("Tokens need the `repo` scope."));
        let mut tools: Vec<ToolHead> = tools.iter().map(ToolHead::of).collect();
        shorten_all(&mut tools);
        assert_eq!(tools[0].description, "Does thing 0.");
        // A description that is all boilerplate keeps it.
        assert_eq!(tools[6].description, "Tokens need the `repo` scope.");
    }
}
