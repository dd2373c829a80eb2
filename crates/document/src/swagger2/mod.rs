//! Swagger 2.0 → OpenAPI 3.0.3 upgrade.
//!
//! Every later stage (reference resolution, schema dialect conversion, tool
//! building) reads only the OpenAPI 3.0/3.1 shape. Rather than teach each of
//! them about Swagger 2.0, the loader passes 2.0 documents through
//! [`upgrade`], which rewrites the document into the equivalent 3.0.3
//! structure: `servers` from `host`/`basePath`/`schemes`, `components` from
//! the global `definitions`/`parameters`/`responses`/`securityDefinitions`,
//! `requestBody` from body and formData parameters, response `content` from
//! `produces`, parameter `schema`/`style`/`explode` from the 2.0 inline type
//! keywords and `collectionFormat`, and every `$ref` pointed at its new home.
//!
//! The upgrade is a pure, structural transformation: `$ref`s are rewritten,
//! never resolved, and nothing outside the given document is read. Whatever
//! cannot be carried over faithfully becomes a warning whose pointer names the
//! node in the *original* 2.0 document; malformed nodes are skipped, never
//! panicked on.
//!
//! Deliberately left alone:
//! - extension (`x-*`) values and literal data (`example`, `default`, `enum`)
//!   are copied verbatim, even when they contain something that looks like a
//!   `$ref`: they are opaque data, not references;
//! - a `$ref` to a parameter in *another* file is assumed to name a non-body
//!   parameter (`#/components/parameters/…`): telling body from non-body
//!   would mean loading that file, which this pure step does not do.
//!
//! This file holds the run and its state; each part of the document has
//! its file: `servers`, `components`, `security`, `paths`, `parameters`,
//! `bodies`, `responses` and `schemas`.

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use crate::diag::{Diagnostic, push_token};

mod bodies;
mod components;
mod parameters;
mod paths;
mod responses;
mod schemas;
mod security;
mod servers;

/// The HTTP methods a 2.0 path item can hold.
pub(super) const METHODS: [&str; 7] = ["get", "put", "post", "delete", "options", "head", "patch"];

/// Media type used when neither the operation nor the document says.
pub(super) const DEFAULT_MEDIA_TYPE: &str = "application/json";

/// Form media type for bodies without files.
pub(super) const FORM_URLENCODED: &str = "application/x-www-form-urlencoded";

/// Form media type for bodies with files.
pub(super) const MULTIPART: &str = "multipart/form-data";

/// Upgrades a Swagger 2.0 document to the OpenAPI 3.0 shape (`openapi:
/// "3.0.3"`), so later stages only ever read 3.0/3.1 documents.
///
/// `file` is the document's path or URL; it is used only in diagnostics.
/// Anything that cannot be converted faithfully is reported as a warning in
/// `diags`, located by its JSON pointer in the original 2.0 document.
/// `$ref`s are rewritten to their 3.0 locations, never resolved. Never panics:
/// malformed nodes are skipped with a warning.
pub fn upgrade(doc: Value, file: &str, diags: &mut Vec<Diagnostic>) -> Value {
    match doc {
        Value::Object(root) => {
            let mut upgrader = Upgrader::new(file, diags, &root);
            Value::Object(upgrader.document(root))
        }
        other => {
            diags.push(Diagnostic::warning(
                file,
                "",
                format!(
                    "a Swagger 2.0 document must be an object, found {}; not upgraded",
                    kind(&other)
                ),
            ));
            other
        }
    }
}

/// The document-wide settings that shape the server list.
#[derive(Debug, Default)]
pub(super) struct ServerParts {
    /// `host`, when given.
    pub(super) host: Option<String>,
    /// `basePath`, when given.
    pub(super) base_path: Option<String>,
    /// `schemes`, possibly empty.
    pub(super) schemes: Vec<String>,
}

/// The top-level sections that need converting, pulled out of the root.
#[derive(Debug, Default)]
pub(super) struct Sections {
    info: Option<Value>,
    paths: Option<Value>,
    pub(super) definitions: Option<Value>,
    pub(super) parameters: Option<Value>,
    pub(super) responses: Option<Value>,
    pub(super) security_definitions: Option<Value>,
}

