//! Arazzo runtime expressions and simple conditions, evaluated against
//! what a workflow knows so far: its inputs, the outputs of the steps that
//! ran, and the current step's request and response.
//!
//! Expressions (Arazzo 1.0.1 §Runtime Expressions): `$inputs.name`,
//! `$steps.<stepId>.outputs.name`, `$outputs.name` (a nested workflow's),
//! `$statusCode`, `$url`, `$method`, `$response.body` with an optional
//! JSON pointer (`$response.body#/0/id`), `$response.header.<name>`,
//! `$request.body`, `$request.header.<name>`; a name may continue as a
//! JSON pointer (`$inputs.pet#/id`) or with `.field` and `[n]` steps.
//! Strings embed expressions as `{$…}`.
//!
//! Simple conditions: literals (`true`, `false`, `null`, numbers,
//! `'single-quoted'` strings with `''` for a quote), runtime expressions,
//! `==`, `!=`, `<`, `<=`, `>`, `>=`, `!`, `&&`, `||` and parentheses;
//! string comparisons are case-insensitive, as the specification says.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// What expressions are evaluated against.
#[derive(Debug, Default, Clone)]
pub struct Scope {
    /// The workflow's inputs.
    pub inputs: Value,
    /// Outputs of the steps that ran, by step id.
    pub steps: BTreeMap<String, Map<String, Value>>,
    /// The current step's exchange, once it ran.
    pub current: Option<Exchange>,
}

/// One step's request and response, as expressions read them.
#[derive(Debug, Default, Clone)]
pub struct Exchange {
    /// The HTTP status (`$statusCode`).
    pub status: Option<u16>,
    /// `$method`.
    pub method: String,
    /// `$url`: the operation's path template (`/pets/{petId}`); the
    /// URL as sent is not kept.
    pub url: String,
    /// The request body sent, as JSON when it was.
    pub request_body: Value,
    /// Response headers (names compare case-insensitively).
    pub headers: Vec<(String, String)>,
    /// The response body: JSON when it was, else its text.
    pub body: Value,
    /// A nested workflow's outputs (`$outputs.name`).
    pub outputs: Map<String, Value>,
}

impl Scope {
    /// The value of runtime expression `expr` (starting with `$`), `None`
    /// when it names nothing (yet).
    pub fn eval(&self, expr: &str) -> Option<Value> {
        let (head, pointer) = match expr.split_once('#') {
            Some((head, pointer)) => (head, Some(pointer)),
            None => (expr, None),
        };
        let value = self.root(head)?;
        match pointer {
            Some(p) => value.pointer(p).cloned(),
            None => Some(value),
        }
    }

    fn root(&self, head: &str) -> Option<Value> {
        let current = self.current.as_ref();
        if let Some(rest) = head.strip_prefix("$inputs.") {
            return walk(&self.inputs, rest);
        }
        if let Some(rest) = head.strip_prefix("$steps.") {
            // `$steps.<id>.outputs.<name>`: the id may itself hold dots.
            let (id, name) = rest.split_once(".outputs.")?;
            return walk(&Value::Object(self.steps.get(id)?.clone()), name);
        }
        if let Some(rest) = head.strip_prefix("$outputs.") {
            return walk(&Value::Object(current?.outputs.clone()), rest);
        }
        if let Some(rest) = head.strip_prefix("$response.header.") {
            return header(&current?.headers, rest).map(|v| Value::String(v.to_string()));
        }
        match head {
            "$statusCode" => current?.status.map(Value::from),
            "$url" => Some(Value::String(current?.url.clone())),
            "$method" => Some(Value::String(current?.method.clone())),
            "$response.body" => Some(current?.body.clone()),
            "$request.body" => Some(current?.request_body.clone()),
            "$inputs" => Some(self.inputs.clone()),
            _ => None,
        }
    }

