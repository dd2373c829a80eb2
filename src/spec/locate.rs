//! Pointer → line lookup for diagnostics.
//!
//! Diagnostics name the offending node by JSON pointer, but documents are
//! parsed into `serde_json::Value`, which keeps no source positions. Users
//! still want a line number to jump to, so this module recovers it from the
//! original text on demand, only when a diagnostic is printed.
//!
//! Nothing here builds a tree: a JSON scanner and a line-based YAML scanner
//! walk forward along the pointer path, skipping everything else, so a lookup
//! is linear in the text and allocates next to nothing even for the 13 MB
//! documents some vendors publish.

/// Returns the 1-based line where the node at `pointer` starts in `source`.
///
/// `source` is JSON (when its first non-blank character is `{` or `[`) or
/// block-style YAML; `pointer` is an RFC 6901 JSON pointer (`""` is the whole
/// document, which is line 1). Object members are located at their key,
/// array elements where the element starts (the `- ` line in YAML).
///
/// When the pointer cannot be followed to the end (missing key, index out of
/// range, a scalar in the way, a YAML construct the scanner gives up on such
/// as a multi-line flow collection), the line of the deepest node that was
/// found is returned instead, so the user lands near the problem. `None` means
/// not even the root could be found (an empty or comment-only document).
/// Never panics, whatever the input.
pub fn line_of(source: &str, pointer: &str) -> Option<usize> {
    let tokens = pointer_tokens(pointer).unwrap_or_default();
    let hit = if looks_like_json(source) {
        json::locate(source, &tokens)
    } else {
        yaml::locate(source, &tokens)
    }?;
    Some(match hit {
        Hit::Root => 1,
        Hit::At(offset) => line_at(source, offset),
    })
}

/// The deepest node a scanner reached along the pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hit {
    /// Only the document itself (reported as line 1).
    Root,
    /// The node (key, or element start) at this byte offset.
    At(usize),
}

/// Splits a JSON pointer into unescaped reference tokens; `None` if it is
/// neither empty nor starts with `/`.
fn pointer_tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|token| token.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

/// An array index token as RFC 6901 spells it: digits, no leading zero.
fn parse_index(token: &str) -> Option<usize> {
    let canonical = !token.is_empty()
        && token.bytes().all(|b| b.is_ascii_digit())
        && (token.len() == 1 || !token.starts_with('0'));
    if canonical { token.parse().ok() } else { None }
}

/// Whether the text is JSON rather than YAML: its first non-blank character
/// (after an optional byte order mark) opens an object or array.
fn looks_like_json(source: &str) -> bool {
    let trimmed = source.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    trimmed.starts_with(['{', '['])
}

/// The 1-based line containing byte `offset`.
fn line_at(source: &str, offset: usize) -> usize {
    let bytes = source.as_bytes();
    let before = bytes.get(..offset).unwrap_or(bytes);
    1 + before.iter().filter(|&&b| b == b'\n').count()
}

/// Reads `n` hex digits as a code point value.
fn read_hex(chars: &mut std::str::Chars<'_>, n: usize) -> Option<u32> {
    let mut value = 0u32;
    for _ in 0..n {
        value = value * 16 + chars.next()?.to_digit(16)?;
    }
    Some(value)
}

/// JSON: a byte scanner that follows the pointer and skips everything else.
mod json {
    use super::{Hit, parse_index, read_hex};