/// Where an operation's request body comes from.
#[derive(Debug, Clone)]
pub(super) enum BodySource {
    /// An inline 2.0 body parameter and its pointer.
    Inline(Map<String, Value>, String),
    /// An already rewritten `$ref` to a global body parameter.
    Ref(String),
}

/// The parameters of one list that become a request body.
#[derive(Debug, Clone, Default)]
pub(super) struct BodyParts {
    /// The body parameter, if any.
    pub(super) body: Option<BodySource>,
    /// formData parameters (2.0 objects) with their pointers.
    pub(super) forms: Vec<(Map<String, Value>, String)>,
}

/// One converted parameter list.
#[derive(Debug, Default)]
pub(super) struct ParamSet {
    /// 3.0 parameters (or `$ref`s to them).
    pub(super) regular: Vec<Value>,
    /// What becomes the request body.
    pub(super) body: BodyParts,
}

/// A 2.0 parameter-like object (non-body parameter, header, items) split
/// into its schema keywords and the rest.
#[derive(Debug, Default)]
pub(super) struct SimpleParts {
    /// The keywords that belong in the 3.0 `schema`.
    pub(super) schema: Map<String, Value>,
    /// `collectionFormat`, when given.
    pub(super) collection_format: Option<Value>,
    /// A (non-2.0) `schema` given directly on the object.
    pub(super) given_schema: Option<Value>,
    /// `x-example`, which becomes `example`.
    pub(super) example: Option<Value>,
    /// Other `x-*` keys.
    pub(super) extensions: Map<String, Value>,
    /// Everything else (name, in, description, required, …).
    pub(super) other: Map<String, Value>,
}

/// One formData parameter turned into a property of the form schema.
#[derive(Debug)]
pub(super) struct FormField {
    pub(super) name: String,
    pub(super) schema: Value,
    pub(super) required: bool,
    pub(super) is_file: bool,
    /// `(style, explode)` when it differs from the form default.
    pub(super) encoding: Option<(&'static str, bool)>,
}

/// State of one upgrade run.
pub(super) struct Upgrader<'a> {
    pub(super) file: &'a str,
    pub(super) diags: &'a mut Vec<Diagnostic>,
    /// Index of the first diagnostic this run pushed (for de-duplication).
    first_diag: usize,
    /// Global `consumes`.
    pub(super) consumes: Option<Vec<String>>,
    /// Global `produces`.
    pub(super) produces: Option<Vec<String>>,
    pub(super) server: ServerParts,
    /// Names of global body parameters (they become request bodies).
    pub(super) body_params: HashSet<String>,
    /// Global formData parameters, merged into the operations that use them.
    pub(super) form_params: Map<String, Value>,
}

impl<'a> Upgrader<'a> {
    pub(super) fn new(
        file: &'a str,
        diags: &'a mut Vec<Diagnostic>,
        root: &Map<String, Value>,
    ) -> Self {
        let first_diag = diags.len();
        let mut upgrader = Self {
            file,
            diags,
            first_diag,
            consumes: None,
            produces: None,
            server: ServerParts::default(),
            body_params: HashSet::new(),
            form_params: Map::new(),
        };
        upgrader.read_globals(root);
        upgrader
    }

    /// Records a warning, once per pointer and message.
    pub(super) fn warn(&mut self, pointer: &str, message: impl Into<String>) {
        let diag = Diagnostic::warning(self.file, pointer, message);
        if !self.diags[self.first_diag..].contains(&diag) {
            self.diags.push(diag);
        }
    }

    /// Reads the settings every part of the conversion depends on.
    fn read_globals(&mut self, root: &Map<String, Value>) {
        self.consumes = self.string_list(root.get("consumes"), "/consumes", "media type");
        self.produces = self.string_list(root.get("produces"), "/produces", "media type");
        self.server = ServerParts {
            host: self.optional_string(root.get("host"), "/host"),
            base_path: self.optional_string(root.get("basePath"), "/basePath"),
            schemes: self
                .string_list(root.get("schemes"), "/schemes", "scheme")
                .unwrap_or_default(),
        };
        if let Some(Value::Object(params)) = root.get("parameters") {
            self.scan_global_parameters(params);
        }
    }

