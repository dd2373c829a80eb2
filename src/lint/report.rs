//! A lint [`Report`] as text (for people), JSON (for scripts) or SARIF
//! 2.1.0 (for code-scanning tools, which annotate the document's lines).

use serde_json::{Value, json};

use super::{Level, RULES, Report};

/// The text report: one line per finding, then the footprint.
pub fn text(report: &Report, top: usize) -> String {
    let mut out = String::new();
    for f in &report.findings {
        let at = match f.line {
            Some(line) => format!("{}:{line}", f.file),
            None => f.file.clone(),
        };
        out.push_str(&format!(
            "{}: {at} at #{} [{}] {}\n    fix: {}\n",
            f.level.as_str(),
            f.pointer,
            f.rule,
            f.message,
            f.hint
        ));
    }
    let count = |l: Level| report.findings.iter().filter(|f| f.level == l).count();
    out.push_str(&format!(
        "{} errors, {} warnings, {} notes\n",
        count(Level::Error),
        count(Level::Warning),
        count(Level::Note)
    ));
    let fp = &report.footprint;
    out.push_str(&format!(
        "context footprint ({} tokens): full {} ({} tools), discovery {}, toolsets {} before any set is enabled, code {}\n",
        fp.tokenizer,
        fp.full,
        fp.tools.len(),
        fp.discovery,
        fp.toolsets,
        fp.code
    ));
    for t in fp.tools.iter().take(top) {
        out.push_str(&format!("  {:>7}  {}\n", t.tokens, t.name));
    }
    out
}

/// The JSON report: the findings and the footprint as they are.
pub fn json(report: &Report) -> Value {
    serde_json::to_value(report).unwrap_or(Value::Null)
}

/// The SARIF 2.1.0 log: one run, the rules as the driver's rules, one
/// result per finding located at the document's line, with the JSON
/// pointer as a logical location.
pub fn sarif(report: &Report) -> Value {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "shortDescription": {"text": r.summary},
                "help": {"text": r.hint},
                "defaultConfiguration": {"level": r.level.as_str()},
            })
        })
        .collect();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            let mut physical = json!({"artifactLocation": {"uri": uri(&f.file)}});
            if let Some(line) = f.line {
                physical["region"] = json!({"startLine": line});
            }
            let mut logical =
                json!({"fullyQualifiedName": format!("#{}", f.pointer), "kind": "object"});
            if let Some(tool) = &f.tool {
                logical["name"] = json!(tool);
            }
            json!({
                "ruleId": f.rule,
                "ruleIndex": RULES.iter().position(|r| r.id == f.rule).unwrap_or(0),
                "level": f.level.as_str(),
                "message": {"text": format!("{} Fix: {}", f.message, f.hint)},
                "locations": [{"physicalLocation": physical, "logicalLocations": [logical]}],
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "openapi2mcp",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://spec.openapis.org/oas/latest.html",
                "rules": rules,
            }},
            "results": results,
            "properties": {"footprint": {
                "tokenizer": report.footprint.tokenizer,
                "full": report.footprint.full,
                "discovery": report.footprint.discovery,
                "toolsets": report.footprint.toolsets,
                "code": report.footprint.code,
            }},
        }],
    })
}

/// A file path as a relative URI reference (`/` separators, spaces and
/// other reserved characters percent-encoded); URLs stay as they are.
fn uri(file: &str) -> String {
    if file.contains("://") {
        return file.to_string();
    }
    let path = file.replace('\\', "/");
    percent_encoding::utf8_percent_encode(&path, PATH).to_string()
}

const PATH: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}');
