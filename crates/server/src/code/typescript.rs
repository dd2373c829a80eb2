//! Tools as compact TypeScript declarations, for code mode's search: a
//! model that writes `api.get_pet({petId: 1})` reads a signature better
//! than a JSON Schema, in fewer tokens.
//!
//! Each operation becomes a `function` of `declare namespace api`: a doc
//! comment (title, first paragraph of the description, method and path,
//! whether it is read-only), one `args` object whose properties carry
//! their own doc comments (first sentence of the description, default,
//! format, examples from the document) and the result type from the
//! output schema. Schemas map the usual way (`enum`/`const` to literal
//! unions, `oneOf`/`anyOf` to unions, `allOf` to intersections, type
//! lists to unions, `additionalProperties` to an index signature); local
//! `$ref`s are followed. Each declaration is bounded: nesting is rendered
//! less deep, and objects with fewer properties shown, until it fits
//! [`MAX_DECLARATION_CHARS`]; what is left out is said (`/* 40 more */`).
//!
//! Written here rather than taken from a crate: the crates that turn JSON
//! Schema into TypeScript (e.g. `schemars`-based generators) emit whole
//! files of named types with no size bound and no doc-comment control.

use serde_json::{Map, Value};

/// Largest declaration of one operation, in characters.
pub const MAX_DECLARATION_CHARS: usize = 6_000;

/// Longest doc comment line taken from a description.
const DOC_CHARS: usize = 160;

/// Longest example shown, as JSON.
const EXAMPLE_CHARS: usize = 120;

/// What a declaration is made from (a tool of the catalog).
#[derive(Debug, Clone, Copy)]
pub struct Operation<'a> {
    /// The tool name (the function's name).
    pub name: &'a str,
    /// Its title.
    pub title: &'a str,
    /// Its description.
    pub description: &'a str,
    /// HTTP method.
    pub method: &'a str,
    /// Path template.
    pub path: &'a str,
    /// Whether it only reads.
    pub read_only: bool,
    /// The input schema (an object of arguments).
    pub input: &'a Value,
    /// The output schema, when the tool has one.
    pub output: Option<&'a Value>,
    /// The property of the output schema that holds the result a script
    /// gets (a non-object body wrapped as `{key: body}`), if any.
    pub output_key: Option<&'a str>,
}

/// How much of a schema is rendered.
#[derive(Debug, Clone, Copy)]
struct Detail {
    /// Nesting levels rendered in full (deeper objects become `object`).
    depth: usize,
    /// Properties shown per object (the rest are counted).
    props: usize,
    /// Whether property doc comments are written.
    docs: bool,
}

/// The declarations of `ops` as one `declare namespace api { ... }`.
pub fn namespace<'a>(ops: impl IntoIterator<Item = Operation<'a>>) -> String {
    let mut out = String::from("declare namespace api {\n");
    for op in ops {
        for line in declare(&op).lines() {
            out.push_str("  ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push('}');
    out
}

/// The declaration of one operation, within [`MAX_DECLARATION_CHARS`].
pub fn declare(op: &Operation<'_>) -> String {
    let levels = [
        Detail {
            depth: 4,
            props: 40,
            docs: true,
        },
        Detail {
            depth: 3,
            props: 25,
            docs: true,
        },
        Detail {
            depth: 2,
            props: 20,
            docs: true,
        },
        Detail {
            depth: 2,
            props: 12,
            docs: false,
        },
        Detail {
            depth: 1,
            props: 12,
            docs: false,
        },
        Detail {
            depth: 1,
            props: 6,
            docs: false,
        },
    ];
    let mut last = String::new();
    for (i, input_detail) in levels.iter().enumerate() {
        // The result shape matters less than the arguments: one level less.
        let output_detail = Detail {
            depth: input_detail.depth.saturating_sub(1).max(1),
            props: input_detail.props,
            docs: false,
        };
        let text = render(op, *input_detail, output_detail);
        if text.len() <= MAX_DECLARATION_CHARS || i + 1 == levels.len() {
            last = text;
            if last.len() <= MAX_DECLARATION_CHARS {
                return last;
            }
        }
    }
    // Still too long (thousands of arguments): the arguments by name only.
    let mut text: String = last.chars().take(MAX_DECLARATION_CHARS).collect();
    text.push_str("\n/* declaration cut at its size bound */");
    text
}

fn render(op: &Operation<'_>, input: Detail, output: Detail) -> String {
    let mut out = String::from("/**\n");
    let title = one_line(op.title);
    if !title.is_empty() {
        out.push_str(&format!(" * {title}\n"));
    }
    let paragraph = first_paragraph(op.description);
    if !paragraph.is_empty() && paragraph.trim_end_matches('.') != title.trim_end_matches('.') {
        for line in wrap(&paragraph, 100) {
            out.push_str(&format!(" * {line}\n"));
        }
    }
    out.push_str(&format!(
        " * {} {}{}\n */\n",
        op.method.to_uppercase(),
        op.path,
        if op.read_only { " (read-only)" } else { "" }
    ));
    let root_in = Root(op.input);
    let args = render_type(op.input, &root_in, input, 0, &mut Vec::new());
    let optional = op
        .input
        .get("required")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty);
    let result = match op.output {
        Some(schema) => {
            let shown = op
                .output_key
                .and_then(|k| schema.get("properties")?.get(k))
                .unwrap_or(schema);
            render_type(shown, &Root(schema), output, 0, &mut Vec::new())
        }
        None => "unknown".to_string(),
    };
    out.push_str(&format!(
        "function {}(args{}: {args}): Promise<{result}>;\n",
        op.name,
        if optional { "?" } else { "" }
    ));
    out
}

/// The schema that `$ref`s of a tree resolve against.
struct Root<'a>(&'a Value);

impl Root<'_> {
    fn resolve(&self, reference: &str) -> Option<&Value> {
        let pointer = reference.strip_prefix('#')?;
        self.0.pointer(pointer)
    }
}

