//! YAML: a line scanner for block-style documents.
//!
//! A block node is a run of lines indented at least as far as its first
//! line; its entries (or `- ` items) sit exactly at that column and anything
//! further right belongs to them. The [`Cursor`] hides lines that are
//! not structure: blank lines, comments, block scalar bodies and the
//! continuation lines of multi-line quoted scalars and flow collections.

use super::{Hit, parse_index, read_hex};
use std::borrow::Cow;

/// A block node: its first line starts at byte `pos`, column `col`
/// (mid-line for a mapping or sequence that opens on a `- ` line).
#[derive(Debug, Clone, Copy)]
struct Block {
    pos: usize,
    col: usize,
}

/// What a pointer step landed on.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// A block mapping or sequence the walk can descend into.
    Block(Block),
    /// A scalar, alias, flow collection or empty value: the walk stops.
    Leaf,
}

/// Follows `tokens` from the root node; `None` if there is no content.
pub(super) fn locate(src: &str, tokens: &[String]) -> Option<Hit> {
    let mut target = root(src)?;
    let mut hit = Hit::Root;
    for token in tokens {
        let Target::Block(block) = target else {
            break;
        };
        let Some((at, next)) = step(src, block, token) else {
            break;
        };
        hit = Hit::At(at);
        target = next;
    }
    Some(hit)
}

/// The root node: the first line that is not blank, a comment, a
/// directive or the `---` document start.
fn root(src: &str) -> Option<Target> {
    let mut pos = if src.starts_with('\u{feff}') { 3 } else { 0 };
    while pos < src.len() {
        let line = read_line(src, pos, 0)?;
        pos = line.next;
        let text = line.text;
        if is_blank(text) || is_comment(text) || (line.indent == 0 && text.starts_with('%')) {
            continue;
        }
        if line.indent == 0 && is_doc_marker(text) {
            let after = text.get(3..).unwrap_or("").trim_start();
            if after.is_empty() || after.starts_with('#') {
                continue;
            }
            return Some(Target::Leaf);
        }
        return Some(Target::Block(Block {
            pos: line.content,
            col: line.indent,
        }));
    }
    None
}

/// One pointer step into `block`: a sequence takes an index, a mapping a
/// key. Returns where the child is reported and what it is.
fn step(src: &str, block: Block, token: &str) -> Option<(usize, Target)> {
    let first = read_line(src, block.pos, block.col)?;
    if dash_rest(first.text).is_some() {
        let item = find_item(src, block, parse_index(token)?)?;
        Some((item.dash, item_target(src, &item)))
    } else {
        let entry = find_key(src, block, token)?;
        Some((entry.key, entry_target(src, &entry, block.col)))
    }
}

/// A mapping entry that was found.
struct Entry {
    /// Offset of the key.
    key: usize,
    /// Offset just past the `:`.
    value: usize,
    /// Start of the following line.
    next: usize,
}

/// A sequence item that was found.
struct Item {
    /// Offset and column of the `-`.
    dash: usize,
    dash_col: usize,
    /// Offset and column of what follows the dash on its line.
    rest: usize,
    rest_col: usize,
    /// Start of the following line.
    next: usize,
}

/// Finds the entry with key `key` among the entries at `block.col`.
fn find_key(src: &str, block: Block, key: &str) -> Option<Entry> {
    let mut cursor = Cursor::new(src, block.pos, block.col);
    while let Some(line) = cursor.next_line() {
        if ends_block(&line, block.col) {
            return None;
        }
        // Deeper lines and a sequence at the same column belong to the
        // previous entry's value.
        if line.indent > block.col || dash_rest(line.text).is_some() {
            continue;
        }
        if let Some((found, after)) = parse_key(line.text)
            && found == key
        {
            return Some(Entry {
                key: line.content,
                value: line.content + after,
                next: line.next,
            });
        }
    }
    None
}

/// Finds item number `index` among the `- ` items at `block.col`.
fn find_item(src: &str, block: Block, index: usize) -> Option<Item> {
    let mut cursor = Cursor::new(src, block.pos, block.col);
    let mut seen = 0usize;
    while let Some(line) = cursor.next_line() {
        if ends_block(&line, block.col) {
            return None;
        }
        if line.indent > block.col {
            continue;
        }
        let rest = dash_rest(line.text)?;
        if seen == index {
            return Some(Item {
                dash: line.content,
                dash_col: line.indent,
                rest: line.content + rest,
                rest_col: line.indent + rest,
                next: line.next,
            });
        }
        seen += 1;
    }
    None
}

/// Whether `line` closes a block at column `col` (dedent or a new document).
fn ends_block(line: &Line<'_>, col: usize) -> bool {
    line.indent < col || (line.indent == 0 && is_doc_marker(line.text))
}

