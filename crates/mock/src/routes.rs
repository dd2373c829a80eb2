//! Path-template matching: which documented path a request path is, and the
//! values of its `{slots}`. Literal segments beat templated ones, so
//! `/pets/mine` wins over `/pets/{petId}` for `/pets/mine`.

use percent_encoding::percent_decode_str;

/// One piece of a path segment: literal text or a `{slot}`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Literal(String),
    Slot(String),
}

/// A compiled path template such as `/pets/{petId}/photo`.
#[derive(Debug, Clone)]
pub struct Template {
    segments: Vec<Vec<Piece>>,
}

impl Template {
    /// Compiles a template; text outside braces is literal. A trailing `/`
    /// is dropped, as it is from request paths (AWS's descriptions key
    /// many paths `/backup-jobs/`).
    pub fn parse(template: &str) -> Self {
        let template = match template.strip_suffix('/') {
            Some(trimmed) if !trimmed.is_empty() => trimmed,
            _ => template,
        };
        let segments = split(template)
            .map(|seg| {
                let mut pieces = Vec::new();
                let mut rest = seg;
                while !rest.is_empty() {
                    match rest.find('{') {
                        Some(open) => {
                            if open > 0 {
                                pieces.push(Piece::Literal(rest[..open].to_string()));
                            }
                            let after = &rest[open + 1..];
                            match after.find('}') {
                                Some(close) => {
                                    pieces.push(Piece::Slot(after[..close].to_string()));
                                    rest = &after[close + 1..];
                                }
                                None => {
                                    pieces.push(Piece::Literal(rest[open..].to_string()));
                                    rest = "";
                                }
                            }
                        }
                        None => {
                            pieces.push(Piece::Literal(rest.to_string()));
                            rest = "";
                        }
                    }
                }
                pieces
            })
            .collect();
        Self { segments }
    }

    /// How specific the template is, segment by segment (2 literal, 1 mixed,
    /// 0 a bare slot); compared lexicographically, higher wins.
    pub fn specificity(&self) -> Vec<u8> {
        self.segments
            .iter()
            .map(|pieces| {
                let slots = pieces
                    .iter()
                    .filter(|p| matches!(p, Piece::Slot(_)))
                    .count();
                match (slots, pieces.len()) {
                    (0, _) => 2,
                    (_, 1) => 0,
                    _ => 1,
                }
            })
            .collect()
    }

    /// Matches a request path (still percent-encoded, without the server
    /// prefix); returns the slot values, percent-decoded.
    pub fn matches(&self, path: &str) -> Option<Vec<(String, String)>> {
        let segments: Vec<&str> = split(path).collect();
        if segments.len() != self.segments.len() {
            return None;
        }
        let mut values = Vec::new();
        for (pieces, raw) in self.segments.iter().zip(segments) {
            let decoded = percent_decode_str(raw).decode_utf8_lossy();
            match_segment(pieces, &decoded, &mut values)?;
        }
        Some(values)
    }
}

/// Path segments after the leading `/` (`""` and `"/"` have none).
fn split(path: &str) -> impl Iterator<Item = &str> {
    let trimmed = path.strip_prefix('/').unwrap_or(path);
    let empty = trimmed.is_empty();
    trimmed.split('/').filter(move |_| !empty)
}

/// Matches one decoded segment against its pieces. A slot takes text up to
/// the first occurrence of the literal that follows it (all the rest when
/// it is last); a slot must not be empty.
fn match_segment(pieces: &[Piece], segment: &str, out: &mut Vec<(String, String)>) -> Option<()> {
    let mut rest = segment;
    let mut i = 0;
    while i < pieces.len() {
        match &pieces[i] {
            Piece::Literal(lit) => rest = rest.strip_prefix(lit.as_str())?,
            Piece::Slot(name) => {
                let value = match pieces.get(i + 1) {
                    Some(Piece::Literal(next)) => {
                        let at = rest.find(next.as_str())?;
                        let v = &rest[..at];
                        rest = &rest[at..];
                        v
                    }
                    // Two adjacent slots: the first takes one character at least.
                    Some(Piece::Slot(_)) => {
                        let end = rest.char_indices().nth(1).map_or(rest.len(), |(i, _)| i);
                        let v = &rest[..end];
                        rest = &rest[end..];
                        v
                    }
                    None => std::mem::take(&mut rest),
                };
                if value.is_empty() {
                    return None;
                }
                out.push((name.clone(), value.to_string()));
            }
        }
        i += 1;
    }
    rest.is_empty().then_some(())
}

#[cfg(test)]
#[path = "routes_tests.rs"]
mod tests;
