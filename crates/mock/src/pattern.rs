//! A string matching a `pattern`, best effort and without a regex crate:
//! the shortest choice at every step (first alternative, fewest
//! repetitions, first member of a class), then checked with the JSON
//! Schema validator's own regex engine. Lookarounds and back-references
//! are not attempted.

use serde_json::json;

/// A string matching `pattern`, if the simple walk finds one.
pub fn sample(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut walker = Walker { chars, pos: 0 };
    let out = walker.alternation()?;
    if walker.pos != walker.chars.len() {
        return None;
    }
    let schema = json!({"type": "string", "pattern": pattern});
    // A pattern the engine rejects gives `None`, never a panic.
    let validator = jsonschema::draft202012::new(&schema).ok()?;
    validator.is_valid(&json!(out)).then_some(out)
}

/// Longest sample produced (nested repetitions multiply).
const MAX_LEN: usize = 4096;

struct Walker {
    chars: Vec<char>,
    pos: usize,
}

impl Walker {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    /// `a|b|c` up to a closing `)` or the end: the first alternative.
    fn alternation(&mut self) -> Option<String> {
        let first = self.sequence()?;
        while self.peek() == Some('|') {
            self.pos += 1;
            self.sequence()?;
        }
        Some(first)
    }

    fn sequence(&mut self) -> Option<String> {
        let mut out = String::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let times = self.quantifier()?;
            for _ in 0..times {
                out.push_str(&atom);
            }
            if out.len() > MAX_LEN {
                return None;
            }
        }
        Some(out)
    }

    fn atom(&mut self) -> Option<String> {
        let c = self.peek()?;
        self.pos += 1;
        Some(match c {
            '^' | '$' => String::new(),
            '.' => "a".into(),
            '\\' => {
                let e = self.peek()?;
                self.pos += 1;
                match e {
                    'd' => "0".into(),
                    'w' | 'D' | 'S' => "a".into(),
                    's' => " ".into(),
                    'W' => "-".into(),
                    'b' | 'B' | 'A' | 'z' | 'Z' => String::new(),
                    'n' => "\n".into(),
                    't' => "\t".into(),
                    c if c.is_ascii_digit() => return None, // back-reference
                    c => c.to_string(),
                }
            }
            '[' => self.class()?.to_string(),
            '(' => {
                if self.peek() == Some('?') {
                    self.pos += 1;
                    match self.peek()? {
                        ':' => self.pos += 1,
                        'P' | '<' => {
                            if self.peek() == Some('P') {
                                self.pos += 1;
                            }
                            if self
                                .chars
                                .get(self.pos + 1)
                                .is_some_and(|c| *c == '=' || *c == '!')
                            {
                                return None;
                            }
                            while self.peek()? != '>' {
                                self.pos += 1;
                            }
                            self.pos += 1;
                        }
                        _ => return None,
                    }
                }
                let inner = self.alternation()?;
                if self.peek()? != ')' {
                    return None;
                }
                self.pos += 1;
                inner
            }
            '*' | '+' | '?' | '{' | ')' | '|' => return None,
            c => c.to_string(),
        })
    }

    /// The member of a `[...]` class to use.
    fn class(&mut self) -> Option<char> {
        let negated = self.peek() == Some('^');
        if negated {
            self.pos += 1;
        }
        let mut members: Vec<(char, char)> = Vec::new();
        let mut first = true;
        loop {
            let c = self.peek()?;
            self.pos += 1;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = if c == '\\' {
                let e = self.peek()?;
                self.pos += 1;
                match e {
                    'd' => {
                        members.push(('0', '9'));
                        continue;
                    }
                    'w' => {
                        members.push(('a', 'z'));
                        continue;
                    }
                    's' => {
                        members.push((' ', ' '));
                        continue;
                    }
                    'n' => '\n',
                    't' => '\t',
                    e => e,
                }
            } else {
                c
            };
            if self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|c| *c != ']') {
                self.pos += 1;
                let mut hi = self.peek()?;
                self.pos += 1;
                if hi == '\\' {
                    hi = self.peek()?;
                    self.pos += 1;
                }
                members.push((lo, hi));
            } else {
                members.push((lo, lo));
            }
        }
        if negated {
            ['a', 'x', '0', '_', '-', ' ']
                .into_iter()
                .find(|c| !members.iter().any(|(lo, hi)| lo <= c && c <= hi))
        } else {
            members.first().map(|(lo, _)| *lo)
        }
    }

    /// How many times the preceding atom is repeated: the minimum allowed.
    fn quantifier(&mut self) -> Option<usize> {
        let n = match self.peek() {
            Some('*') | Some('?') => {
                self.pos += 1;
                0
            }
            Some('+') => {
                self.pos += 1;
                1
            }
            Some('{') => {
                let start = self.pos;
                self.pos += 1;
                let mut digits = String::new();
                while let Some(c) = self.peek().filter(char::is_ascii_digit) {
                    digits.push(c);
                    self.pos += 1;
                }
                while let Some(c) = self.peek().filter(|c| *c != '}') {
                    if !(c.is_ascii_digit() || c == ',') {
                        self.pos = start;
                        return Some(1);
                    }
                    self.pos += 1;
                }
                self.peek()?;
                self.pos += 1;
                digits.parse().ok()?
            }
            _ => return Some(1),
        };
        if matches!(self.peek(), Some('?') | Some('+')) {
            self.pos += 1;
        }
        Some(n.min(64))
    }
}

#[cfg(test)]
#[path = "pattern_tests.rs"]
mod tests;