/// The value of a mapping entry: a block below it, or a leaf.
fn entry_target(src: &str, entry: &Entry, map_col: usize) -> Target {
    match value_kind(rest_of_line(src, entry.value)).1 {
        Kind::Empty => block_below(src, entry.next, map_col, true),
        _ => Target::Leaf,
    }
}

/// The node of a sequence item: inline after the dash (`- name: x`,
/// `- - x`), a block below it, or a leaf.
fn item_target(src: &str, item: &Item) -> Target {
    let text = rest_of_line(src, item.rest);
    let (skip, kind) = value_kind(text);
    let inner = text.get(skip..).unwrap_or("");
    if kind == Kind::Empty {
        return block_below(src, item.next, item.dash_col, false);
    }
    if dash_rest(inner).is_some() || parse_key(inner).is_some() {
        let col = item.rest_col + text.get(..skip).map_or(0, |s| s.chars().count());
        return Target::Block(Block {
            pos: item.rest + skip,
            col,
        });
    }
    Target::Leaf
}

/// The block starting on the next structural line from `pos`, if it is
/// indented past `parent_col` (or, for a mapping value, is a sequence at
/// the parent's own column, which YAML allows).
fn block_below(src: &str, pos: usize, parent_col: usize, same_col_seq: bool) -> Target {
    let Some(line) = Cursor::new(src, pos, 0).next_line() else {
        return Target::Leaf;
    };
    let nested = line.indent > parent_col;
    let same_col_dash = same_col_seq && line.indent == parent_col && dash_rest(line.text).is_some();
    if nested || same_col_dash {
        Target::Block(Block {
            pos: line.content,
            col: line.indent,
        })
    } else {
        Target::Leaf
    }
}

/// One physical line, read from some offset.
struct Line<'a> {
    /// Offset of the first non-space character.
    content: usize,
    /// Column of that character.
    indent: usize,
    /// From `content` to the end of the line, without `\r\n`.
    text: &'a str,
    /// Start of the following line (or the end of the text).
    next: usize,
}

/// Reads the line from `pos` (column `col`) to its end.
fn read_line(src: &str, pos: usize, col: usize) -> Option<Line<'_>> {
    let rest = src.get(pos..)?;
    let (raw, next) = match rest.find('\n') {
        Some(i) => (&rest[..i], pos + i + 1),
        None => (rest, src.len()),
    };
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    let text = raw.trim_start_matches(' ');
    let spaces = raw.len() - text.len();
    Some(Line {
        content: pos + spaces,
        indent: col + spaces,
        text,
        next,
    })
}

/// The rest of the line from `pos`, without the line break.
fn rest_of_line(src: &str, pos: usize) -> &str {
    read_line(src, pos, 0).map_or("", |line| line.text)
}

/// What the cursor must hide after the line it just returned.
#[derive(Debug, Clone, Copy)]
enum Skip {
    Nothing,
    /// A block scalar body: lines indented past this column.
    Deeper(usize),
    /// A quoted scalar or flow collection opening at this offset, which
    /// may continue on later lines.
    Opener(usize),
}

/// Walks the structural lines of the text, forward only.
struct Cursor<'a> {
    src: &'a str,
    pos: usize,
    /// Column of `pos`; only the first (possibly partial) line has one.
    col: usize,
    skip: Skip,
}

impl<'a> Cursor<'a> {
    /// A cursor whose first line starts at `pos`, column `col`.
    fn new(src: &'a str, pos: usize, col: usize) -> Self {
        Self {
            src,
            pos,
            col,
            skip: Skip::Nothing,
        }
    }

    /// The next line that carries structure.
    fn next_line(&mut self) -> Option<Line<'a>> {
        if let Skip::Opener(at) = self.skip {
            self.pos = self
                .pos
                .max(next_line_start(self.src, skip_opener(self.src, at)));
            self.skip = Skip::Nothing;
        }
        while self.pos < self.src.len() {
            let line = read_line(self.src, self.pos, self.col)?;
            self.pos = line.next;
            self.col = 0;
            if is_blank(line.text) {
                continue;
            }
            if let Skip::Deeper(owner) = self.skip
                && line.indent > owner
            {
                continue;
            }
            self.skip = Skip::Nothing;
            if is_comment(line.text) {
                continue;
            }
            self.skip = plan(&line);
            return Some(line);
        }
        None
    }
}