/// The TypeScript type of `schema`, `indent` levels in.
fn render_type(
    schema: &Value,
    root: &Root<'_>,
    detail: Detail,
    indent: usize,
    seen: &mut Vec<String>,
) -> String {
    let Some(map) = schema.as_object() else {
        return if schema == &Value::Bool(false) {
            "never".into()
        } else {
            "unknown".into()
        };
    };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit('/').next().unwrap_or("object").to_string();
        if seen.contains(&reference.to_string()) {
            return format!("object /* {name}, recursive */");
        }
        return match root.resolve(reference) {
            Some(target) => {
                seen.push(reference.to_string());
                let t = render_type(target, root, detail, indent, seen);
                seen.pop();
                t
            }
            None => "unknown".into(),
        };
    }
    if let Some(value) = map.get("const") {
        return literal(value);
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        let mut items: Vec<String> = values.iter().take(30).map(literal).collect();
        if values.len() > 30 {
            items.push(format!("/* {} more */ string", values.len() - 30));
        }
        return union(items);
    }
    for (key, joiner) in [("oneOf", " | "), ("anyOf", " | "), ("allOf", " & ")] {
        if let Some(parts) = map.get(key).and_then(Value::as_array) {
            let mut rendered: Vec<String> = parts
                .iter()
                .map(|p| render_type(p, root, detail, indent, seen))
                .collect();
            rendered.dedup();
            let own = own_shape(map, root, detail, indent, seen);
            if let Some(own) = own {
                rendered.push(own);
            }
            if rendered.len() == 1 {
                return rendered.remove(0);
            }
            return rendered
                .iter()
                .map(|t| {
                    // `&` binds tighter than `|`: a union inside an
                    // intersection needs parentheses.
                    if joiner == " & " && t.contains(" | ") {
                        format!("({t})")
                    } else {
                        t.clone()
                    }
                })
                .collect::<Vec<_>>()
                .join(joiner);
        }
    }
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ if map.contains_key("properties") => vec!["object"],
        _ if map.contains_key("items") => vec!["array"],
        _ => vec![],
    };
    if types.is_empty() {
        return "unknown".into();
    }
    let rendered: Vec<String> = types
        .iter()
        .map(|t| match *t {
            "string" => "string".to_string(),
            "integer" | "number" => "number".to_string(),
            "boolean" => "boolean".to_string(),
            "null" => "null".to_string(),
            "array" => {
                let item = map.get("items").map_or("unknown".to_string(), |i| {
                    render_type(i, root, detail, indent, seen)
                });
                if item.contains(' ') && !item.starts_with('{') || item.contains('|') {
                    format!("Array<{item}>")
                } else {
                    format!("{item}[]")
                }
            }
            "object" => object(map, root, detail, indent, seen),
            other => other.to_string(),
        })
        .collect();
    union(rendered)
}

/// The object shape a schema with `oneOf`/`allOf` states besides them.
fn own_shape(
    map: &Map<String, Value>,
    root: &Root<'_>,
    detail: Detail,
    indent: usize,
    seen: &mut Vec<String>,
) -> Option<String> {
    map.contains_key("properties")
        .then(|| object(map, root, detail, indent, seen))
}

