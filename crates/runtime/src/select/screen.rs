//! The screen a selector passes before it is compiled: the few jq
//! constructs that reach outside the value (the environment, other
//! inputs, logs, the process) are refused wherever they appear in the
//! *parsed* selector, string interpolations included, with the byte
//! offset of each.
//!
//! What merely runs long or big (`def` recursion, `repeat`, `range`,
//! `while`, ...) is allowed: the evaluation worker bounds every selector
//! by time, memory and output size, whatever constructs it uses, and
//! refusing names never bounded much (`"x" * 1e12` needs none of them).

use jaq_core::load::lex::StrPart;
use jaq_core::load::parse::{BinaryOp, Pattern, Term};
use jaq_core::path::Part;

/// Filters a selector may not call, with why. Their definitions are
/// also withheld from the compiler (see `eval`), so a call the screen
/// could miss would still be "not a known filter".
pub(super) const REFUSED_CALLS: &[(&str, &str)] = &[
    ("input", "selectors see only the result"),
    ("inputs", "selectors see only the result"),
    ("input_filename", "selectors see only the result"),
    ("input_line_number", "selectors see only the result"),
    ("env", "selectors cannot read the environment"),
    ("halt", "selectors cannot stop the server"),
    ("halt_error", "selectors cannot stop the server"),
    ("debug", "selectors cannot write logs"),
    ("debug_empty", "selectors cannot write logs"),
    ("stderr", "selectors cannot write logs"),
    ("stderr_empty", "selectors cannot write logs"),
];

/// Variables a selector may not read, with why.
const REFUSED_VARS: &[(&str, &str)] = &[
    ("$ENV", "selectors cannot read the environment"),
    ("$__prog_args", "selectors see only the result"),
];

/// Checks the parsed `code` for refused constructs: `Err` names each
/// (`` `env` at byte 3: selectors cannot read the environment ``).
/// `code` must be a selector jaq's loader parsed already; one that only
/// parses as a module (`import`, `include`) is refused here.
pub(super) fn screen(code: &str) -> Result<(), String> {
    let Some(term) = jaq_core::load::parse(code, |p| p.term()) else {
        return Err(
            "module directives (`import`, `include`, `module`) are not allowed: selectors cannot load modules"
                .into(),
        );
    };
    let mut found: Vec<(usize, String)> = Vec::new();
    let mut refuse = |name: &str, why: &str| {
        let at = offset(code, name);
        found.push((at, format!("`{name}` at byte {at}: {why}")));
    };
    // An explicit stack rather than recursion: the depth of a selector's
    // term tree is up to its author.
    let mut stack: Vec<&Term<&str>> = vec![&term];
    while let Some(term) = stack.pop() {
        match term {
            Term::Id | Term::Recurse | Term::Num(_) | Term::Break(_) => {}
            Term::Str(_format, parts) => {
                for part in parts {
                    if let StrPart::Term(t) = part {
                        stack.push(t);
                    }
                }
            }
            Term::Arr(inner) => stack.extend(inner.as_deref()),
            Term::Obj(entries) => {
                for (key, value) in entries {
                    stack.push(key);
                    stack.extend(value.as_ref());
                }
            }
            Term::Neg(t) | Term::Label(_, t) => stack.push(t),
            Term::BinOp(l, op, r) => {
                stack.push(l);
                stack.push(r);
                if let BinaryOp::Pipe(Some(pattern)) = op {
                    pattern_terms(pattern, &mut stack);
                }
            }
            Term::Fold(_, xs, pattern, args) => {
                stack.push(xs);
                pattern_terms(pattern, &mut stack);
                stack.extend(args);
            }
            Term::TryCatch(body, catch) => {
                stack.push(body);
                stack.extend(catch.as_deref());
            }
            Term::IfThenElse(branches, otherwise) => {
                for (cond, then) in branches {
                    stack.push(cond);
                    stack.push(then);
                }
                stack.extend(otherwise.as_deref());
            }
            Term::Def(defs, rest) => {
                stack.extend(defs.iter().map(|d| &d.body));
                stack.push(rest);
            }
            Term::Call(name, args) => {
                if let Some((_, why)) = REFUSED_CALLS.iter().find(|(n, _)| n == name) {
                    refuse(name, why);
                }
                stack.extend(args);
            }
            Term::Var(name) => {
                if let Some((_, why)) = REFUSED_VARS.iter().find(|(n, _)| n == name) {
                    refuse(name, why);
                }
            }
            Term::Path(head, path) => {
                stack.push(head);
                for (part, _) in &path.0 {
                    match part {
                        Part::Index(i) => stack.push(i),
                        Part::Range(from, to) => {
                            stack.extend(from.as_ref());
                            stack.extend(to.as_ref());
                        }
                    }
                }
            }
        }
    }
    if found.is_empty() {
        return Ok(());
    }
    found.sort();
    found.dedup();
    Err(found
        .into_iter()
        .map(|(_, why)| why)
        .collect::<Vec<_>>()
        .join("; "))
}

/// The terms inside a destructuring pattern (`{(f): $x}` keys).
fn pattern_terms<'t>(pattern: &'t Pattern<&str>, stack: &mut Vec<&'t Term<&'t str>>) {
    let mut patterns = vec![pattern];
    while let Some(p) = patterns.pop() {
        match p {
            Pattern::Var(_) => {}
            Pattern::Arr(items) => patterns.extend(items),
            Pattern::Obj(entries) => {
                for (key, value) in entries {
                    stack.push(key);
                    patterns.push(value);
                }
            }
        }
    }
}

/// The byte offset of `part` (a slice of `whole`, as jaq's parser gives
/// names) in `whole`; the end of `whole` for a name jaq made up.
fn offset(whole: &str, part: &str) -> usize {
    let at = (part.as_ptr() as usize).wrapping_sub(whole.as_ptr() as usize);
    if at <= whole.len() { at } else { whole.len() }
}