    /// A value written in a workflow (a parameter value, a payload, an
    /// output): a string that is one expression becomes its value; `{$…}`
    /// inside a string is replaced by the value's text; objects and arrays
    /// are filled in member by member. An expression that names nothing is
    /// an error naming it.
    pub fn fill(&self, template: &Value) -> Result<Value, String> {
        match template {
            Value::String(s) if s.starts_with('$') && !s.contains(char::is_whitespace) => {
                self.eval(s).ok_or_else(|| format!("`{s}` has no value"))
            }
            Value::String(s) if s.contains("{$") => self.interpolate(s).map(Value::String),
            Value::Array(items) => items.iter().map(|v| self.fill(v)).collect(),
            Value::Object(map) => map
                .iter()
                .map(|(k, v)| Ok((k.clone(), self.fill(v)?)))
                .collect::<Result<Map<_, _>, String>>()
                .map(Value::Object),
            other => Ok(other.clone()),
        }
    }

    /// [`Scope::fill`], but a value that is one expression naming nothing
    /// is absent (`None`), and so is an object member holding one: what a
    /// workflow passes on from an input the caller left out is left out.
    pub fn fill_present(&self, template: &Value) -> Result<Option<Value>, String> {
        match template {
            Value::String(s) if s.starts_with('$') && !s.contains(char::is_whitespace) => {
                Ok(self.eval(s))
            }
            Value::Object(map) => {
                let mut out = Map::new();
                for (k, v) in map {
                    if let Some(v) = self.fill_present(v)? {
                        out.insert(k.clone(), v);
                    }
                }
                Ok(Some(Value::Object(out)))
            }
            other => self.fill(other).map(Some),
        }
    }

