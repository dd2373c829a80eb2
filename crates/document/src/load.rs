//! Loading a document: read a file or URL, sniff JSON or YAML, detect the
//! OpenAPI version, upgrade Swagger 2.0, and pull in every file that a
//! `$ref` points at, so later stages never touch the file system or network.

use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

use serde_json::Value;
use url::Url;

use super::diag::Diagnostic;
use super::lazy::LazyMap;
use super::overlay::Overlay;
use super::parse::{LazySpans, Prune, parse_document, parse_document_lazy, parse_text};
use super::refs_fetch::{Fetcher, enqueue_external_refs, only_local_refs, regular_file};
use super::{locate, swagger2};

/// Which OpenAPI version a document declared (before any upgrade).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SpecVersion {
    /// Swagger 2.0, upgraded to the 3.0 shape on load.
    Swagger2,
    /// OpenAPI 3.0.x: schemas use the 3.0 dialect (`nullable`, boolean exclusive bounds).
    OpenApi30,
    /// OpenAPI 3.1.x: schemas are JSON Schema 2020-12 already.
    OpenApi31,
}

/// How a document may be loaded.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Follow `$ref`s to absolute `http(s)://` URLs. Off by default: a
    /// document should not make us fetch arbitrary hosts.
    pub allow_remote_refs: bool,
    /// The longest one HTTP fetch (the document, an overlay, a remote
    /// `$ref`) may take, whole: from sending the request to the last byte
    /// of the body. A server that drips its answer is cut off here.
    pub http_timeout: Duration,
    /// Keep the source text of each file in memory so diagnostics can name
    /// lines. Off by default: local files are re-read when a diagnostic is
    /// located, which keeps a 13 MB document's text out of the peak.
    pub keep_sources: bool,
    /// Keep what only examples need: `components.examples` of the root
    /// document. Tools never read it; the mock backend does.
    pub keep_examples: bool,
    /// OpenAPI Overlay documents (paths or URLs) applied, in order, to the
    /// root document as read, before anything else (see [`super::overlay`]).
    pub overlays: Vec<String>,
    /// The most bytes read from one URL (the document, an overlay, a
    /// remote `$ref`): a longer answer, or an endless one, is refused the
    /// moment it passes this, not after it was all buffered.
    pub max_document_bytes: u64,
    /// The HTTP client http(s) URLs are read with (see [`crate::http`]);
    /// `None` (the default): only files are read, and a URL is an error
    /// saying so. The `openapi2mcp` program sets reqwest's.
    pub http: Option<std::sync::Arc<dyn crate::http::Http>>,
}

/// Default of [`LoadOptions::http_timeout`]: 30 seconds for one fetch.
pub const DEFAULT_FETCH_TIMEOUT: Duration = Duration::from_secs(30);

/// Default of [`LoadOptions::max_document_bytes`]: 64 MiB, five times
/// the largest real document we know (Microsoft Graph's).
pub const DEFAULT_MAX_DOCUMENT_BYTES: u64 = 64 << 20;

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            allow_remote_refs: false,
            http_timeout: DEFAULT_FETCH_TIMEOUT,
            keep_sources: false,
            keep_examples: true,
            overlays: Vec::new(),
            max_document_bytes: DEFAULT_MAX_DOCUMENT_BYTES,
            http: None,
        }
    }
}

/// One loaded file: its parsed content and (optionally) its text.
#[derive(Debug)]
struct File {
    display: String,
    value: Value,
    source: Option<String>,
    /// The root's `paths` as text (its place in `value` holds an empty
    /// object); see [`super::lazy`].
    paths: Option<LazyMap>,
    /// The root's kinds of `components` kept as text (each one's place in
    /// `value` holds an empty object), by kind.
    components: Vec<(String, LazyMap)>,
}

/// A loaded OpenAPI document and every file its `$ref`s reach, keyed by URL.
///
/// The root is always in the 3.0/3.1 shape (Swagger 2.0 is upgraded).
#[derive(Debug)]
pub struct Document {
    /// The version the root document declared.
    pub version: SpecVersion,
    root: String,
    files: BTreeMap<String, File>,
    /// OpenAPI 3.2 `$self`: each file's self-assigned URI (resolved
    /// against where it was read, without a fragment) to its key. A
    /// reference is resolved against its file's `$self` and finds the
    /// file that calls itself so (see [`Document::ref_target`]).
    selves: BTreeMap<String, String>,
    /// How diagnostics name the files that could not be read (a remote
    /// `$ref` that failed): their keys are URLs that may carry the root's
    /// credentials.
    unread: BTreeMap<String, String>,
}

