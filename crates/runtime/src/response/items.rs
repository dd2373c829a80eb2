//! Sequential media types (OpenAPI 3.2's streaming responses): a body that
//! is a stream of items — JSON Lines (`application/jsonl`,
//! `application/x-ndjson`), JSON Text Sequences (`application/json-seq`,
//! `+json-seq`, RFC 7464) and Server-Sent Events (`text/event-stream`) —
//! read item by item as the bytes arrive, so each item can be reported
//! (as a progress notification) before the stream ends, and the whole
//! response becomes a JSON array of items, as the specification maps
//! sequential media types into the JSON data model.
//!
//! An event of an event stream is the object the specification's generic
//! SSE schema describes: `data` (the data lines joined with `\n`),
//! `event`, `id` (each only when the event gave it) and `retry` (an
//! integer), parsed as the WHATWG `text/event-stream` rules say
//! (comments and unknown fields ignored, one space after the colon
//! dropped, an event without data not dispatched, an unfinished event
//! at the end of the stream discarded).

use serde_json::{Map, Value};

pub use crate::wire::media::Sequence;

/// The record separator of RFC 7464.
const RS: u8 = 0x1e;

/// Reads items from a stream's bytes, fed in pieces as they arrive.
#[derive(Debug)]
pub struct ItemReader {
    kind: Sequence,
    /// Bytes of an item (or line) not complete yet.
    pending: Vec<u8>,
    /// The event being assembled (event streams).
    event: Event,
    /// Whether the stream's first bytes were seen (a BOM is dropped there).
    started: bool,
    /// Items that could not be read (not JSON), and the first reason.
    bad: usize,
    first_problem: Option<String>,
}

/// The fields of an event-stream event being assembled.
#[derive(Debug, Default)]
struct Event {
    /// The data buffer: each data line followed by `\n`.
    data: String,
    event: Option<String>,
    id: Option<String>,
    retry: Option<u64>,
}

impl ItemReader {
    /// A reader for `kind`.
    pub fn new(kind: Sequence) -> Self {
        Self {
            kind,
            pending: Vec::new(),
            event: Event::default(),
            started: false,
            bad: 0,
            first_problem: None,
        }
    }

    /// The sequence read.
    pub fn kind(&self) -> Sequence {
        self.kind
    }

    /// Feeds the next bytes; returns the items they complete, in order.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Value> {
        let mut bytes = bytes;
        if !self.started && !bytes.is_empty() {
            self.started = true;
            bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
        }
        self.pending.extend_from_slice(bytes);
        let mut out = Vec::new();
        match self.kind {
            Sequence::JsonLines => self.json_lines(false, &mut out),
            Sequence::JsonSeq => self.json_seq(false, &mut out),
            Sequence::EventStream => self.event_lines(false, &mut out),
        }
        out
    }

    /// The stream ended (completely: not cut at a size cap): the items
    /// the last bytes complete. An event stream's unfinished event is
    /// discarded, as the WHATWG rules say.
    pub fn finish(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        match self.kind {
            Sequence::JsonLines => self.json_lines(true, &mut out),
            Sequence::JsonSeq => self.json_seq(true, &mut out),
            Sequence::EventStream => self.event_lines(true, &mut out),
        }
        out
    }

    /// How many items could not be read, and why the first could not.
    pub fn problems(&self) -> Option<(usize, &str)> {
        (self.bad > 0).then(|| (self.bad, self.first_problem.as_deref().unwrap_or_default()))
    }

    fn json_item(&mut self, text: &[u8], out: &mut Vec<Value>) {
        if text.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        match serde_json::from_slice::<Value>(text) {
            Ok(v) => out.push(v),
            Err(e) => {
                self.bad += 1;
                self.first_problem
                    .get_or_insert_with(|| format!("item {} is not JSON ({e})", out.len() + 1));
            }
        }
    }

    /// One JSON value per `\n`-terminated line (a `\r` before it is
    /// whitespace); blank lines skipped; the last line, unterminated, only
    /// at the end.
    fn json_lines(&mut self, end: bool, out: &mut Vec<Value>) {
        let mut start = 0;
        let pending = std::mem::take(&mut self.pending);
        while let Some(at) = pending[start..].iter().position(|b| *b == b'\n') {
            self.json_item(&pending[start..start + at], out);
            start += at + 1;
        }
        if end {
            self.json_item(&pending[start..], out);
        } else {
            self.pending = pending[start..].to_vec();
        }
    }

    /// Records after each record separator; a record is complete at the
    /// next separator, or once it ends in `\n` and parses (how RFC 7464
    /// writers end one), or at the end.
    fn json_seq(&mut self, end: bool, out: &mut Vec<Value>) {
        let pending = std::mem::take(&mut self.pending);
        let mut records: Vec<&[u8]> = pending.split(|b| *b == RS).collect();
        let last = records.pop().unwrap_or_default();
        for record in records {
            self.json_item(record, out);
        }
        let complete = end
            || (last.ends_with(b"\n")
                && !last.iter().all(u8::is_ascii_whitespace)
                && serde_json::from_slice::<Value>(last).is_ok());
        if complete {
            self.json_item(last, out);
        } else {
            self.pending = last.to_vec();
        }
    }

    /// Event-stream lines (ended by CRLF, LF or CR), dispatching an event
    /// at each blank line.
    fn event_lines(&mut self, end: bool, out: &mut Vec<Value>) {
        let pending = std::mem::take(&mut self.pending);
        let mut start = 0;
        while let Some(at) = pending[start..]
            .iter()
            .position(|b| *b == b'\n' || *b == b'\r')
        {
            let line_end = start + at;
            let mut next = line_end + 1;
            if pending[line_end] == b'\r' {
                match pending.get(next) {
                    Some(b'\n') => next += 1,
                    Some(_) => {}
                    // A CR last: its LF may be in the next piece.
                    None if !end => break,
                    None => {}
                }
            }
            let line = String::from_utf8_lossy(&pending[start..line_end]).into_owned();
            self.event_line(&line, out);
            start = next;
        }
        if !end {
            self.pending = pending[start..].to_vec();
        }
    }

    fn event_line(&mut self, line: &str, out: &mut Vec<Value>) {
        if line.is_empty() {
            let event = std::mem::take(&mut self.event);
            if let Some(item) = event.item() {
                out.push(item);
            }
            return;
        }
        if line.starts_with(':') {
            return; // a comment
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "data" => {
                self.event.data.push_str(value);
                self.event.data.push('\n');
            }
            "event" => self.event.event = Some(value.to_string()),
            "id" if !value.contains('\0') => self.event.id = Some(value.to_string()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.event.retry = value.parse().ok();
            }
            _ => {}
        }
    }
}

impl Event {
    /// The dispatched item: `None` when no data line came (the WHATWG
    /// rules dispatch nothing then); the data's last `\n` dropped.
    fn item(self) -> Option<Value> {
        let mut data = self.data;
        if data.is_empty() {
            return None;
        }
        data.pop();
        let mut item = Map::new();
        item.insert("data".into(), Value::String(data));
        if let Some(event) = self.event {
            item.insert("event".into(), Value::String(event));
        }
        if let Some(id) = self.id {
            item.insert("id".into(), Value::String(id));
        }
        if let Some(retry) = self.retry {
            item.insert("retry".into(), Value::from(retry));
        }
        Some(Value::Object(item))
    }
}

#[cfg(test)]
#[path = "items_tests.rs"]
mod tests;
