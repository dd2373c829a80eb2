//! The deepest inline level that fits the budget, found by expanding a
//! schema once instead of once per level.
//!
//! Trying level `d + 1` after level `d` changes only the places level `d`
//! summarized because they lay deeper than `d` (a decision to list a
//! schema inline holds at every deeper level, and a summary does not
//! depend on the level). So the first expansion (level 1) writes those
//! places down ([`Cut`]: what was summarized there, with the context to
//! expand it again), and each next level expands only them, again writing
//! down what it summarizes for its depth. Compact JSON is additive (a
//! value replaced in its slot changes the size by the difference of the
//! two values), so each level's size and count of expanded nodes follow
//! from the previous level's and the places' own; the level's value
//! itself is never assembled. The deepest level that fits is then
//! expanded once more as before: the result is what trying every level
//! from scratch gives, byte for byte (a property test compares the two).
//!
//! Graph's larger entities reach thousands of schemas, and trying each
//! level from scratch expanded a schema up to eight times.

use std::sync::Arc;

use serde_json::Value;

use super::{Expander, MAX_DEPTH, Side, TooBig, attempt, self_note};
use crate::bundle::{Converted, json_size};

/// A place a level summarized only for its depth: the subschema found
/// there, where it was, and what its summary cost.
pub(super) struct Cut {
    /// The subschema at that place (a `$ref` site, or an inline schema).
    pub(super) schema: Value,
    /// Its depth (the tool schema is 0).
    pub(super) depth: usize,
    /// The def it lies in, if any.
    pub(super) within: Option<String>,
    /// The defs being expanded around it.
    pub(super) stack: Vec<String>,
    /// Bytes of what the level put there.
    pub(super) size: usize,
    /// Nodes the level counted there.
    pub(super) nodes: usize,
    /// Whether what the level put there is a summary of an inline schema
    /// (the top then points at the tool's full schema).
    pub(super) inline: bool,
}

/// `top` at the deepest inline level (1 to [`MAX_DEPTH`]) whose every
/// shallower level fits too, full descriptions; `None` when level 1 does
/// not fit. The same as trying each level in turn with
/// [`super::attempt`] and keeping the last that fit.
pub(super) fn deepest(
    top: &Value,
    lookup: &mut dyn FnMut(&str) -> Arc<Converted>,
    side: Side,
    budget: usize,
    self_uri: &str,
) -> Option<Value> {
    let node_limit = budget / 3 + 16;
    let mut e = Expander::new(&mut *lookup, side, self_uri, 1, None, node_limit);
    e.record = Some(Vec::new());
    e.size_limit = budget;
    let first = e.expand(top, 0, None).ok()?;
    // The next levels' sizes are counted exactly, as they grow.
    e.size_limit = usize::MAX;
    if e.cut_here || e.overlaid {
        // Places that are not slots of their own (the top, or a subschema
        // a `$ref`'s sibling replaced): try each level from scratch.
        drop(e);
        return level_by_level(top, lookup, side, budget, self_uri);
    }
    let note = NoteGrowth::of(&first, self_uri);
    let mut size = json_size(&first);
    let first_inline = e.inline_summaries;
    if note.apply(size, first_inline) > budget {
        return None;
    }
    let mut frontier = e.record.replace(Vec::new()).unwrap_or_default();
    let mut best = 1;
    for depth in 2..=MAX_DEPTH {
        if frontier.is_empty() {
            // Nothing lies deeper: every further level is this one.
            break;
        }
        e.max_depth = depth;
        e.nodes -= frontier.iter().map(|c| c.nodes).sum::<usize>();
        let mut grown = size;
        let mut too_big = false;
        for cut in &frontier {
            e.stack.clone_from(&cut.stack);
            match e.child(&cut.schema, cut.depth, cut.within.as_deref()) {
                Ok(value) => grown = grown - cut.size + json_size(&value),
                Err(TooBig) => {
                    too_big = true;
                    break;
                }
            }
        }
        if too_big || e.overlaid {
            if e.overlaid {
                drop(e);
                return level_by_level(top, lookup, side, budget, self_uri);
            }
            break;
        }
        let next = e.record.replace(Vec::new()).unwrap_or_default();
        let inline = next.iter().any(|c| c.inline);
        if note.apply(grown, inline) > budget {
            break;
        }
        size = grown;
        best = depth;
        frontier = next;
    }
    if best == 1 {
        e.inline_summaries = first_inline;
        return Some(e.point_to_self(first));
    }
    drop(e);
    // Within the node limit by the count above; no limit is needed.
    let mut e = Expander::new(lookup, side, self_uri, best, None, usize::MAX);
    let value = e.expand(top, 0, None).ok()?;
    Some(e.point_to_self(value))
}

/// Each level tried from scratch, as [`deepest`] stands for.
pub(super) fn level_by_level(
    top: &Value,
    lookup: &mut dyn FnMut(&str) -> Arc<Converted>,
    side: Side,
    budget: usize,
    self_uri: &str,
) -> Option<Value> {
    let mut best = attempt(top, lookup, side, budget, self_uri, 1, None)?;
    for depth in 2..=MAX_DEPTH {
        match attempt(top, lookup, side, budget, self_uri, depth, None) {
            Some(v) => best = v,
            None => break,
        }
    }
    Some(best)
}

/// What [`Expander::point_to_self`] adds to the size of an expanded top
/// (the same at every level: the top's own keywords do not change).
struct NoteGrowth {
    /// Size with the note, less the size without it (it may replace a
    /// description that is not a string).
    delta: isize,
}

impl NoteGrowth {
    fn of(top: &Value, self_uri: &str) -> Self {
        let Value::Object(m) = top else {
            return Self { delta: 0 };
        };
        let note = self_note(self_uri);
        let size = |v: &str| json_size(v) as isize;
        let delta = match m.get("description") {
            Some(Value::String(d)) if !d.is_empty() => size(&format!("{d}\n\n{note}")) - size(d),
            Some(other) => size(&note) - json_size(other) as isize,
            None => {
                json_size("description") as isize + 1 + size(&note) + isize::from(!m.is_empty())
            }
        };
        Self { delta }
    }

    /// The size of a top of `size` bytes once the note is added when
    /// `inline` parts were summarized.
    fn apply(&self, size: usize, inline: bool) -> usize {
        if inline {
            (size as isize + self.delta).max(0) as usize
        } else {
            size
        }
    }
}

#[cfg(test)]
#[path = "deepen_tests.rs"]
mod tests;