impl Document {
    /// Key (URL) of the root document; pass it to [`Document::file`].
    pub fn root_key(&self) -> &str {
        &self.root
    }

    /// The root document's parsed value. Raw document access: above the
    /// document layer, read the operation model ([`super::model`]).
    pub(crate) fn root(&self) -> &Value {
        &self.files[&self.root].value
    }

    /// The parsed value of the file with key `key`, if loaded (raw
    /// document access, as [`Document::root`]). The root's `paths` may be
    /// text: read it through [`Document::lazy_paths`].
    pub(crate) fn file(&self, key: &str) -> Option<&Value> {
        self.files.get(key).map(|f| &f.value)
    }

    /// The root's `paths`, when kept as text (see [`super::lazy`]).
    pub(crate) fn lazy_paths(&self) -> Option<&LazyMap> {
        self.files[&self.root].paths.as_ref()
    }

    /// The root's `components` of kind `kind` (`schemas`, …), when kept
    /// as text (see [`super::lazy`]).
    pub(crate) fn lazy_components(&self, kind: &str) -> Option<&LazyMap> {
        self.files[&self.root]
            .components
            .iter()
            .find(|(k, _)| k == kind)
            .map(|(_, map)| map)
    }

    /// The base URI of file `key` for its relative references: its
    /// `$self` (OpenAPI 3.2), resolved against where it was read, when it
    /// declares one.
    pub(crate) fn self_uri(&self, key: &str) -> Option<&str> {
        self.selves
            .iter()
            .find(|(_, file)| file.as_str() == key)
            .map(|(uri, _)| uri.as_str())
    }

    /// The key of the file whose `$self` is `uri` (without a fragment).
    pub(crate) fn file_called(&self, uri: &str) -> Option<&str> {
        self.selves.get(uri).map(String::as_str)
    }

    /// The stored key equal to `key`, borrowed from the document.
    pub(crate) fn file_key(&self, key: &str) -> Option<&str> {
        self.files.get_key_value(key).map(|(k, _)| k.as_str())
    }

    /// How to name the file `key` to a user (the path or URL as given).
    pub fn display_name<'a>(&'a self, key: &'a str) -> &'a str {
        match self.files.get(key) {
            Some(f) => f.display.as_str(),
            None => self.unread.get(key).map_or(key, String::as_str),
        }
    }

    /// Fills in the `line` of each diagnostic, from the kept source text or
    /// by reading a local file again.
    pub fn locate(&self, diags: &mut [Diagnostic]) {
        let mut reread: BTreeMap<&str, Option<String>> = BTreeMap::new();
        for d in diags.iter_mut().filter(|d| d.line.is_none()) {
            let Some((key, file)) = self.files.iter().find(|(_, f)| f.display == d.file) else {
                continue;
            };
            let src = match &file.source {
                Some(s) => Some(s.as_str()),
                None => reread
                    .entry(key.as_str())
                    .or_insert_with(|| {
                        let path = Url::parse(key).ok()?.to_file_path().ok()?;
                        std::fs::read_to_string(path).ok()
                    })
                    .as_deref(),
            };
            if let Some(src) = src {
                d.line = locate::line_of(src, &d.pointer);
            }
        }
    }

    /// The root document as compact JSON text, for serving it whole (the
    /// document resource).
    pub fn to_json(&self) -> Option<String> {
        let file = &self.files[&self.root];
        if file.paths.is_none() && file.components.is_empty() {
            return serde_json::to_string(&file.value).ok();
        }
        // The root as parsed, what is kept as text written from its text.
        serde_json::to_string(&WithLazy(file)).ok()
    }

    /// Drops the kept source texts (they can be large).
    pub fn drop_sources(&mut self) {
        for f in self.files.values_mut() {
            f.source = None;
        }
    }

    /// Builds a document from an in-memory value (tests, embedded specs).
    pub fn from_value(name: &str, value: Value) -> Result<Self, Diagnostic> {
        let mut warnings = Vec::new();
        let (version, value) = normalize(name, value, &mut warnings)?;
        let key = format!("mem:{name}");
        let mut files = BTreeMap::new();
        files.insert(
            key.clone(),
            File {
                display: name.to_string(),
                value,
                source: None,
                paths: None,
                components: Vec::new(),
            },
        );
        let selves = self_of(&key, &files[&key].value)
            .map(|uri| (uri, key.clone()))
            .into_iter()
            .collect();
        Ok(Self {
            version,
            root: key,
            files,
            selves,
            unread: BTreeMap::new(),
        })
    }
}