    fn interpolate(&self, text: &str) -> Result<String, String> {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find("{$") {
            out.push_str(&rest[..at]);
            let Some(len) = rest[at..].find('}') else {
                out.push_str(&rest[at..]);
                return Ok(out);
            };
            let expr = &rest[at + 1..at + len];
            let value = self
                .eval(expr)
                .ok_or_else(|| format!("`{expr}` has no value"))?;
            match value {
                Value::String(s) => out.push_str(&s),
                other => out.push_str(&other.to_string()),
            }
            rest = &rest[at + len + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    /// Whether simple condition `condition` holds. A condition that
    /// cannot be read is an error naming it.
    pub fn holds(&self, condition: &str) -> Result<bool, String> {
        let text = condition.trim();
        // Conditions are sometimes written inside `{…}` (the JSON example).
        let text = match text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            Some(inner) if inner.trim_start().starts_with('$') => inner,
            _ => text,
        };
        let tokens = tokenize(text).map_err(|e| format!("condition `{condition}`: {e}"))?;
        let mut parser = Parser {
            tokens: &tokens,
            at: 0,
            scope: self,
        };
        let value = parser
            .or()
            .map_err(|e| format!("condition `{condition}`: {e}"))?;
        if parser.at != tokens.len() {
            return Err(format!(
                "condition `{condition}`: unexpected `{}`",
                tokens[parser.at].text()
            ));
        }
        Ok(truthy(&value))
    }
}

/// Follows `.field` and `[n]` steps (and a leading name) into `value`.
fn walk(value: &Value, path: &str) -> Option<Value> {
    let mut cur = value;
    for part in path.split('.') {
        let (name, indexes) = match part.find('[') {
            Some(at) => (&part[..at], &part[at..]),
            None => (part, ""),
        };
        if !name.is_empty() {
            cur = cur.get(name)?;
        }
        for index in indexes.split('[').filter(|s| !s.is_empty()) {
            cur = cur.get(index.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(cur.clone())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(_) => true,
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Value(Value),
    Expr(String),
    Op(&'static str),
}

impl Token {
    fn text(&self) -> String {
        match self {
            Token::Value(v) => v.to_string(),
            Token::Expr(e) => e.clone(),
            Token::Op(o) => o.to_string(),
        }
    }
}

const OPERATORS: &[&str] = &["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")"];

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let rest: String = chars[i..].iter().take(2).collect();
        if let Some(op) = OPERATORS.iter().find(|op| rest.starts_with(**op)) {
            out.push(Token::Op(op));
            i += op.len();
            continue;
        }
        if c == '\'' {
            let mut s = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err("a string is not closed".into()),
                    Some('\'') if chars.get(i + 1) == Some(&'\'') => {
                        s.push('\'');
                        i += 2;
                    }
                    Some('\'') => {
                        i += 1;
                        break;
                    }
                    Some(ch) => {
                        s.push(*ch);
                        i += 1;
                    }
                }
            }
            out.push(Token::Value(Value::String(s)));
            continue;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() && !"<>=!&|()".contains(chars[i]) {
            i += 1;
        }
        if start == i {
            return Err(format!("unexpected `{c}`"));
        }
        let word: String = chars[start..i].iter().collect();
        out.push(if word.starts_with('$') {
            Token::Expr(word)
        } else {
            match word.as_str() {
                "true" => Token::Value(Value::Bool(true)),
                "false" => Token::Value(Value::Bool(false)),
                "null" => Token::Value(Value::Null),
                _ => Token::Value(
                    serde_json::from_str::<serde_json::Number>(&word)
                        .map(Value::Number)
                        .map_err(|_| {
                            format!("`{word}` is not a literal (strings take single quotes)")
                        })?,
                ),
            }
        });
    }
    Ok(out)
}

struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
    scope: &'a Scope,
}

impl Parser<'_> {
    fn eat(&mut self, op: &str) -> bool {
        if self.tokens.get(self.at)
            == Some(&Token::Op(match op {
                "||" => "||",
                "&&" => "&&",
                "!" => "!",
                "(" => "(",
                _ => ")",
            }))
        {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn or(&mut self) -> Result<Value, String> {
        let mut value = self.and()?;
        while self.eat("||") {
            let right = self.and()?;
            value = Value::Bool(truthy(&value) || truthy(&right));
        }
        Ok(value)
    }

    fn and(&mut self) -> Result<Value, String> {
        let mut value = self.not()?;
        while self.eat("&&") {
            let right = self.not()?;
            value = Value::Bool(truthy(&value) && truthy(&right));
        }
        Ok(value)
    }

    fn not(&mut self) -> Result<Value, String> {
        if self.eat("!") {
            return Ok(Value::Bool(!truthy(&self.not()?)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Value, String> {
        let left = self.primary()?;
        let op = match self.tokens.get(self.at) {
            Some(Token::Op(op)) if ["==", "!=", "<", "<=", ">", ">="].contains(op) => *op,
            _ => return Ok(left),
        };
        self.at += 1;
        let right = self.primary()?;
        Ok(Value::Bool(compare(&left, op, &right)))
    }

    fn primary(&mut self) -> Result<Value, String> {
        match self.tokens.get(self.at).cloned() {
            Some(Token::Op("(")) => {
                self.at += 1;
                let value = self.or()?;
                if !self.eat(")") {
                    return Err("a `(` is not closed".into());
                }
                Ok(value)
            }
            Some(Token::Value(v)) => {
                self.at += 1;
                Ok(v)
            }
            Some(Token::Expr(e)) => {
                self.at += 1;
                Ok(self.scope.eval(&e).unwrap_or(Value::Null))
            }
            Some(other) => Err(format!("unexpected `{}`", other.text())),
            None => Err("it ends too early".into()),
        }
    }
}

/// Compares two values: numbers as numbers (a numeric string counts, as
/// a header value would), strings case-insensitively, anything else by
/// equality.
fn compare(left: &Value, op: &str, right: &Value) -> bool {
    let number = |v: &Value| match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    let ordering = match (left, right) {
        (Value::String(a), Value::String(b)) => Some(a.to_lowercase().cmp(&b.to_lowercase())),
        _ => match (number(left), number(right)) {
            (Some(a), Some(b)) => a.partial_cmp(&b),
            _ => None,
        },
    };
    match (op, ordering) {
        ("==", Some(o)) => o.is_eq(),
        ("!=", Some(o)) => !o.is_eq(),
        ("==", None) => left == right,
        ("!=", None) => left != right,
        ("<", Some(o)) => o.is_lt(),
        ("<=", Some(o)) => o.is_le(),
        (">", Some(o)) => o.is_gt(),
        (">=", Some(o)) => o.is_ge(),
        _ => false,
    }
}

#[cfg(test)]
#[path = "expr_tests.rs"]
mod tests;
