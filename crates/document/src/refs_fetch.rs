//! The other files a document pulls in: which `$ref`s point outside it
//! (a byte scan first, a walk only when needed), whether the remote policy
//! lets them be followed, and reading each one (files and http(s) URLs,
//! bounded) exactly once.

use std::collections::VecDeque;

use serde_json::Value;
use url::Url;

use super::diag::Diagnostic;
use super::http::{FetchError, HttpClient};
use super::load::{LoadOptions, self_of};

/// Whether a JSON text certainly has no `$ref` to another file: every
/// `"$ref"` key holds a string starting with `#`. Conservative: YAML, an
/// escaped `$` or `#`, or any odd spacing answers `false`, and the caller
/// walks the parsed document instead. A byte scan of GitHub's 13 MB takes
/// a few milliseconds; the walk took forty.
pub(super) fn only_local_refs(text: &str) -> bool {
    let json = text.trim_start_matches('\u{feff}').trim_start();
    if !json.starts_with('{') || memchr::memmem::find(json.as_bytes(), b"\\u0024").is_some() {
        return false;
    }
    let key = b"\"$ref\"";
    memchr::memmem::find_iter(json.as_bytes(), key).all(|at| {
        // The key's text ends on an ASCII quote: a character boundary.
        let after = json[at + key.len()..].trim_start();
        match after.strip_prefix(':') {
            Some(value) => value.trim_start().starts_with("\"#"),
            // `"$ref"` as a value or inside a string: not a key here.
            None => true,
        }
    })
}

/// Finds `$ref`s to other files and queues them, enforcing the remote policy.
///
/// Walks every node of the file (13 MB for GitHub), so it builds no
/// JSON pointer unless a reference to another file is found.
pub(super) fn enqueue_external_refs(
    base: &Url,
    value: &Value,
    display: &str,
    options: &LoadOptions,
    queue: &mut VecDeque<(Url, String)>,
    warnings: &mut Vec<Diagnostic>,
) {
    let self_base = self_of(base.as_str(), value).and_then(|s| Url::parse(&s).ok());
    let mut walk = RefWalk {
        base,
        self_base: self_base.as_ref(),
        display,
        options,
        queue,
        warnings,
        path: Vec::new(),
    };
    walk.visit(value);
}

/// One step of a path from the root: a member name or an array index.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

struct RefWalk<'a, 'q> {
    base: &'q Url,
    /// The file's `$self`, when it declares one: a reference that
    /// resolves against it to the file itself is local.
    self_base: Option<&'q Url>,
    display: &'q str,
    options: &'q LoadOptions,
    queue: &'q mut VecDeque<(Url, String)>,
    warnings: &'q mut Vec<Diagnostic>,
    path: Vec<Step<'a>>,
}

impl<'a> RefWalk<'a, '_> {
    /// Deeper than any parser here produces (serde_json stops at 128).
    const MAX_DEPTH: usize = 1024;

    /// Whether `reference` resolves, against the file's `$self`, to the
    /// file itself (`https://example.com/api/openapi#/components/…`).
    fn names_itself(&self, reference: &str) -> bool {
        let Some(base) = self.self_base else {
            return false;
        };
        let file_part = reference.split('#').next().unwrap_or_default();
        base.join(file_part).is_ok_and(|mut u| {
            u.set_fragment(None);
            u == *base
        })
    }

    fn visit(&mut self, v: &'a Value) {
        if self.path.len() > Self::MAX_DEPTH {
            return;
        }
        match v {
            Value::Object(map) => {
                if let Some(Value::String(r)) = map.get("$ref")
                    && !r.starts_with('#')
                    && !self.names_itself(r)
                {
                    let pointer = self.pointer();
                    if let Some(url) = external_target(
                        self.base,
                        r,
                        &pointer,
                        self.display,
                        self.options,
                        self.warnings,
                    ) {
                        self.queue.push_back((url, self.display.to_string()));
                    }
                }
                for (k, child) in map {
                    if k != "$ref" && (child.is_object() || child.is_array()) {
                        self.path.push(Step::Key(k));
                        self.visit(child);
                        self.path.pop();
                    }
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    if child.is_object() || child.is_array() {
                        self.path.push(Step::Index(i));
                        self.visit(child);
                        self.path.pop();
                    }
                }
            }
            _ => {}
        }
    }

    fn pointer(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            match step {
                Step::Key(k) => out = super::diag::push_token(&out, k),
                Step::Index(i) => out.push_str(&format!("/{i}")),
            }
        }
        out
    }
}