/// Loads `location` (a file path or an `http(s)://` URL) and every file
/// reachable through `$ref`. Returns the document and non-fatal warnings.
pub fn load(
    location: &str,
    options: &LoadOptions,
) -> Result<(Document, Vec<Diagnostic>), Diagnostic> {
    let mut fetcher = Fetcher::new(options);
    let root_url = location_to_url(location)?;
    let root_key = root_url.to_string();
    let mut warnings = Vec::new();
    // What diagnostics call the document: a URL without its credentials.
    let location = &shown_location(location);

    // Shared with the objects kept as text (see `super::lazy`).
    let text = std::sync::Arc::new(fetcher.read(&root_url, location)?);
    let prune = Prune {
        examples: !options.keep_examples,
    };
    // `paths` stays text (see `super::lazy`) in an OpenAPI 3 JSON document
    // read as it is: an overlay, a Swagger 2.0 upgrade or a reference to
    // another file needs the whole tree.
    let (mut value, spans) = if options.overlays.is_empty() {
        parse_document_lazy(&text, location, prune)?
    } else {
        (
            parse_document(&text, location, prune)?,
            LazySpans::default(),
        )
    };
    // One scan of the whole text, read twice below.
    let local_refs_only = only_local_refs(&text);
    let spans = if spans.is_empty() || (is_openapi3(&value) && local_refs_only) {
        spans
    } else {
        put_lazy(&mut value, &text, spans);
        LazySpans::default()
    };
    for overlay in &options.overlays {
        let url = location_to_url(overlay)?;
        let overlay = &shown_location(overlay);
        let overlay_text = fetcher.read(&url, overlay)?;
        let overlay = Overlay::parse(&overlay_text, overlay)?;
        warnings.extend(overlay.apply(&mut value)?);
    }
    let (version, value) = normalize(location, value, &mut warnings)?;

    let mut files = BTreeMap::new();
    let mut queue = VecDeque::new();
    // An overlay may add a `$ref` the text does not have.
    if !options.overlays.is_empty() || !local_refs_only {
        enqueue_external_refs(
            &root_url,
            &value,
            location,
            options,
            &mut queue,
            &mut warnings,
        );
    }
    let paths = spans.paths.map(|spans| LazyMap::paths(&text, spans));
    let components = spans
        .components
        .into_iter()
        .map(|(kind, spans)| (kind, LazyMap::components(&text, spans)))
        .collect();
    let source = options
        .keep_sources
        .then(|| std::sync::Arc::unwrap_or_clone(text));
    files.insert(
        root_key.clone(),
        File {
            display: location.to_string(),
            value,
            source,
            paths,
            components,
        },
    );

    let mut unread = BTreeMap::new();
    while let Some((url, referrer)) = queue.pop_front() {
        let key = url.to_string();
        if files.contains_key(&key) {
            continue;
        }
        let display = display_for(&url);
        let loaded = regular_file(&url, &display)
            .and_then(|()| fetcher.read(&url, &display))
            .and_then(|text| parse_text(&text, &display).map(|v| (text, v)));
        let (text, mut value) = match loaded {
            Ok(x) => x,
            Err(mut d) => {
                unread.insert(key, display);
                d.message = format!("{} (referenced from {referrer})", d.message);
                d.severity = super::diag::Severity::Warning;
                warnings.push(d);
                continue;
            }
        };
        if version == SpecVersion::Swagger2 && value.get("swagger").is_some() {
            value = swagger2::upgrade(value, &display, &mut warnings);
        }
        enqueue_external_refs(&url, &value, &display, options, &mut queue, &mut warnings);
        files.insert(
            key,
            File {
                display,
                value,
                source: options.keep_sources.then_some(text),
                paths: None,
                components: Vec::new(),
            },
        );
    }

    let selves = files
        .iter()
        .filter_map(|(key, file)| Some((self_of(key, &file.value)?, key.clone())))
        .collect();
    let doc = Document {
        version,
        root: root_key,
        files,
        selves,
        unread,
    };
    doc.locate(&mut warnings);
    Ok((doc, warnings))
}