    /// Follows `tokens` from the root value; the root always exists because
    /// the caller only sends text that starts with `{` or `[`.
    pub(super) fn locate(src: &str, tokens: &[String]) -> Option<Hit> {
        let bytes = src.as_bytes();
        let start = if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
            3
        } else {
            0
        };
        let mut value = skip_ws(bytes, start);
        let mut hit = Hit::Root;
        for token in tokens {
            let Some((at, next)) = step(src, value, token) else {
                break;
            };
            hit = Hit::At(at);
            value = next;
        }
        Some(hit)
    }

    /// One pointer step from the value at `value`: returns where the child is
    /// reported (its key or its start) and where the child value starts.
    fn step(src: &str, value: usize, token: &str) -> Option<(usize, usize)> {
        match src.as_bytes().get(value)? {
            b'{' => find_member(src, value, token),
            b'[' => {
                let at = find_element(src.as_bytes(), value, parse_index(token)?)?;
                Some((at, at))
            }
            _ => None,
        }
    }

    /// Finds member `key` of the object opening at `open`: (key offset, value offset).
    fn find_member(src: &str, open: usize, key: &str) -> Option<(usize, usize)> {
        let bytes = src.as_bytes();
        let mut i = open + 1;
        loop {
            i = skip_ws(bytes, i);
            if *bytes.get(i)? != b'"' {
                return None;
            }
            let key_start = i;
            let key_end = string_end(bytes, i)?;
            i = skip_ws(bytes, key_end);
            if *bytes.get(i)? != b':' {
                return None;
            }
            i = skip_ws(bytes, i + 1);
            let raw = src.get(key_start + 1..key_end - 1)?;
            if key_matches(raw, key) {
                return Some((key_start, i));
            }
            i = skip_ws(bytes, skip_value(bytes, i)?);
            if *bytes.get(i)? != b',' {
                return None;
            }
            i += 1;
        }
    }

    /// Finds element `index` of the array opening at `open`: its start offset.
    fn find_element(bytes: &[u8], open: usize, index: usize) -> Option<usize> {
        let mut i = skip_ws(bytes, open + 1);
        if *bytes.get(i)? == b']' {
            return None;
        }
        for _ in 0..index {
            i = skip_ws(bytes, skip_value(bytes, i)?);
            if *bytes.get(i)? != b',' {
                return None;
            }
            i = skip_ws(bytes, i + 1);
        }
        bytes.get(i).map(|_| i)
    }

    /// Whether the raw (still escaped) key text equals `key`.
    fn key_matches(raw: &str, key: &str) -> bool {
        if raw.contains('\\') {
            unescape(raw).as_deref() == Some(key)
        } else {
            raw == key
        }
    }

    /// Skips JSON whitespace.
    fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
        while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            i += 1;
        }
        i
    }

    /// Offset just past the value starting at `i`, without recursion.
    fn skip_value(bytes: &[u8], i: usize) -> Option<usize> {
        match bytes.get(i)? {
            b'"' => string_end(bytes, i),
            b'{' | b'[' => skip_container(bytes, i),
            _ => skip_scalar(bytes, i),
        }
    }

    /// Offset just past the string whose opening quote is at `i`.
    fn string_end(bytes: &[u8], i: usize) -> Option<usize> {
        let mut j = i + 1;
        loop {
            match bytes.get(j)? {
                b'"' => return Some(j + 1),
                b'\\' => j += 2,
                _ => j += 1,
            }
        }
    }

    /// Offset just past the object or array opening at `i`, counting depth
    /// in a loop so deeply nested input cannot overflow the stack.
    fn skip_container(bytes: &[u8], i: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut j = i;
        while j < bytes.len() {
            match bytes[j] {
                b'"' => {
                    j = string_end(bytes, j)?;
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(j + 1);
                    }
                }
                _ => {}
            }
            j += 1;
        }
        None
    }

    /// Offset just past a number or literal (`true`, `false`, `null`).
    fn skip_scalar(bytes: &[u8], i: usize) -> Option<usize> {
        let mut j = i;
        while let Some(b) = bytes.get(j) {
            if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r' | b'"') {
                break;
            }
            j += 1;
        }
        (j > i).then_some(j)
    }

    /// Decodes JSON string escapes; `None` on a malformed escape.
    fn unescape(raw: &str) -> Option<String> {
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            out.push(match chars.next()? {
                '"' => '"',
                '\\' => '\\',
                '/' => '/',
                'b' => '\u{8}',
                'f' => '\u{c}',
                'n' => '\n',
                'r' => '\r',
                't' => '\t',
                'u' => unicode_escape(&mut chars)?,
                _ => return None,
            });
        }
        Some(out)
    }

    /// Decodes the hex part of `\uXXXX`, joining a surrogate pair when the
    /// low half follows; lone surrogates become U+FFFD.
    fn unicode_escape(chars: &mut std::str::Chars<'_>) -> Option<char> {
        let high = read_hex(chars, 4)?;
        if !(0xD800..0xDC00).contains(&high) {
            return Some(char::from_u32(high).unwrap_or('\u{fffd}'));
        }
        let mut look = chars.clone();
        if look.next() == Some('\\')
            && look.next() == Some('u')
            && let Some(low) = read_hex(&mut look, 4).filter(|l| (0xDC00..0xE000).contains(l))
        {
            *chars = look;
            return char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
        }
        Some('\u{fffd}')
    }
}