fn object(
    map: &Map<String, Value>,
    root: &Root<'_>,
    detail: Detail,
    indent: usize,
    seen: &mut Vec<String>,
) -> String {
    let props = map.get("properties").and_then(Value::as_object);
    let extra = map.get("additionalProperties").filter(|v| v.is_object());
    if props.is_none_or(Map::is_empty) {
        return match extra {
            Some(schema) if indent < detail.depth => {
                format!(
                    "{{ [key: string]: {} }}",
                    render_type(schema, root, detail, indent + 1, seen)
                )
            }
            _ => "object".into(),
        };
    }
    let props = props.expect("checked above");
    if indent >= detail.depth {
        return format!("object /* {} properties */", props.len());
    }
    let required: Vec<&str> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let pad = "  ".repeat(indent + 1);
    let mut out = String::from("{\n");
    // Required arguments first: they are the ones a call must give.
    let mut ordered: Vec<(&String, &Value)> = props.iter().collect();
    ordered.sort_by_key(|(k, _)| !required.contains(&k.as_str()));
    for (key, schema) in ordered.iter().take(detail.props) {
        if detail.docs
            && let Some(doc) = doc_comment(schema, root)
        {
            out.push_str(&format!("{pad}/** {doc} */\n"));
        }
        let t = render_type(schema, root, detail, indent + 1, seen);
        out.push_str(&format!(
            "{pad}{}{}: {t};\n",
            property_name(key),
            if required.contains(&key.as_str()) {
                ""
            } else {
                "?"
            }
        ));
    }
    if ordered.len() > detail.props {
        out.push_str(&format!(
            "{pad}/* {} more optional properties */\n",
            ordered.len() - detail.props
        ));
    }
    if let Some(schema) = extra
        && ordered.len() <= detail.props
    {
        out.push_str(&format!(
            "{pad}[key: string]: {};\n",
            render_type(schema, root, detail, indent + 1, seen)
        ));
    }
    out.push_str(&"  ".repeat(indent));
    out.push('}');
    out
}

/// A property's doc comment: first sentence of its description, its
/// format, default and first examples.
fn doc_comment(schema: &Value, root: &Root<'_>) -> Option<String> {
    let mut schema = schema;
    if let Some(target) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| root.resolve(r))
    {
        // The reference's own description wins, the target's fills in.
        if schema.get("description").is_none() {
            schema = target;
        }
    }
    let mut parts = Vec::new();
    if let Some(d) = schema.get("description").and_then(Value::as_str) {
        let s = first_sentence(d);
        if !s.is_empty() {
            parts.push(clip(&s, DOC_CHARS));
        }
    }
    if let Some(f) = schema.get("format").and_then(Value::as_str) {
        parts.push(format!("Format: {f}."));
    }
    if let Some(d) = schema.get("default") {
        parts.push(format!("@default {}", clip(&d.to_string(), EXAMPLE_CHARS)));
    }
    let examples: Vec<String> = schema
        .get("examples")
        .and_then(Value::as_array)
        .map(|e| {
            e.iter()
                .take(2)
                .map(|v| clip(&v.to_string(), EXAMPLE_CHARS))
                .collect()
        })
        .unwrap_or_default();
    for example in examples {
        parts.push(format!("@example {example}"));
    }
    if schema.get("deprecated") == Some(&Value::Bool(true)) {
        parts.push("@deprecated".into());
    }
    (!parts.is_empty()).then(|| parts.join(" ").replace("*/", "* /"))
}

fn literal(value: &Value) -> String {
    match value {
        Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Null => value.to_string(),
        _ => "unknown".into(),
    }
}

fn union(mut items: Vec<String>) -> String {
    items.dedup();
    if items.is_empty() {
        return "never".into();
    }
    items.join(" | ")
}

fn property_name(key: &str) -> String {
    let ident = !key.is_empty()
        && !key.starts_with(|c: char| c.is_ascii_digit())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if ident {
        key.to_string()
    } else {
        Value::from(key).to_string()
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The description's first paragraph, markdown links reduced to their
/// text, at most a few hundred characters.
fn first_paragraph(text: &str) -> String {
    let paragraph = text.trim().split("\n\n").next().unwrap_or_default();
    clip(&one_line(&strip_links(paragraph)), 400).replace("*/", "* /")
}

fn first_sentence(text: &str) -> String {
    let line = one_line(&strip_links(
        text.trim().split("\n\n").next().unwrap_or_default(),
    ));
    match line.find(". ") {
        Some(i) => line[..=i].to_string(),
        None => line,
    }
}

/// `[text](url)` → `text`.
fn strip_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|i| open + i) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|i| close + i) else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max).collect();
    s.push('…');
    s
}

fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + word.len() + 1 > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
#[path = "typescript_tests.rs"]
mod tests;