/// A file's `$self` (OpenAPI 3.2), resolved against its key (where it
/// was read), without a fragment; `None` without one or when it is not a
/// URI reference.
pub(super) fn self_of(key: &str, value: &Value) -> Option<String> {
    let written = value.get("$self")?.as_str()?;
    let mut uri = match Url::parse(key) {
        Ok(base) => base.join(written).ok()?,
        Err(_) => Url::parse(written).ok()?,
    };
    uri.set_fragment(None);
    Some(uri.to_string())
}

/// Whether a root declares OpenAPI 3 (and not Swagger 2.0), as
/// [`normalize`] reads it.
fn is_openapi3(root: &Value) -> bool {
    if root.get("swagger").is_some() {
        return false;
    }
    match root.get("openapi") {
        Some(Value::String(v)) => v.trim().starts_with("3."),
        Some(Value::Number(n)) => n.to_string().starts_with("3."),
        _ => false,
    }
}

/// Parses what `spans` left as text back into the root's tree: an
/// overlay, a Swagger 2.0 upgrade or a reference to another file needs
/// the whole tree.
fn put_lazy(root: &mut Value, text: &std::sync::Arc<String>, spans: LazySpans) {
    if let Some(paths) = spans.paths {
        put_paths(root, text, paths);
    }
    for (kind, members) in spans.components {
        let members = LazyMap::components(text, members);
        let map: serde_json::Map<String, Value> = (0..members.len())
            .map(|at| (members.key(at).to_string(), members.parse(at)))
            .collect();
        if let Some(Value::Object(components)) = root.get_mut("components") {
            components.insert(kind, Value::Object(map));
        }
    }
}

/// Parses the path items at `spans` of `text` into the root's `paths`
/// (in parallel when large, as [`parse_document`] does).
fn put_paths(
    root: &mut Value,
    text: &std::sync::Arc<String>,
    spans: Vec<(String, std::ops::Range<usize>)>,
) {
    let paths = LazyMap::paths(text, spans);
    let parse = |run: &[usize]| -> Vec<Value> { run.iter().map(|&at| paths.parse(at)).collect() };
    let all: Vec<usize> = (0..paths.len()).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    let items: Vec<Value> = if threads == 1 || paths.len() < 64 {
        parse(&all)
    } else {
        let runs = super::parse::runs_by_bytes(&all, |&at| paths.text_len(at), threads);
        super::parse::on_every_core(&runs, parse)
            .into_iter()
            .flatten()
            .collect()
    };
    let map: serde_json::Map<String, Value> = items
        .into_iter()
        .enumerate()
        .map(|(at, item)| (paths.key(at).to_string(), item))
        .collect();
    if let Value::Object(root) = root {
        root.insert("paths".to_string(), Value::Object(map));
    }
}

/// A root file written out with what it keeps as text in place: its
/// `paths` and the kinds of its `components` kept as text.
struct WithLazy<'a>(&'a File);

impl serde::Serialize for WithLazy<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let file = self.0;
        let Value::Object(root) = &file.value else {
            return serde::Serialize::serialize(&file.value, serializer);
        };
        let mut map = serializer.serialize_map(Some(root.len()))?;
        for (key, value) in root {
            match (key.as_str(), value, &file.paths) {
                ("paths", _, Some(paths)) => map.serialize_entry(key, paths)?,
                ("components", Value::Object(components), _) if !file.components.is_empty() => {
                    map.serialize_entry(key, &Components(components, &file.components))?
                }
                _ => map.serialize_entry(key, value)?,
            }
        }
        map.end()
    }
}

/// `components` with its kinds kept as text written in their places.
struct Components<'a>(&'a serde_json::Map<String, Value>, &'a [(String, LazyMap)]);

impl serde::Serialize for Components<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            match self.1.iter().find(|(kind, _)| kind == key) {
                Some((_, lazy)) => map.serialize_entry(key, lazy)?,
                None => map.serialize_entry(key, value)?,
            }
        }
        map.end()
    }
}