/// The file a `$ref` points into, if it is not local (`#…`) to this file.
fn external_target(
    base: &Url,
    reference: &str,
    pointer: &str,
    display: &str,
    options: &LoadOptions,
    warnings: &mut Vec<Diagnostic>,
) -> Option<Url> {
    if reference.starts_with('#') {
        return None;
    }
    let file_part = reference.split('#').next().unwrap_or_default();
    let absolute = file_part.contains("://");
    let url = match base.join(file_part) {
        Ok(u) => u,
        Err(e) => {
            warnings.push(Diagnostic::warning(
                display,
                format!("{pointer}/$ref"),
                format!("cannot resolve reference `{reference}`: {e}"),
            ));
            return None;
        }
    };
    let remote = matches!(url.scheme(), "http" | "https");
    if base.scheme() != "file" && url.scheme() == "file" {
        warnings.push(Diagnostic::warning(
            display,
            format!("{pointer}/$ref"),
            format!("reference `{reference}` from a remote document to a local file is refused"),
        ));
        return None;
    }
    if remote && absolute && !options.allow_remote_refs {
        warnings.push(Diagnostic::warning(
            display,
            format!("{pointer}/$ref"),
            format!(
                "remote reference `{reference}` not followed; pass --allow-remote-refs to fetch it"
            ),
        ));
        return None;
    }
    Some(url)
}

/// A `$ref` may name only a regular file (or a symlink to one): reading a
/// named pipe or a device such as `/dev/stdin` or `/dev/zero` would block
/// or never end. (The root document may be a pipe, as in `<(curl …)`.)
/// A missing file is left for the read to report.
pub(super) fn regular_file(url: &Url, display: &str) -> Result<(), Diagnostic> {
    let Some(path) = (url.scheme() == "file")
        .then(|| url.to_file_path().ok())
        .flatten()
    else {
        return Ok(());
    };
    match std::fs::metadata(&path) {
        Ok(meta) if !meta.is_file() => Err(Diagnostic::error(
            display,
            "",
            "not a regular file (a directory, device or named pipe), so it is not read",
        )),
        _ => Ok(()),
    }
}

/// Reads files and URLs (one HTTP client, made on first use).
pub(super) struct Fetcher<'a> {
    options: &'a LoadOptions,
    client: Option<Box<dyn HttpClient>>,
}