/// Decides what follows `line` that is not structure: a block scalar
/// body, or the rest of a quoted scalar / flow collection it opens.
fn plan(line: &Line<'_>) -> Skip {
    let (dashes, rel, dash_col) = strip_dashes(line.text, line.indent);
    let rest = line.text.get(rel..).unwrap_or("");
    let (owner, value_rel) = match parse_key(rest) {
        Some((_, after)) => (line.indent + rel, rel + after),
        None if dashes > 0 => (dash_col, rel),
        // A bare line is (part of) a plain scalar: no structure follows.
        None => return Skip::Nothing,
    };
    let (skip, kind) = value_kind(line.text.get(value_rel..).unwrap_or(""));
    match kind {
        Kind::BlockScalar => Skip::Deeper(owner),
        Kind::Opener => Skip::Opener(line.content + value_rel + skip),
        _ => Skip::Nothing,
    }
}

/// Strips leading `- ` indicators: (how many, byte length, column of the last dash).
fn strip_dashes(text: &str, indent: usize) -> (usize, usize, usize) {
    let (mut count, mut rel, mut dash_col) = (0, 0, indent);
    while let Some(len) = text.get(rel..).and_then(dash_rest) {
        dash_col = indent + rel;
        rel += len;
        count += 1;
    }
    (count, rel, dash_col)
}

/// If `text` starts a sequence item (`-` then blank or end), the byte
/// length of the dash and the blanks after it.
fn dash_rest(text: &str) -> Option<usize> {
    let rest = text.strip_prefix('-')?;
    if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
        return None;
    }
    Some(text.len() - rest.trim_start_matches([' ', '\t']).len())
}

/// How a value begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Nothing (or a comment): the value is on the following lines.
    Empty,
    /// `|` or `>`.
    BlockScalar,
    /// A quote or flow bracket, which may span lines.
    Opener,
    /// `*alias`.
    Alias,
    /// Anything else: a plain scalar, or inline block content after a dash.
    Plain,
}

/// Classifies the value text after `key:` or `-`, skipping blanks and
/// any anchor or tag; returns the byte offset where the value proper starts.
fn value_kind(text: &str) -> (usize, Kind) {
    let mut i = blanks_end(text, 0);
    while text.get(i..).is_some_and(|t| t.starts_with(['&', '!'])) {
        let end = text
            .get(i..)
            .and_then(|t| t.find([' ', '\t']))
            .map_or(text.len(), |e| i + e);
        i = blanks_end(text, end);
    }
    let kind = match text.as_bytes().get(i) {
        None | Some(b'#') => Kind::Empty,
        Some(b'|' | b'>') => Kind::BlockScalar,
        Some(b'\'' | b'"' | b'[' | b'{') => Kind::Opener,
        Some(b'*') => Kind::Alias,
        Some(_) => Kind::Plain,
    };
    (i, kind)
}

/// The offset of the first non-blank byte at or after `i`.
fn blanks_end(text: &str, mut i: usize) -> usize {
    while matches!(text.as_bytes().get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    i
}

/// Parses an implicit key at the start of `text`: the key (unquoted and
/// unescaped) and the byte offset just past its `:`.
fn parse_key(text: &str) -> Option<(Cow<'_, str>, usize)> {
    let first = *text.as_bytes().first()?;
    match first {
        b'\'' => {
            let (key, end) = single_quoted(text)?;
            Some((key, colon_after(text, end)?))
        }
        b'"' => {
            let (key, end) = double_quoted(text)?;
            Some((key, colon_after(text, end)?))
        }
        b'?' if matches!(text.as_bytes().get(1), None | Some(b' ' | b'\t')) => None,
        b'[' | b']' | b'{' | b'}' | b',' | b'|' | b'>' | b'*' | b'&' | b'!' | b'#' | b'%'
        | b'@' | b'`' => None,
        _ => plain_key(text),
    }
}

/// A plain key: everything before the first `:` that is followed by a
/// blank or the end of the line, unless a comment starts first.
fn plain_key(text: &str) -> Option<(Cow<'_, str>, usize)> {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let blank_before = i > 0 && matches!(bytes[i - 1], b' ' | b'\t');
        match b {
            b':' if matches!(bytes.get(i + 1), None | Some(b' ' | b'\t')) => {
                let key = text.get(..i)?.trim_end();
                return (!key.is_empty()).then_some((Cow::Borrowed(key), i + 1));
            }
            b'#' if blank_before => return None,
            _ => {}
        }
    }
    None
}

/// The offset just past a `:` that follows `end` after optional blanks.
fn colon_after(text: &str, end: usize) -> Option<usize> {
    let i = blanks_end(text, end);
    (text.as_bytes().get(i) == Some(&b':')).then_some(i + 1)
}

/// A single-quoted scalar closed on this line: its value and the offset
/// past the closing quote.
fn single_quoted(text: &str) -> Option<(Cow<'_, str>, usize)> {
    let bytes = text.as_bytes();
    let mut i = 1;
    let mut escaped = false;
    loop {
        i += text.get(i..)?.find('\'')?;
        if bytes.get(i + 1) == Some(&b'\'') {
            escaped = true;
            i += 2;
            continue;
        }
        let inner = text.get(1..i)?;
        let key = if escaped {
            Cow::Owned(inner.replace("''", "'"))
        } else {
            Cow::Borrowed(inner)
        };
        return Some((key, i + 1));
    }
}