/// Checks the version field, upgrading Swagger 2.0.
fn normalize(
    file: &str,
    mut value: Value,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(SpecVersion, Value), Diagnostic> {
    if !value.is_object() {
        return Err(Diagnostic::error(
            file,
            "",
            "not an OpenAPI document: the top level must be a mapping",
        ));
    }
    coerce_string_fields(&mut value);
    let version = detect_version(file, &value)?;
    if version == SpecVersion::Swagger2 {
        value = swagger2::upgrade(value, file, warnings);
    }
    match value.get("paths") {
        Some(Value::Object(_)) => {}
        None if version == SpecVersion::OpenApi31 => {} // 3.1 allows webhooks/components only
        Some(_) => {
            return Err(Diagnostic::error(
                file,
                "/paths",
                "`paths` must be a mapping",
            ));
        }
        None => {
            return Err(Diagnostic::error(
                file,
                "",
                "the document has no `paths` (required in OpenAPI 2.0 and 3.0)",
            ));
        }
    }
    Ok((version, value))
}

fn detect_version(file: &str, value: &Value) -> Result<SpecVersion, Diagnostic> {
    if let Some(v) = value.get("openapi") {
        let s = v.as_str().unwrap_or_default();
        return if s.starts_with("3.0") {
            Ok(SpecVersion::OpenApi30)
        } else if s.starts_with("3.1") || s.starts_with("3.2") {
            Ok(SpecVersion::OpenApi31)
        } else {
            Err(Diagnostic::error(
                file,
                "/openapi",
                format!(
                    "unsupported OpenAPI version {v}: expected 3.0.x, 3.1.x or 3.2.x (or swagger: 2.0)"
                ),
            ))
        };
    }
    if let Some(v) = value.get("swagger") {
        return if v.as_str() == Some("2.0") {
            Ok(SpecVersion::Swagger2)
        } else {
            Err(Diagnostic::error(
                file,
                "/swagger",
                format!("unsupported Swagger version {v}: expected \"2.0\""),
            ))
        };
    }
    Err(Diagnostic::error(
        file,
        "",
        "not an OpenAPI document: neither an `openapi` nor a `swagger` field at the top level",
    ))
}

/// YAML turns `version: 1.0` into a number where the specification says
/// string; bring the fields we read as text back to strings.
fn coerce_string_fields(doc: &mut Value) {
    for key in ["openapi", "swagger"] {
        coerce(doc.get_mut(key));
    }
    if let Some(info) = doc.get_mut("info") {
        for key in ["version", "title", "description"] {
            coerce(info.get_mut(key));
        }
    }
    if let Some(Value::Object(paths)) = doc.get_mut("paths") {
        paths.values_mut().for_each(coerce_path_item);
    }
}

/// The operations' `operationId`, `summary` and `description` of a path
/// item as strings when written as numbers or booleans (a path item kept
/// as text gets this when parsed: see [`super::lazy`]).
pub(super) fn coerce_path_item(item: &mut Value) {
    let Value::Object(item) = item else { return };
    for op in item.values_mut() {
        if let Value::Object(op) = op {
            for key in ["operationId", "summary", "description"] {
                coerce(op.get_mut(key));
            }
        }
    }
}

fn coerce(v: Option<&mut Value>) {
    if let Some(v) = v
        && (v.is_number() || v.is_boolean())
    {
        *v = Value::String(v.to_string());
    }
}

/// Turns what the user typed into a URL: `http(s)://…` as is, anything else
/// a file path (made absolute so relative refs resolve).
fn location_to_url(location: &str) -> Result<Url, Diagnostic> {
    if is_url(location) {
        return Url::parse(location).map_err(|e| {
            Diagnostic::error(shown_location(location), "", format!("invalid URL: {e}"))
        });
    }
    let path = std::path::Path::new(location);
    let abs = std::path::absolute(path)
        .map_err(|e| Diagnostic::error(location, "", format!("cannot resolve path: {e}")))?;
    Url::from_file_path(&abs)
        .map_err(|()| Diagnostic::error(location, "", "cannot turn the path into a file URL"))
}

/// Whether the user gave a URL rather than a path.
fn is_url(location: &str) -> bool {
    location.starts_with("http://") || location.starts_with("https://")
}

/// How messages and logs name a document the user gave as `location`: a
/// URL with its user info and query values masked (a document URL may
/// carry a token, `?token=…` or `user:pass@`; see
/// [`openapi2mcp_model::wire::redact_url`]), a path as given.
pub fn shown_location(location: &str) -> String {
    if is_url(location) {
        openapi2mcp_model::wire::redact_url(location)
    } else {
        location.to_string()
    }
}

fn display_for(url: &Url) -> String {
    if url.scheme() == "file"
        && let Ok(path) = url.to_file_path()
    {
        let cwd = std::env::current_dir().unwrap_or_default();
        return path
            .strip_prefix(&cwd)
            .unwrap_or(&path)
            .display()
            .to_string();
    }
    openapi2mcp_model::wire::redact_url(url.as_str())
}

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;