/// YAML: a line scanner for block-style documents.
///
/// A block node is a run of lines indented at least as far as its first
/// line; its entries (or `- ` items) sit exactly at that column and anything
/// further right belongs to them. The [`yaml::Cursor`] hides lines that are
/// not structure: blank lines, comments, block scalar bodies and the
/// continuation lines of multi-line quoted scalars and flow collections.
mod yaml {
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
        let same_col_dash =
            same_col_seq && line.indent == parent_col && dash_rest(line.text).is_some();
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
}

#[cfg(test)]
mod tests {
    use super::line_of;

    /// A small OpenAPI document exercising the YAML constructs the scanner
    /// must understand. Line numbers are in the trailing comments.
    const YAML: &str = "\
%YAML 1.2
---
# comment before the root
openapi: 3.0.3
info:
  title: Pets
  version: '1.0'
  description: |
    A demo API.
    responses: this is text, not a key
paths:
  /pets:
    get:
      summary: List pets
      description: >-
        Folded text.
        responses:
          '200': fake
      parameters:
      - name: limit
        in: query
        schema:
          type: integer

      - name: offset
        in: query
      responses:
        '200':
          description: ok # trailing comment
        default:
          description: \"error\"
  '/pets/{petId}':
    get:
      parameters:
        - in: path
          name: petId
        - &trace
          name: X-Trace
          in: header
          description: 'multi-line quoted
      name: not a key'
      responses:
        \"404\": {description: missing}
x-tags: [a,
  b]
x-last: 1
";