/// Asks the kernel to back `buffer`'s spare capacity with huge pages
/// (transparent huge pages, Linux's `madvise` mode) when it is large: the
/// text of a large document is written once by `read` into fresh memory,
/// and faulting it in 4 kB at a time (3,200 faults for GitHub's 13 MB,
/// 5,000 for Graph's 20 MB) cost a third of reading it. Only whole 2 MB
/// pages inside the buffer are advised; where the kernel or the memory does
/// not allow it, nothing changes. A trade measured (bench/README, round 5):
/// on this virtual machine 1 read in 6 took 20–40 ms instead of 5 (fresh
/// 2 MB pages backed late by the host), so the mean read is about the
/// same as without (Graph 11.4 vs 10.3 ms, GitHub 6.0 vs 6.4 ms) while the
/// median is half (5.3 vs 10.3, 3.2 vs 6.3).
fn advise_huge_pages(buffer: &mut Vec<u8>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let spare = buffer.spare_capacity_mut();
        if spare.len() < 2 * HUGE {
            return;
        }
        let start = spare.as_mut_ptr() as usize;
        let first = start.next_multiple_of(HUGE);
        let end = (start + spare.len()) / HUGE * HUGE;
        if end > first {
            // SAFETY: `first..end` lies within memory this vector owns and
            // has not handed out; MADV_HUGEPAGE changes only how the
            // kernel backs it, never its contents or its mapping.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buffer;
}

impl<'a> Fetcher<'a> {
    pub(super) fn new(options: &'a LoadOptions) -> Self {
        Self {
            options,
            client: None,
        }
    }

    pub(super) fn read(&mut self, url: &Url, display: &str) -> Result<String, Diagnostic> {
        if url.scheme() == "file" {
            let path = url
                .to_file_path()
                .map_err(|()| Diagnostic::error(display, "", "invalid file URL"))?;
            return self.read_file(&path, display);
        }
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Diagnostic::error(
                display,
                "",
                format!("unsupported URL scheme `{}`", url.scheme()),
            ));
        }
        self.fetch(url, display)
    }

    /// A local file, read up to [`LoadOptions::max_document_bytes`]: a
    /// device or pipe that never ends (`/dev/zero`, a FIFO fed forever)
    /// stops at the limit instead of filling memory.
    fn read_file(&self, path: &std::path::Path, display: &str) -> Result<String, Diagnostic> {
        let fail = |what: String| Diagnostic::error(display, "", what);
        let limit = self.options.max_document_bytes;
        let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot read file: {e}")))?;
        // Sized from the file's length (a device or pipe says 0 and grows
        // as it is read): growing by doubling copied a large document
        // about twice and held half as much again at its peak.
        let known = file.metadata().map_or(0, |m| m.len()).min(limit);
        let mut body = Vec::with_capacity(usize::try_from(known).unwrap_or(0).saturating_add(1));
        advise_huge_pages(&mut body);
        std::io::Read::read_to_end(
            &mut std::io::Read::take(file, limit.saturating_add(1)),
            &mut body,
        )
        .map_err(|e| fail(format!("cannot read file: {e}")))?;
        if body.len() as u64 > limit {
            return Err(fail(format!(
                "the file is larger than the limit of {limit} bytes (--max-document-bytes); reading stopped there"
            )));
        }
        String::from_utf8(body).map_err(|e| fail(format!("the file is not UTF-8 text: {e}")))
    }

    /// One http(s) URL, through the caller's client (see [`crate::http`]),
    /// whole within [`LoadOptions::http_timeout`] (from sending the
    /// request to the end of the body: a server dripping a byte a second
    /// is cut off there, not after one read timeout per byte) and
    /// [`LoadOptions::max_document_bytes`].
    fn fetch(&mut self, url: &Url, display: &str) -> Result<String, Diagnostic> {
        let fail = |what: String| Diagnostic::error(display, "", what);
        let deadline = self.options.http_timeout;
        let limit = self.options.max_document_bytes;
        if self.client.is_none() {
            let Some(http) = &self.options.http else {
                return Err(fail(
                    "this program reads no http(s) URLs: it was built without an HTTP client (LoadOptions::http)"
                        .to_string(),
                ));
            };
            let client = http
                .client(deadline)
                .map_err(|e| fail(format!("cannot create HTTP client: {e}")))?;
            self.client = Some(client);
        }
        let client = self.client.as_mut().expect("client was just set");
        let body = client.get(url, deadline, limit).map_err(|e| {
            fail(match e {
                FetchError::Late => fetch_deadline_message(deadline),
                FetchError::TooLarge => format!(
                    "the document at this URL is larger than the limit of {limit} bytes (--max-document-bytes); reading stopped there"
                ),
                FetchError::Status(status) => {
                    format!("fetching the document returned HTTP {status}")
                }
                FetchError::Failed(why) => why,
            })
        })?;
        String::from_utf8(body)
            .map_err(|e| fail(format!("the response body is not UTF-8 text: {e}")))
    }
}

/// What a fetch that passed its deadline says: the limit and how to
/// change it (the URL is the diagnostic's file, without credentials).
fn fetch_deadline_message(limit: std::time::Duration) -> String {
    format!(
        "the fetch did not finish within the limit of {} seconds (--fetch-timeout, OPENAPI2MCP_FETCH_TIMEOUT); the server is too slow or never ends its answer",
        limit.as_secs_f64()
    )
}