/// A double-quoted scalar closed on this line: its value and the offset
/// past the closing quote.
fn double_quoted(text: &str) -> Option<(Cow<'_, str>, usize)> {
    let bytes = text.as_bytes();
    let mut i = 1;
    let mut escaped = false;
    loop {
        match bytes.get(i)? {
            b'"' => break,
            b'\\' => {
                escaped = true;
                i += 2;
            }
            _ => i += 1,
        }
    }
    let inner = text.get(1..i)?;
    let key = if escaped {
        Cow::Owned(unescape_double(inner))
    } else {
        Cow::Borrowed(inner)
    };
    Some((key, i + 1))
}

/// Decodes YAML double-quoted escapes; unknown ones are kept verbatim.
fn unescape_double(inner: &str) -> String {
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match escape_char(e, &mut chars) {
            Some(decoded) => out.push(decoded),
            None => {
                out.push('\\');
                out.push(e);
            }
        }
    }
    out
}

/// The character a YAML escape `\e` stands for, reading hex digits for
/// `\x`, `\u` and `\U`.
fn escape_char(e: char, chars: &mut std::str::Chars<'_>) -> Option<char> {
    let hex = |chars: &mut std::str::Chars<'_>, n| {
        Some(
            read_hex(chars, n)
                .and_then(char::from_u32)
                .unwrap_or('\u{fffd}'),
        )
    };
    Some(match e {
        '0' => '\0',
        'a' => '\u{7}',
        'b' => '\u{8}',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\u{b}',
        'f' => '\u{c}',
        'r' => '\r',
        'e' => '\u{1b}',
        ' ' => ' ',
        '"' => '"',
        '/' => '/',
        '\\' => '\\',
        'N' => '\u{85}',
        '_' => '\u{a0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        'x' => return hex(chars, 2),
        'u' => return hex(chars, 4),
        'U' => return hex(chars, 8),
        _ => return None,
    })
}

/// Offset just past the quoted scalar or flow collection opening at `at`
/// (the end of the text if it never closes).
fn skip_opener(src: &str, at: usize) -> usize {
    let bytes = src.as_bytes();
    match bytes.get(at) {
        Some(b'\'') => skip_single(bytes, at),
        Some(b'"') => skip_double(bytes, at),
        Some(b'[' | b'{') => skip_flow(bytes, at),
        _ => at,
    }
}

/// Offset past a single-quoted scalar (`''` is an escaped quote).
fn skip_single(bytes: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    while i < bytes.len() {
        if bytes[i] == b'\'' {
            if bytes.get(i + 1) != Some(&b'\'') {
                return i + 1;
            }
            i += 1;
        }
        i += 1;
    }
    bytes.len()
}

/// Offset past a double-quoted scalar.
fn skip_double(bytes: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return i + 1,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Offset past a flow collection, tracking nesting, quoted scalars (a
/// quote only opens one at the start of a scalar) and comments.
fn skip_flow(bytes: &[u8], at: usize) -> usize {
    let mut depth = 0usize;
    let mut prev = b'[';
    let mut i = at;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            b'\'' | b'"' if matches!(prev, b'[' | b'{' | b',' | b':') => {
                i = if b == b'\'' {
                    skip_single(bytes, i)
                } else {
                    skip_double(bytes, i)
                };
                prev = b'"';
                continue;
            }
            b'#' if i > 0 && bytes[i - 1].is_ascii_whitespace() => {
                i = next_line_start_bytes(bytes, i);
                continue;
            }
            _ => {}
        }
        if !b.is_ascii_whitespace() {
            prev = b;
        }
        i += 1;
    }
    bytes.len()
}

/// Start of the line after the one containing `offset`.
fn next_line_start(src: &str, offset: usize) -> usize {
    next_line_start_bytes(src.as_bytes(), offset)
}

/// Start of the line after the one containing byte `offset`.
fn next_line_start_bytes(bytes: &[u8], offset: usize) -> usize {
    let tail = bytes.get(offset..).unwrap_or(&[]);
    tail.iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| offset + i + 1)
}

/// Blank lines (spaces or tabs only) carry no structure.
fn is_blank(text: &str) -> bool {
    text.trim_start_matches([' ', '\t']).is_empty()
}

/// Whole-line comments.
fn is_comment(text: &str) -> bool {
    text.trim_start_matches([' ', '\t']).starts_with('#')
}

/// `---` or `...` (alone or followed by a blank) at column 0.
fn is_doc_marker(text: &str) -> bool {
    ["---", "..."].iter().any(|marker| {
        text.strip_prefix(marker)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
    })
}