    const JSON: &str = r#"{
  "openapi": "3.0.3",
  "info": {
    "title": "Pets",
    "version": "1.0",
    "description": "A demo API.\nresponses: not a key"
  },
  "paths": {
    "/pets": {
      "get": {
        "summary": "List pets",
        "responses": {
          "200": { "description": "ok" },
          "default": { "description": "error" }
        }
      }
    },
    "\/pets\/{petId}": {
      "get": {
        "parameters": [
          { "in": "path", "name": "petId" },
          {
            "name": "X-Trace", "in": "header"
          }
        ],
        "responses": {"404": {"description": "missing"}}
      }
    }
  },
  "x-caf\u00e9": {"a\"b": [1, 2.5e3, true, null, {"k": "v"}]},
  "x-emoji\ud83d\ude00": 7
}
"#;

    #[test]
    fn test_documents_are_valid() {
        let yaml: serde_json::Value = serde_norway::from_str(YAML).expect("yaml");
        let json: serde_json::Value = serde_json::from_str(JSON).expect("json");
        assert!(
            yaml.pointer("/paths/~1pets~1{petId}/get/parameters/1/name")
                .is_some()
        );
        assert!(yaml.pointer("/paths/~1pets/get/parameters/1/in").is_some());
        assert!(json.pointer("/x-café/a\"b/4/k").is_some());
    }

    #[test]
    fn root_is_line_one() {
        assert_eq!(line_of(YAML, ""), Some(1));
        assert_eq!(line_of(JSON, ""), Some(1));
        assert_eq!(line_of("\n\n  {\"a\": 1}", ""), Some(1));
    }

    #[test]
    fn yaml_simple_keys() {
        assert_eq!(line_of(YAML, "/openapi"), Some(4));
        assert_eq!(line_of(YAML, "/info"), Some(5));
        assert_eq!(line_of(YAML, "/info/title"), Some(6));
        assert_eq!(line_of(YAML, "/paths"), Some(11));
        assert_eq!(line_of(YAML, "/x-last"), Some(46));
    }

    #[test]
    fn yaml_sequences() {
        // Sequence at the parent key's indentation.
        assert_eq!(line_of(YAML, "/paths/~1pets/get/parameters"), Some(19));
        assert_eq!(line_of(YAML, "/paths/~1pets/get/parameters/0"), Some(20));
        assert_eq!(
            line_of(YAML, "/paths/~1pets/get/parameters/0/schema/type"),
            Some(23)
        );
        assert_eq!(
            line_of(YAML, "/paths/~1pets/get/parameters/1/name"),
            Some(25)
        );
        assert_eq!(line_of(YAML, "/paths/~1pets/get/parameters/1/in"), Some(26));
        // Indented sequence; first key on the dash line, anchor on its own.
        assert_eq!(
            line_of(YAML, "/paths/~1pets~1{petId}/get/parameters/0/in"),
            Some(35)
        );
        assert_eq!(
            line_of(YAML, "/paths/~1pets~1{petId}/get/parameters/1"),
            Some(37)
        );
        assert_eq!(
            line_of(YAML, "/paths/~1pets~1{petId}/get/parameters/1/name"),
            Some(38)
        );
        assert_eq!(
            line_of(YAML, "/paths/~1pets~1{petId}/get/parameters/1/in"),
            Some(39)
        );
    }

    #[test]
    fn yaml_block_scalars_hide_fake_keys() {
        assert_eq!(line_of(YAML, "/paths/~1pets/get/responses"), Some(27));
        assert_eq!(line_of(YAML, "/paths/~1pets/get/responses/200"), Some(28));
        assert_eq!(
            line_of(YAML, "/paths/~1pets/get/responses/200/description"),
            Some(29)
        );
        assert_eq!(
            line_of(YAML, "/paths/~1pets/get/responses/default/description"),
            Some(31)
        );
        // The fake key in a scalar never matches: the ancestor is reported.
        assert_eq!(line_of(YAML, "/info/responses"), Some(5));
        assert_eq!(
            line_of(YAML, "/paths/~1pets/get/description/responses"),
            Some(15)
        );
    }

    #[test]
    fn yaml_quoted_keys_and_multiline_scalars() {
        assert_eq!(line_of(YAML, "/paths/~1pets~1{petId}"), Some(32));
        assert_eq!(
            line_of(YAML, "/paths/~1pets~1{petId}/get/responses"),
            Some(42)
        );
        // The continuation line of a quoted scalar is not a key of `get`.
        assert_eq!(line_of(YAML, "/paths/~1pets~1{petId}/get/name"), Some(33));
        // Inside a flow mapping: the flow line itself.
        assert_eq!(
            line_of(YAML, "/paths/~1pets~1{petId}/get/responses/404/description"),
            Some(43)
        );
        // A multi-line flow collection is skipped as a whole.
        assert_eq!(line_of(YAML, "/x-tags/1"), Some(44));
    }

    #[test]
    fn yaml_fallbacks() {
        // Missing key: the deepest ancestor.
        assert_eq!(line_of(YAML, "/paths/~1pets/post/summary"), Some(12));
        assert_eq!(line_of(YAML, "/nope"), Some(1));
        // Through a scalar: that scalar's line.
        assert_eq!(line_of(YAML, "/info/title/deeper/still"), Some(6));
        // Out of range or non-numeric index, index into a mapping.
        assert_eq!(line_of(YAML, "/paths/~1pets/get/parameters/2"), Some(19));
        assert_eq!(
            line_of(YAML, "/paths/~1pets/get/parameters/99999999999999999999999"),
            Some(19)
        );
        assert_eq!(line_of(YAML, "/paths/~1pets/get/parameters/01"), Some(19));
        assert_eq!(line_of(YAML, "/paths/~1pets/get/parameters/name"), Some(19));
        assert_eq!(line_of(YAML, "/info/0"), Some(5));
        // An invalid pointer is treated as the whole document.
        assert_eq!(line_of(YAML, "info"), Some(1));
    }

    #[test]
    fn yaml_odd_layouts() {
        let nested = "a:\n- - x\n  - y\n- 'k': &v\n    deep: 1\nb: 2\n";
        assert_eq!(line_of(nested, "/a/0/1"), Some(3));
        assert_eq!(line_of(nested, "/a/1/k/deep"), Some(5));
        assert_eq!(line_of(nested, "/b"), Some(6));
        let crlf = "a:\r\n  \"x\\\"y\": 1\r\n  z: 2\r\n";
        assert_eq!(line_of(crlf, "/a/x\"y"), Some(2));
        assert_eq!(line_of(crlf, "/a/z"), Some(3));
        let docs = "a: 1\n---\nb: 2\n";
        assert_eq!(line_of(docs, "/b"), Some(1));
        let tilde = "paths:\n  /a~b/c:\n    x: 1\n";
        assert_eq!(line_of(tilde, "/paths/~1a~0b~1c/x"), Some(3));
    }

    #[test]
    fn json_paths() {
        assert_eq!(line_of(JSON, "/info/title"), Some(4));
        assert_eq!(line_of(JSON, "/paths/~1pets/get/responses/200"), Some(13));
        assert_eq!(
            line_of(JSON, "/paths/~1pets/get/responses/default/description"),
            Some(14)
        );
        assert_eq!(
            line_of(JSON, "/paths/~1pets~1{petId}/get/parameters/1/name"),
            Some(23)
        );
        assert_eq!(
            line_of(JSON, "/paths/~1pets~1{petId}/get/parameters/1"),
            Some(22)
        );
        assert_eq!(
            line_of(JSON, "/paths/~1pets~1{petId}/get/responses/404/description"),
            Some(26)
        );
    }

    #[test]
    fn json_escaped_keys() {
        assert_eq!(line_of(JSON, "/paths/~1pets~1{petId}"), Some(18));
        assert_eq!(line_of(JSON, "/x-café/a\"b/4/k"), Some(30));
        assert_eq!(line_of(JSON, "/x-emoji😀"), Some(31));
    }

    #[test]
    fn json_fallbacks() {
        assert_eq!(line_of(JSON, "/paths/~1pets/post"), Some(9));
        assert_eq!(line_of(JSON, "/info/title/x"), Some(4));
        assert_eq!(
            line_of(JSON, "/paths/~1pets~1{petId}/get/parameters/9"),
            Some(20)
        );
        assert_eq!(
            line_of(
                JSON,
                "/paths/~1pets~1{petId}/get/parameters/99999999999999999999999"
            ),
            Some(20)
        );
        assert_eq!(line_of(JSON, "/nope"), Some(1));
    }

    #[test]
    fn json_deep_nesting_is_skipped_without_recursion() {
        let depth = 200_000;
        let text = format!(
            "{{\"a\": {}{}, \n\"b\": 1}}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        assert_eq!(line_of(&text, "/b"), Some(2));
    }

    #[test]
    fn every_node_of_the_yaml_document_is_found_at_its_key() {
        let value: serde_json::Value = serde_norway::from_str(YAML).expect("yaml");
        let pretty = serde_json::to_string_pretty(&value).expect("json");
        for (pointer, key) in members(&value, String::new()) {
            for text in [YAML, pretty.as_str()] {
                let line = line_of(text, &pointer).expect("root");
                let shown = text.lines().nth(line - 1).unwrap_or_default();
                assert!(shown.contains(&key), "{pointer} -> {line}: {shown}");
            }
        }
    }

    /// Every object member below `value`: (pointer, key).
    fn members(value: &serde_json::Value, prefix: String) -> Vec<(String, String)> {
        let escape = |k: &str| k.replace('~', "~0").replace('/', "~1");
        let mut out = Vec::new();
        match value {
            serde_json::Value::Object(map) => {
                for (key, child) in map {
                    let pointer = format!("{prefix}/{}", escape(key));
                    out.push((pointer.clone(), key.clone()));
                    out.extend(members(child, pointer));
                }
            }
            serde_json::Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    out.extend(members(child, format!("{prefix}/{i}")));
                }
            }
            _ => {}
        }
        out
    }

    #[test]
    fn empty_documents_have_no_root() {
        assert_eq!(line_of("", ""), None);
        assert_eq!(line_of("  \n# only a comment\n", "/a"), None);
        assert_eq!(line_of("\u{feff}", ""), None);
    }

    #[test]
    fn malformed_input_never_panics() {
        let samples = [
            "{",
            "[1,2",
            "\"unterminated",
            "{\"a\": [1, {\"b\": }",
            "{\"a\"",
            "{\"a\\",
            "a: 'unterminated\n b: 1",
            "- - - -",
            ":",
            "-",
            "? x\n: y",
            "a: [\n",
            "a: |\n",
            "é: ü\n  ö:\n- ß",
            "a:\n\t- b",
            "\u{feff}{\"\\ud800\": 1}",
            "{\"\\u12\": 1}",
            "a: \"\\x\\u\\U1\"\n",
            "--- |\n  text\n",
            "a: &x\nb: *x\n",
        ];
        let pointers = ["", "/a", "/a/0", "/a/b/c", "/0/0/0", "/é/ö/0", "/\u{feff}"];
        for sample in samples.iter().copied().chain([YAML, JSON]) {
            let cuts = sample.char_indices().map(|(i, _)| i).chain([sample.len()]);
            for cut in cuts {
                for pointer in pointers {
                    let _ = line_of(&sample[..cut], pointer);
                }
            }
        }
        assert_eq!(line_of("{\"a\": [1, {\"b\": }", "/a/1/b/c"), Some(1));
    }
}