    /// Notes which global parameters are body or formData parameters.
    pub(super) fn scan_global_parameters(&mut self, params: &Map<String, Value>) {
        for (name, param) in params {
            match param.get("in").and_then(Value::as_str) {
                Some("body") => {
                    self.body_params.insert(name.clone());
                }
                Some("formData") => {
                    self.form_params.insert(name.clone(), param.clone());
                }
                _ => {}
            }
        }
    }

    /// Builds the 3.0 document from the 2.0 root.
    pub(super) fn document(&mut self, root: Map<String, Value>) -> Map<String, Value> {
        let mut sections = Sections::default();
        let mut rest = Map::new();
        for (key, value) in root {
            match key.as_str() {
                "swagger" | "openapi" | "host" | "basePath" | "schemes" | "consumes"
                | "produces" => {}
                "info" => sections.info = Some(value),
                "paths" => sections.paths = Some(value),
                "definitions" => sections.definitions = Some(value),
                "parameters" => sections.parameters = Some(value),
                "responses" => sections.responses = Some(value),
                "securityDefinitions" => sections.security_definitions = Some(value),
                _ => {
                    rest.insert(key, value);
                }
            }
        }
        let mut out = Map::new();
        out.insert("openapi".into(), "3.0.3".into());
        if let Some(info) = sections.info.take() {
            out.insert("info".into(), info);
        }
        let servers = self.server_list(&self.server.schemes.clone());
        if !servers.is_empty() {
            out.insert("servers".into(), Value::Array(servers));
        }
        out.extend(rest);
        let paths = self.paths(sections.paths.take());
        out.insert("paths".into(), paths);
        let components = self.components(sections);
        if !components.is_empty() {
            out.insert("components".into(), Value::Object(components));
        }
        out
    }

    /// A string-valued top-level setting; warns when it has another type.
    fn optional_string(&mut self, value: Option<&Value>, pointer: &str) -> Option<String> {
        match value? {
            Value::String(s) if s.is_empty() => None,
            Value::String(s) => Some(s.clone()),
            other => {
                let message = format!("must be a string, found {}; ignored", kind(other));
                self.warn(pointer, message);
                None
            }
        }
    }

    /// An array of strings (`consumes`, `produces`, `schemes`), de-duplicated.
    /// `None` when absent or not an array.
    pub(super) fn string_list(
        &mut self,
        value: Option<&Value>,
        pointer: &str,
        what: &str,
    ) -> Option<Vec<String>> {
        let value = value?;
        let Value::Array(items) = value else {
            let message = format!(
                "must be an array of {what}s, found {}; ignored",
                kind(value)
            );
            self.warn(pointer, message);
            return None;
        };
        let mut out: Vec<String> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match item.as_str() {
                Some(s) if out.iter().any(|o| o == s) => {}
                Some(s) => out.push(s.to_string()),
                None => {
                    let message = format!("{what} must be a string, found {}; ignored", kind(item));
                    self.warn(&push_token(pointer, &i.to_string()), message);
                }
            }
        }
        Some(out)
    }

    /// The object inside `value`, or a warning and `None`.
    pub(super) fn expect_object(
        &mut self,
        value: Value,
        pointer: &str,
    ) -> Option<Map<String, Value>> {
        match value {
            Value::Object(map) => Some(map),
            other => {
                let message = format!("expected an object, found {}; skipped", kind(&other));
                self.warn(pointer, message);
                None
            }
        }
    }
}

/// Whether a key is a specification extension.
pub(super) fn is_extension(key: &str) -> bool {
    key.starts_with("x-")
}

/// Inserts `map` under `key` unless it is empty.
pub(super) fn insert_non_empty(out: &mut Map<String, Value>, key: &str, map: Map<String, Value>) {
    if !map.is_empty() {
        out.insert(key.into(), Value::Object(map));
    }
}

/// A JSON value's type with its article, for messages.
pub(super) use openapi2mcp_model::wire::json_kind as kind;

#[cfg(test)]
mod tests;