#[cfg(test)]
mod local_ref_tests {
    use super::only_local_refs;

    #[test]
    fn only_certainly_local_documents_skip_the_walk() {
        assert!(only_local_refs(
            r##"{"a": {"$ref": "#/x"}, "b": {"$ref" : "#/y"}}"##
        ));
        assert!(only_local_refs(r#"{"description": "no refs"}"#));
        assert!(!only_local_refs(r##"{"a": {"$ref": "other.json#/x"}}"##));
        assert!(!only_local_refs(
            r#"{"a": {"$ref": "https://example.com/s.json"}}"#
        ));
        assert!(!only_local_refs(r##"{"a": {"\u0024ref": "other.json"}}"##));
        assert!(!only_local_refs(r##"{"a": {"$ref": "\u0023/x"}}"##));
        assert!(!only_local_refs("openapi: 3.0.0\n"));
        // "$ref" as a value is not a reference.
        assert!(only_local_refs(r#"{"name": "$ref", "x": ["$ref"]}"#));
    }
}

#[cfg(test)]
mod read_tests {
    use super::*;

    /// A file is read into a buffer of its own size: no doubling (which
    /// copies a large document twice and holds up to twice its size).
    #[test]
    fn a_file_is_read_into_a_buffer_of_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("doc.json");
        let text = format!("{{\"x\": \"{}\"}}", "a".repeat(300_000));
        std::fs::write(&path, &text).unwrap();
        let options = LoadOptions::default();
        let fetcher = Fetcher::new(&options);
        let read = fetcher.read_file(&path, "doc.json").unwrap();
        assert_eq!(read, text);
        assert!(
            read.capacity() <= text.len() + 1,
            "{} bytes held for {}",
            read.capacity(),
            text.len()
        );
    }

    /// A large document's buffer is advised to be backed by huge pages
    /// (the mapping holding it says `hg` in `/proc/self/smaps`) and reads
    /// back exactly; a small one is left alone.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_buffer_asks_for_huge_pages() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.json");
        let text = format!("{{\"x\": \"{}\"}}", "ab".repeat(5 << 20));
        std::fs::write(&path, &text).unwrap();
        let options = LoadOptions::default();
        let read = Fetcher::new(&options).read_file(&path, "big.json").unwrap();
        assert_eq!(read, text);
        // A kernel built without transparent huge pages refuses the advice.
        let thp = std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists();
        let flags = vm_flags_at(read.as_ptr() as usize + read.len() / 2);
        assert_eq!(flags.split_whitespace().any(|f| f == "hg"), thp, "{flags}");
        let mut small: Vec<u8> = Vec::with_capacity(100_000);
        advise_huge_pages(&mut small);
        let flags = vm_flags_at(small.as_ptr() as usize);
        assert!(!flags.split_whitespace().any(|f| f == "hg"), "{flags}");
    }

    /// The `VmFlags` of the mapping of this process that holds `address`.
    #[cfg(target_os = "linux")]
    fn vm_flags_at(address: usize) -> String {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().unwrap_or("");
            if let Some((a, b)) = range.split_once('-')
                && let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
            {
                inside = (a..b).contains(&address);
            } else if inside && let Some(flags) = line.strip_prefix("VmFlags:") {
                return flags.to_string();
            }
        }
        panic!("no mapping holds {address:#x}");
    }

    /// The limit still holds for a file that says it is smaller.
    #[test]
    fn the_limit_holds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("doc.json");
        std::fs::write(&path, "x".repeat(2000)).unwrap();
        let options = LoadOptions {
            max_document_bytes: 1000,
            ..LoadOptions::default()
        };
        let err = Fetcher::new(&options)
            .read_file(&path, "doc.json")
            .unwrap_err();
        assert!(
            err.message.contains("larger than the limit"),
            "{}",
            err.message
        );
    }
}
