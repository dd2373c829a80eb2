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

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use crate::spec::diag::{Diagnostic, push_token};

/// The HTTP methods a 2.0 path item can hold.
const METHODS: [&str; 7] = ["get", "put", "post", "delete", "options", "head", "patch"];

/// Keys of a 2.0 non-body parameter, header or items object that belong in
/// the 3.0 `schema`.
const SIMPLE_SCHEMA_KEYS: [&str; 17] = [
    "type",
    "format",
    "items",
    "enum",
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "multipleOf",
    "x-nullable",
];

/// Media type used when neither the operation nor the document says.
const DEFAULT_MEDIA_TYPE: &str = "application/json";
/// Form media type for bodies without files.
const FORM_URLENCODED: &str = "application/x-www-form-urlencoded";
/// Form media type for bodies with files.
const MULTIPART: &str = "multipart/form-data";

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
struct ServerParts {
    /// `host`, when given.
    host: Option<String>,
    /// `basePath`, when given.
    base_path: Option<String>,
    /// `schemes`, possibly empty.
    schemes: Vec<String>,
}

/// The top-level sections that need converting, pulled out of the root.
#[derive(Debug, Default)]
struct Sections {
    info: Option<Value>,
    paths: Option<Value>,
    definitions: Option<Value>,
    parameters: Option<Value>,
    responses: Option<Value>,
    security_definitions: Option<Value>,
}

/// Where an operation's request body comes from.
#[derive(Debug, Clone)]
enum BodySource {
    /// An inline 2.0 body parameter and its pointer.
    Inline(Map<String, Value>, String),
    /// An already rewritten `$ref` to a global body parameter.
    Ref(String),
}

/// The parameters of one list that become a request body.
#[derive(Debug, Clone, Default)]
struct BodyParts {
    /// The body parameter, if any.
    body: Option<BodySource>,
    /// formData parameters (2.0 objects) with their pointers.
    forms: Vec<(Map<String, Value>, String)>,
}

/// One converted parameter list.
#[derive(Debug, Default)]
struct ParamSet {
    /// 3.0 parameters (or `$ref`s to them).
    regular: Vec<Value>,
    /// What becomes the request body.
    body: BodyParts,
}

/// A 2.0 parameter-like object (non-body parameter, header, items) split
/// into its schema keywords and the rest.
#[derive(Debug, Default)]
struct SimpleParts {
    /// The keywords that belong in the 3.0 `schema`.
    schema: Map<String, Value>,
    /// `collectionFormat`, when given.
    collection_format: Option<Value>,
    /// A (non-2.0) `schema` given directly on the object.
    given_schema: Option<Value>,
    /// `x-example`, which becomes `example`.
    example: Option<Value>,
    /// Other `x-*` keys.
    extensions: Map<String, Value>,
    /// Everything else (name, in, description, required, …).
    other: Map<String, Value>,
}

/// One formData parameter turned into a property of the form schema.
#[derive(Debug)]
struct FormField {
    name: String,
    schema: Value,
    required: bool,
    is_file: bool,
    /// `(style, explode)` when it differs from the form default.
    encoding: Option<(&'static str, bool)>,
}

/// State of one upgrade run.
struct Upgrader<'a> {
    file: &'a str,
    diags: &'a mut Vec<Diagnostic>,
    /// Index of the first diagnostic this run pushed (for de-duplication).
    first_diag: usize,
    /// Global `consumes`.
    consumes: Option<Vec<String>>,
    /// Global `produces`.
    produces: Option<Vec<String>>,
    server: ServerParts,
    /// Names of global body parameters (they become request bodies).
    body_params: HashSet<String>,
    /// Global formData parameters, merged into the operations that use them.
    form_params: Map<String, Value>,
}

impl<'a> Upgrader<'a> {
    fn new(file: &'a str, diags: &'a mut Vec<Diagnostic>, root: &Map<String, Value>) -> Self {
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
    fn warn(&mut self, pointer: &str, message: impl Into<String>) {
        let diag = Diagnostic::warning(self.file, pointer, message);
        if !self.diags[self.first_diag..].contains(&diag) {
            self.diags.push(diag);
        }
    }

    // ----- document level -------------------------------------------------

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
    fn scan_global_parameters(&mut self, params: &Map<String, Value>) {
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
    fn document(&mut self, root: Map<String, Value>) -> Map<String, Value> {
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
    fn string_list(
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

    // ----- servers -----------------------------------------------------------

    /// One server per scheme, or a relative server when there is no host.
    fn server_list(&self, schemes: &[String]) -> Vec<Value> {
        let base = normalise_base_path(self.server.base_path.as_deref());
        match &self.server.host {
            Some(host) => {
                let host = host.trim_end_matches('/');
                let default = ["https".to_string()];
                let schemes = if schemes.is_empty() {
                    &default[..]
                } else {
                    schemes
                };
                schemes
                    .iter()
                    .map(|scheme| json!({ "url": format!("{scheme}://{host}{base}") }))
                    .collect()
            }
            None if self.server.base_path.is_some() => {
                let url = if base.is_empty() {
                    "/".to_string()
                } else {
                    base
                };
                vec![json!({ "url": url })]
            }
            None => Vec::new(),
        }
    }

    /// Operation-level `servers` when the operation's `schemes` differ from
    /// the document's (and there is a host to build URLs from).
    fn operation_servers(&mut self, schemes: Option<&Value>, pointer: &str) -> Option<Value> {
        let schemes = self.string_list(schemes, pointer, "scheme")?;
        if self.server.host.is_none() || schemes.is_empty() {
            return None;
        }
        let global = if self.server.schemes.is_empty() {
            vec!["https".to_string()]
        } else {
            self.server.schemes.clone()
        };
        if schemes == global {
            return None;
        }
        Some(Value::Array(self.server_list(&schemes)))
    }

    // ----- components --------------------------------------------------------

    /// `components` from the global sections; empty maps are left out.
    fn components(&mut self, sections: Sections) -> Map<String, Value> {
        let mut out = Map::new();
        if let Some(definitions) = sections.definitions {
            let schemas = self.schema_map(definitions, "/definitions");
            insert_non_empty(&mut out, "schemas", schemas);
        }
        if let Some(responses) = sections.responses {
            let responses = self.component_responses(responses);
            insert_non_empty(&mut out, "responses", responses);
        }
        if let Some(parameters) = sections.parameters {
            let (parameters, bodies) = self.component_parameters(parameters);
            insert_non_empty(&mut out, "parameters", parameters);
            insert_non_empty(&mut out, "requestBodies", bodies);
        }
        if let Some(schemes) = sections.security_definitions {
            let schemes = self.security_schemes(schemes);
            insert_non_empty(&mut out, "securitySchemes", schemes);
        }
        out
    }

    /// A map of named schemas (`definitions`).
    fn schema_map(&mut self, value: Value, pointer: &str) -> Map<String, Value> {
        let Some(map) = self.expect_object(value, pointer) else {
            return Map::new();
        };
        map.into_iter()
            .map(|(name, schema)| {
                let converted = self.schema(schema, &push_token(pointer, &name));
                (name, converted)
            })
            .collect()
    }

    /// Global `responses`, converted with the global `produces`.
    fn component_responses(&mut self, value: Value) -> Map<String, Value> {
        let Some(map) = self.expect_object(value, "/responses") else {
            return Map::new();
        };
        let produces = effective_media(None, &self.produces);
        let mut out = Map::new();
        for (name, response) in map {
            let pointer = push_token("/responses", &name);
            if let Some(converted) = self.response(response, &pointer, &produces) {
                out.insert(name, converted);
            }
        }
        out
    }

    /// Global `parameters`: non-body ones become `components.parameters`,
    /// body ones `components.requestBodies`; formData ones are only recorded
    /// (see [`Self::scan_global_parameters`]).
    fn component_parameters(&mut self, value: Value) -> (Map<String, Value>, Map<String, Value>) {
        let mut parameters = Map::new();
        let mut bodies = Map::new();
        let Some(map) = self.expect_object(value, "/parameters") else {
            return (parameters, bodies);
        };
        let consumes = effective_media(None, &self.consumes);
        for (name, param) in map {
            let pointer = push_token("/parameters", &name);
            let Some(param) = self.expect_object(param, &pointer) else {
                continue;
            };
            if let Some(reference) = param.get("$ref") {
                if let Some(r) = self.ref_object(reference, &pointer) {
                    parameters.insert(name, r);
                }
                continue;
            }
            match param.get("in").and_then(Value::as_str) {
                Some("body") => {
                    let body = self.request_body(param, &pointer, &consumes);
                    bodies.insert(name, body);
                }
                Some("formData") => {}
                _ => {
                    if let Some(converted) = self.parameter(param, &pointer) {
                        parameters.insert(name, converted);
                    }
                }
            }
        }
        (parameters, bodies)
    }

    // ----- security ----------------------------------------------------------

    /// `securityDefinitions` → `securitySchemes`.
    fn security_schemes(&mut self, value: Value) -> Map<String, Value> {
        let Some(map) = self.expect_object(value, "/securityDefinitions") else {
            return Map::new();
        };
        let mut out = Map::new();
        for (name, scheme) in map {
            let pointer = push_token("/securityDefinitions", &name);
            if let Some(converted) = self.security_scheme(scheme, &pointer) {
                out.insert(name, converted);
            }
        }
        out
    }

    /// One security scheme; unknown types are skipped with a warning.
    fn security_scheme(&mut self, value: Value, pointer: &str) -> Option<Value> {
        let scheme = self.expect_object(value, pointer)?;
        match scheme.get("type").and_then(Value::as_str) {
            Some("basic") => Some(basic_scheme(scheme)),
            Some("apiKey") => Some(Value::Object(scheme)),
            Some("oauth2") => self.oauth2_scheme(scheme, pointer),
            Some(other) => {
                let message = format!("unknown security scheme type `{other}`; skipped");
                self.warn(&push_token(pointer, "type"), message);
                None
            }
            None => {
                self.warn(pointer, "security scheme has no string `type`; skipped");
                None
            }
        }
    }

    /// `type: oauth2` with a single 2.0 `flow` → 3.0 `flows`.
    fn oauth2_scheme(&mut self, scheme: Map<String, Value>, pointer: &str) -> Option<Value> {
        let flow_pointer = push_token(pointer, "flow");
        let (flow_name, needs_auth_url, needs_token_url) =
            match scheme.get("flow").and_then(Value::as_str) {
                Some("implicit") => ("implicit", true, false),
                Some("password") => ("password", false, true),
                Some("application") => ("clientCredentials", false, true),
                Some("accessCode") => ("authorizationCode", true, true),
                Some(other) => {
                    let message = format!("unknown oauth2 flow `{other}`; scheme skipped");
                    self.warn(&flow_pointer, message);
                    return None;
                }
                None => {
                    self.warn(pointer, "oauth2 scheme has no string `flow`; skipped");
                    return None;
                }
            };
        let mut flow = Map::new();
        let mut out = Map::new();
        let mut scopes = None;
        for (key, value) in scheme {
            match key.as_str() {
                "flow" => {}
                "authorizationUrl" if needs_auth_url => {
                    flow.insert(key, value);
                }
                "tokenUrl" if needs_token_url => {
                    flow.insert(key, value);
                }
                "authorizationUrl" | "tokenUrl" => {}
                "scopes" => scopes = Some(value),
                _ => {
                    out.insert(key, value);
                }
            }
        }
        self.require_flow_url(&flow, needs_auth_url, "authorizationUrl", pointer);
        self.require_flow_url(&flow, needs_token_url, "tokenUrl", pointer);
        let scopes = match scopes {
            None => Map::new(),
            Some(value) => self
                .expect_object(value, &push_token(pointer, "scopes"))
                .unwrap_or_default(),
        };
        flow.insert("scopes".into(), Value::Object(scopes));
        out.insert("flows".into(), json!({ flow_name: flow }));
        Some(Value::Object(out))
    }

    /// Warns when a URL the 3.0 flow requires is missing.
    fn require_flow_url(
        &mut self,
        flow: &Map<String, Value>,
        needed: bool,
        key: &str,
        pointer: &str,
    ) {
        if needed && !flow.contains_key(key) {
            self.warn(
                pointer,
                format!("oauth2 flow requires `{key}`, which is missing"),
            );
        }
    }

    // ----- paths and operations ---------------------------------------------

    /// `paths`, item by item.
    fn paths(&mut self, value: Option<Value>) -> Value {
        let Some(value) = value else {
            return Value::Object(Map::new());
        };
        let Some(map) = self.expect_object(value, "/paths") else {
            return Value::Object(Map::new());
        };
        let mut out = Map::new();
        for (path, item) in map {
            if is_extension(&path) {
                out.insert(path, item);
                continue;
            }
            let pointer = push_token("/paths", &path);
            if let Some(item) = self.expect_object(item, &pointer) {
                let converted = self.path_item(item, &pointer);
                out.insert(path, Value::Object(converted));
            }
        }
        Value::Object(out)
    }

    /// One path item: its shared parameters and its operations.
    fn path_item(&mut self, item: Map<String, Value>, pointer: &str) -> Map<String, Value> {
        let mut shared = match item.get("parameters") {
            Some(list) => self.parameter_list(list.clone(), &push_token(pointer, "parameters")),
            None => ParamSet::default(),
        };
        let mut out = Map::new();
        for (key, value) in item {
            match key.as_str() {
                "$ref" => {
                    if let Some(r) = self.ref_string(&value, &push_token(pointer, "$ref")) {
                        out.insert(key, r);
                    }
                }
                "parameters" => {
                    let regular = std::mem::take(&mut shared.regular);
                    if !regular.is_empty() {
                        out.insert(key, Value::Array(regular));
                    }
                }
                method if METHODS.contains(&method) => {
                    let op_pointer = push_token(pointer, method);
                    if let Some(op) = self.operation(value, &op_pointer, &shared.body) {
                        out.insert(key, op);
                    }
                }
                _ => {
                    out.insert(key, value);
                }
            }
        }
        out
    }

    /// One operation.
    fn operation(&mut self, value: Value, pointer: &str, shared: &BodyParts) -> Option<Value> {
        let op = self.expect_object(value, pointer)?;
        let own_consumes = self.string_list(
            op.get("consumes"),
            &push_token(pointer, "consumes"),
            "media type",
        );
        let consumes = effective_media(own_consumes, &self.consumes);
        let own_produces = self.string_list(
            op.get("produces"),
            &push_token(pointer, "produces"),
            "media type",
        );
        let produces = effective_media(own_produces, &self.produces);
        let mut servers =
            self.operation_servers(op.get("schemes"), &push_token(pointer, "schemes"));
        let own = match op.get("parameters") {
            Some(list) => self.parameter_list(list.clone(), &push_token(pointer, "parameters")),
            None => ParamSet::default(),
        };
        let body = merge_body_parts(shared, own.body);
        let mut request_body = self.operation_body(body, &consumes);
        let mut regular = Some(own.regular);

        let mut out = Map::new();
        for (key, value) in op {
            match key.as_str() {
                "consumes" | "produces" => {}
                "schemes" => {
                    if let Some(servers) = servers.take() {
                        out.insert("servers".into(), servers);
                    }
                }
                "parameters" => {
                    let regular = regular.take().unwrap_or_default();
                    if !regular.is_empty() {
                        out.insert(key, Value::Array(regular));
                    }
                    if let Some(body) = request_body.take() {
                        out.insert("requestBody".into(), body);
                    }
                }
                "responses" => {
                    if let Some(body) = request_body.take() {
                        out.insert("requestBody".into(), body);
                    }
                    let responses_pointer = push_token(pointer, "responses");
                    if let Some(responses) = self.responses(value, &responses_pointer, &produces) {
                        out.insert(key, responses);
                    }
                }
                _ => {
                    out.insert(key, value);
                }
            }
        }
        if let Some(body) = request_body {
            out.insert("requestBody".into(), body);
        }
        Some(Value::Object(out))
    }

    // ----- parameters ------------------------------------------------------

    /// A 2.0 `parameters` array: non-body parameters converted, body and
    /// formData ones set aside for the request body.
    fn parameter_list(&mut self, list: Value, pointer: &str) -> ParamSet {
        let mut set = ParamSet::default();
        let Value::Array(items) = list else {
            let message = format!(
                "parameters must be an array, found {}; ignored",
                kind(&list)
            );
            self.warn(pointer, message);
            return set;
        };
        for (i, param) in items.into_iter().enumerate() {
            let param_pointer = push_token(pointer, &i.to_string());
            self.classify_parameter(param, &param_pointer, &mut set);
        }
        set
    }

    /// Sorts one list entry into `set`.
    fn classify_parameter(&mut self, param: Value, pointer: &str, set: &mut ParamSet) {
        let Some(param) = self.expect_object(param, pointer) else {
            return;
        };
        if let Some(reference) = param.get("$ref") {
            self.classify_parameter_ref(reference, pointer, set);
            return;
        }
        match param.get("in").and_then(Value::as_str) {
            Some("body") => {
                let source = BodySource::Inline(param, pointer.to_string());
                self.add_body(&mut set.body, source, pointer);
            }
            Some("formData") => set.body.forms.push((param, pointer.to_string())),
            _ => {
                if let Some(converted) = self.parameter(param, pointer) {
                    set.regular.push(converted);
                }
            }
        }
    }

    /// A `$ref` entry: to a global body parameter (a request body), to a
    /// global formData parameter (merged into the form), or to a parameter.
    fn classify_parameter_ref(&mut self, reference: &Value, pointer: &str, set: &mut ParamSet) {
        let Some(original) = reference.as_str() else {
            let message = format!("$ref must be a string, found {}; ignored", kind(reference));
            self.warn(&push_token(pointer, "$ref"), message);
            return;
        };
        if let Some(name) = local_parameter_name(original) {
            if self.body_params.contains(&name) {
                let rewritten = self.rewrite_ref(original);
                self.add_body(&mut set.body, BodySource::Ref(rewritten), pointer);
                return;
            }
            if let Some(Value::Object(form)) = self.form_params.get(&name) {
                let form_pointer = push_token("/parameters", &name);
                set.body.forms.push((form.clone(), form_pointer));
                return;
            }
        }
        set.regular
            .push(json!({ "$ref": self.rewrite_ref(original) }));
    }

    /// Sets the body parameter, warning when there already is one.
    fn add_body(&mut self, parts: &mut BodyParts, source: BodySource, pointer: &str) {
        if parts.body.is_some() {
            self.warn(
                pointer,
                "only one body parameter is allowed per operation; this one is ignored",
            );
            return;
        }
        parts.body = Some(source);
    }

    /// A non-body, non-formData parameter (query, header, path).
    fn parameter(&mut self, param: Map<String, Value>, pointer: &str) -> Option<Value> {
        if !param.get("name").is_some_and(Value::is_string) {
            self.warn(pointer, "parameter has no string `name`; skipped");
            return None;
        }
        let location = match param.get("in").and_then(Value::as_str) {
            Some(location @ ("query" | "header" | "path")) => location.to_string(),
            _ => {
                self.warn(
                    pointer,
                    "parameter `in` must be one of query, header, path, body, formData; skipped",
                );
                return None;
            }
        };
        let parts = split_simple(param);
        let mut out = parts.other;
        let schema = self.parameter_schema(parts.schema, parts.given_schema, pointer);
        if is_array_schema(&schema) {
            let format = parts.collection_format.as_ref();
            let (style, explode) = self.collection_style(format, &location, pointer);
            out.insert("style".into(), style.into());
            out.insert("explode".into(), explode.into());
        }
        out.insert("schema".into(), schema);
        if let Some(example) = parts.example {
            out.insert("example".into(), example);
        }
        out.extend(parts.extensions);
        Some(Value::Object(out))
    }

    /// The 3.0 `schema` of a parameter, header or form field.
    fn parameter_schema(
        &mut self,
        mut simple: Map<String, Value>,
        given: Option<Value>,
        pointer: &str,
    ) -> Value {
        let schema_pointer = push_token(pointer, "schema");
        if simple.is_empty() {
            return match given {
                Some(schema) => self.schema(schema, &schema_pointer),
                None => Value::Object(Map::new()),
            };
        }
        if given.is_some() {
            self.warn(
                &schema_pointer,
                "a non-body parameter has both `type` keywords and `schema`; `schema` ignored",
            );
        }
        if let Some(items) = simple.get_mut("items") {
            self.strip_nested_collection_formats(items, &push_token(pointer, "items"));
        }
        self.schema(Value::Object(simple), pointer)
    }

    /// Removes `collectionFormat` from nested items objects (3.0 cannot
    /// express it), warning for each.
    fn strip_nested_collection_formats(&mut self, items: &mut Value, pointer: &str) {
        let mut current = Some(items);
        let mut current_pointer = pointer.to_string();
        while let Some(Value::Object(map)) = current {
            if map.shift_remove("collectionFormat").is_some() {
                self.warn(
                    &push_token(&current_pointer, "collectionFormat"),
                    "collectionFormat of nested items cannot be expressed in OpenAPI 3.0; ignored",
                );
            }
            current_pointer = push_token(&current_pointer, "items");
            current = map.get_mut("items");
        }
    }

    /// `(style, explode)` for an array parameter in `location`, from its
    /// 2.0 `collectionFormat` (default csv).
    fn collection_style(
        &mut self,
        format: Option<&Value>,
        location: &str,
        pointer: &str,
    ) -> (&'static str, bool) {
        let query_like = matches!(location, "query" | "formData");
        let csv = if query_like {
            ("form", false)
        } else {
            ("simple", false)
        };
        let Some(format) = format else {
            return csv;
        };
        let format_pointer = push_token(pointer, "collectionFormat");
        let Some(name) = format.as_str() else {
            let message = format!(
                "collectionFormat must be a string, found {}; treated as csv",
                kind(format)
            );
            self.warn(&format_pointer, message);
            return csv;
        };
        match name {
            "csv" => csv,
            "multi" if query_like => ("form", true),
            "ssv" if query_like => ("spaceDelimited", false),
            "pipes" if query_like => ("pipeDelimited", false),
            "tsv" => {
                self.warn(
                    &format_pointer,
                    "collectionFormat tsv has no OpenAPI 3.0 equivalent; treated as csv",
                );
                csv
            }
            "multi" | "ssv" | "pipes" => {
                let message = format!(
                    "collectionFormat {name} is not supported for {location} parameters in OpenAPI 3.0; treated as csv"
                );
                self.warn(&format_pointer, message);
                csv
            }
            other => {
                let message = format!("unknown collectionFormat `{other}`; treated as csv");
                self.warn(&format_pointer, message);
                csv
            }
        }
    }

    // ----- request bodies ----------------------------------------------------

    /// The request body of an operation, from its body or formData params.
    fn operation_body(&mut self, parts: BodyParts, consumes: &[String]) -> Option<Value> {
        match parts.body {
            Some(source) => {
                self.warn_ignored_forms(&parts.forms);
                Some(match source {
                    BodySource::Ref(reference) => json!({ "$ref": reference }),
                    BodySource::Inline(param, pointer) => {
                        self.request_body(param, &pointer, consumes)
                    }
                })
            }
            None if parts.forms.is_empty() => None,
            None => Some(self.form_body(parts.forms, consumes)),
        }
    }

    /// Warns about formData parameters that lose to a body parameter.
    fn warn_ignored_forms(&mut self, forms: &[(Map<String, Value>, String)]) {
        for (_, pointer) in forms {
            self.warn(
                pointer,
                "formData parameters cannot be combined with a body parameter; ignored",
            );
        }
    }

    /// A body parameter → `requestBody`.
    fn request_body(
        &mut self,
        param: Map<String, Value>,
        pointer: &str,
        consumes: &[String],
    ) -> Value {
        let mut out = Map::new();
        let mut schema = None;
        let mut examples = None;
        let mut name = None;
        let mut extensions = Map::new();
        for (key, value) in param {
            match key.as_str() {
                "description" | "required" => {
                    out.insert(key, value);
                }
                "schema" => schema = Some(value),
                "x-examples" => examples = Some(value),
                "name" => name = Some(value),
                k if is_extension(k) => {
                    extensions.insert(key, value);
                }
                _ => {}
            }
        }
        let schema = match schema {
            Some(schema) => self.schema(schema, &push_token(pointer, "schema")),
            None => {
                self.warn(
                    pointer,
                    "body parameter has no schema; any value is accepted",
                );
                Value::Object(Map::new())
            }
        };
        let examples_pointer = push_token(pointer, "x-examples");
        let examples = self.media_examples(examples, &examples_pointer, consumes, "consumes");
        let content = media_content(&schema, consumes, &examples);
        out.insert("content".into(), Value::Object(content));
        if let Some(name) = name.filter(Value::is_string) {
            out.insert("x-codegen-request-body-name".into(), name);
        }
        out.extend(extensions);
        Value::Object(out)
    }

    /// formData parameters → a form `requestBody`.
    fn form_body(
        &mut self,
        forms: Vec<(Map<String, Value>, String)>,
        consumes: &[String],
    ) -> Value {
        let fields: Vec<FormField> = forms
            .into_iter()
            .filter_map(|(param, pointer)| self.form_field(param, &pointer))
            .collect();
        let any_file = fields.iter().any(|f| f.is_file);
        let any_required = fields.iter().any(|f| f.required);
        let schema = form_schema(&fields);
        let encoding = form_encoding(&fields);
        let mut content = Map::new();
        for media in form_media_types(consumes, any_file) {
            let mut entry = Map::new();
            entry.insert("schema".into(), schema.clone());
            if media_essence(&media) == FORM_URLENCODED && !encoding.is_empty() {
                entry.insert("encoding".into(), Value::Object(encoding.clone()));
            }
            content.insert(media, Value::Object(entry));
        }
        let mut out = Map::new();
        if any_required {
            out.insert("required".into(), true.into());
        }
        out.insert("content".into(), Value::Object(content));
        Value::Object(out)
    }

    /// One formData parameter → a property of the form schema.
    fn form_field(&mut self, param: Map<String, Value>, pointer: &str) -> Option<FormField> {
        let Some(name) = param
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_string)
        else {
            self.warn(pointer, "formData parameter has no string `name`; skipped");
            return None;
        };
        let is_file = is_file_type(&param)
            || param
                .get("items")
                .and_then(Value::as_object)
                .is_some_and(is_file_type);
        let parts = split_simple(param);
        let mut schema = self.parameter_schema(parts.schema, parts.given_schema, pointer);
        let encoding = if is_array_schema(&schema) {
            let format = parts.collection_format.as_ref();
            Some(self.collection_style(format, "formData", pointer))
                .filter(|s| *s != ("form", true))
        } else {
            None
        };
        if let Value::Object(map) = &mut schema {
            if let Some(description) = parts.other.get("description") {
                map.shift_insert(0, "description".into(), description.clone());
            }
            if let Some(example) = parts.example {
                map.insert("example".into(), example);
            }
            map.extend(parts.extensions);
        }
        Some(FormField {
            name,
            schema,
            required: parts.other.get("required") == Some(&Value::Bool(true)),
            is_file,
            encoding,
        })
    }

    // ----- responses -------------------------------------------------------

    /// An operation's `responses` map.
    fn responses(&mut self, value: Value, pointer: &str, produces: &[String]) -> Option<Value> {
        let map = self.expect_object(value, pointer)?;
        let mut out = Map::new();
        for (code, response) in map {
            if is_extension(&code) {
                out.insert(code, response);
                continue;
            }
            let response_pointer = push_token(pointer, &code);
            if let Some(converted) = self.response(response, &response_pointer, produces) {
                out.insert(code, converted);
            }
        }
        Some(Value::Object(out))
    }

    /// One response (or `$ref` to one).
    fn response(&mut self, value: Value, pointer: &str, produces: &[String]) -> Option<Value> {
        let map = self.expect_object(value, pointer)?;
        if let Some(reference) = map.get("$ref") {
            return self.ref_object(reference, pointer);
        }
        let mut out = Map::new();
        out.insert("description".into(), "".into());
        let mut schema = None;
        let mut examples = None;
        for (key, value) in map {
            match key.as_str() {
                "description" if value.is_string() => {
                    out.insert(key, value);
                }
                "description" => {
                    let message = format!(
                        "description must be a string, found {}; replaced by \"\"",
                        kind(&value)
                    );
                    self.warn(&push_token(pointer, "description"), message);
                }
                "schema" => schema = Some(value),
                "examples" => examples = Some(value),
                "headers" => {
                    let headers = self.headers(value, &push_token(pointer, "headers"));
                    insert_non_empty(&mut out, "headers", headers);
                }
                _ => {
                    out.insert(key, value);
                }
            }
        }
        let examples_pointer = push_token(pointer, "examples");
        let Some(schema) = schema else {
            if examples.is_some() {
                self.warn(
                    &examples_pointer,
                    "examples dropped: the response has no schema",
                );
            }
            return Some(Value::Object(out));
        };
        let schema = self.schema(schema, &push_token(pointer, "schema"));
        let examples = self.media_examples(examples, &examples_pointer, produces, "produces");
        let content = media_content(&schema, produces, &examples);
        out.insert("content".into(), Value::Object(content));
        Some(Value::Object(out))
    }

    /// A response's `headers` map.
    fn headers(&mut self, value: Value, pointer: &str) -> Map<String, Value> {
        let Some(map) = self.expect_object(value, pointer) else {
            return Map::new();
        };
        let mut out = Map::new();
        for (name, header) in map {
            let header_pointer = push_token(pointer, &name);
            if let Some(converted) = self.header(header, &header_pointer) {
                out.insert(name, converted);
            }
        }
        out
    }

    /// One response header: type keywords move into `schema`.
    fn header(&mut self, value: Value, pointer: &str) -> Option<Value> {
        let map = self.expect_object(value, pointer)?;
        if let Some(reference) = map.get("$ref") {
            return self.ref_object(reference, pointer);
        }
        let parts = split_simple(map);
        let mut out = parts.other;
        let schema = self.parameter_schema(parts.schema, parts.given_schema, pointer);
        if is_array_schema(&schema) {
            // Headers are always style simple, explode false in 3.0; this
            // only reports formats that cannot be kept.
            self.collection_style(parts.collection_format.as_ref(), "header", pointer);
        }
        out.insert("schema".into(), schema);
        if let Some(example) = parts.example {
            out.insert("example".into(), example);
        }
        out.extend(parts.extensions);
        Some(Value::Object(out))
    }

    /// `examples`/`x-examples` keyed by media type, restricted to `media`.
    fn media_examples(
        &mut self,
        examples: Option<Value>,
        pointer: &str,
        media: &[String],
        list_name: &str,
    ) -> Map<String, Value> {
        let Some(examples) = examples else {
            return Map::new();
        };
        let Some(map) = self.expect_object(examples, pointer) else {
            return Map::new();
        };
        let mut out = Map::new();
        for (media_type, example) in map {
            if media.contains(&media_type) {
                out.insert(media_type, example);
            } else {
                let message = format!(
                    "example for media type `{media_type}` dropped: it is not listed in {list_name}"
                );
                self.warn(&push_token(pointer, &media_type), message);
            }
        }
        out
    }

    // ----- schemas ---------------------------------------------------------

    /// A 2.0 schema → 3.0 schema.
    fn schema(&mut self, value: Value, pointer: &str) -> Value {
        match value {
            Value::Object(map) => Value::Object(self.schema_object(map, pointer)),
            Value::Bool(_) => value,
            other => {
                let message = format!(
                    "a schema must be an object, found {}; replaced by {{}}",
                    kind(&other)
                );
                self.warn(pointer, message);
                Value::Object(Map::new())
            }
        }
    }

    /// The keywords of one schema object, sub-schemas converted recursively.
    fn schema_object(&mut self, map: Map<String, Value>, pointer: &str) -> Map<String, Value> {
        let mut out = Map::new();
        let mut is_file = false;
        for (key, value) in map {
            let child = push_token(pointer, &key);
            match key.as_str() {
                "$ref" => {
                    if let Some(r) = self.ref_string(&value, &child) {
                        out.insert(key, r);
                    }
                }
                "type" if value == "file" => {
                    is_file = true;
                    out.insert(key, "string".into());
                }
                "x-nullable" => self.nullable(value, &child, &mut out),
                "discriminator" => self.discriminator(value, &child, &mut out),
                "properties" => {
                    let properties = self.schema_map(value, &child);
                    out.insert(key, Value::Object(properties));
                }
                "items" => {
                    let items = self.items(value, &child);
                    out.insert(key, items);
                }
                "additionalProperties" if value.is_object() => {
                    let schema = self.schema(value, &child);
                    out.insert(key, schema);
                }
                "allOf" | "anyOf" | "oneOf" => {
                    if let Some(list) = self.schema_list(value, &child) {
                        out.insert(key, list);
                    }
                }
                "not" => {
                    let schema = self.schema(value, &child);
                    out.insert(key, schema);
                }
                _ => {
                    out.insert(key, value);
                }
            }
        }
        if is_file {
            out.insert("format".into(), "binary".into());
        }
        out
    }

    /// `items`: one schema, or (not valid 2.0, kept) a list of them.
    fn items(&mut self, value: Value, pointer: &str) -> Value {
        match value {
            Value::Array(_) => self
                .schema_list(value, pointer)
                .unwrap_or_else(|| Value::Array(Vec::new())),
            other => self.schema(other, pointer),
        }
    }

    /// `allOf`/`anyOf`/`oneOf`: a list of schemas.
    fn schema_list(&mut self, value: Value, pointer: &str) -> Option<Value> {
        let Value::Array(items) = value else {
            let message = format!(
                "must be an array of schemas, found {}; ignored",
                kind(&value)
            );
            self.warn(pointer, message);
            return None;
        };
        let converted = items
            .into_iter()
            .enumerate()
            .map(|(i, schema)| self.schema(schema, &push_token(pointer, &i.to_string())))
            .collect();
        Some(Value::Array(converted))
    }

    /// `x-nullable` → `nullable`.
    fn nullable(&mut self, value: Value, pointer: &str, out: &mut Map<String, Value>) {
        match value {
            Value::Bool(true) => {
                out.insert("nullable".into(), true.into());
            }
            Value::Bool(false) => {}
            other => {
                let message = format!(
                    "x-nullable must be a boolean, found {}; ignored",
                    kind(&other)
                );
                self.warn(pointer, message);
            }
        }
    }

    /// 2.0 `discriminator: name` → 3.0 `discriminator: {propertyName: name}`.
    fn discriminator(&mut self, value: Value, pointer: &str, out: &mut Map<String, Value>) {
        match value {
            Value::String(name) => {
                out.insert("discriminator".into(), json!({ "propertyName": name }));
            }
            Value::Object(_) => {
                out.insert("discriminator".into(), value);
            }
            other => {
                let message = format!(
                    "discriminator must be a string, found {}; ignored",
                    kind(&other)
                );
                self.warn(pointer, message);
            }
        }
    }

    // ----- references ------------------------------------------------------

    /// `{"$ref": rewritten}` for a `$ref` value found in the object at `pointer`.
    fn ref_object(&mut self, reference: &Value, pointer: &str) -> Option<Value> {
        let rewritten = self.ref_string(reference, &push_token(pointer, "$ref"))?;
        Some(json!({ "$ref": rewritten }))
    }

    /// The rewritten `$ref` string at `pointer`; warns when it is not a string.
    fn ref_string(&mut self, reference: &Value, pointer: &str) -> Option<Value> {
        match reference.as_str() {
            Some(r) => Some(Value::String(self.rewrite_ref(r))),
            None => {
                let message = format!("$ref must be a string, found {}; ignored", kind(reference));
                self.warn(pointer, message);
                None
            }
        }
    }

    /// Rewrites the fragment of a 2.0 `$ref` to its 3.0 location, keeping
    /// the file part and the (escaped) remainder of the pointer intact.
    fn rewrite_ref(&self, reference: &str) -> String {
        let Some((file, fragment)) = reference.split_once('#') else {
            return reference.to_string();
        };
        let Some(path) = fragment.strip_prefix('/') else {
            return reference.to_string();
        };
        let (section, tail) = match path.find('/') {
            Some(i) => (&path[..i], &path[i..]),
            None => (path, ""),
        };
        let target = match section {
            "definitions" => "components/schemas",
            "parameters" if file.is_empty() && self.names_body_param(tail) => {
                "components/requestBodies"
            }
            "parameters" => "components/parameters",
            "responses" => "components/responses",
            "securityDefinitions" => "components/securitySchemes",
            _ => return reference.to_string(),
        };
        format!("{file}#/{target}{tail}")
    }

    /// Whether `/name…` (the rest of a `#/parameters` pointer) names a
    /// global body parameter.
    fn names_body_param(&self, tail: &str) -> bool {
        let token = tail
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or_default();
        !token.is_empty() && self.body_params.contains(&unescape_token(token))
    }

    // ----- helpers ---------------------------------------------------------

    /// The object inside `value`, or a warning and `None`.
    fn expect_object(&mut self, value: Value, pointer: &str) -> Option<Map<String, Value>> {
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

/// `type: basic` → `{type: http, scheme: basic}`, other keys kept.
fn basic_scheme(scheme: Map<String, Value>) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), "http".into());
    out.insert("scheme".into(), "basic".into());
    out.extend(scheme.into_iter().filter(|(key, _)| key != "type"));
    Value::Object(out)
}

/// Splits a parameter-like object into schema keywords and the rest.
fn split_simple(map: Map<String, Value>) -> SimpleParts {
    let mut parts = SimpleParts::default();
    for (key, value) in map {
        match key.as_str() {
            k if SIMPLE_SCHEMA_KEYS.contains(&k) => {
                parts.schema.insert(key, value);
            }
            "collectionFormat" => parts.collection_format = Some(value),
            "schema" => parts.given_schema = Some(value),
            "x-example" => parts.example = Some(value),
            k if is_extension(k) => {
                parts.extensions.insert(key, value);
            }
            _ => {
                parts.other.insert(key, value);
            }
        }
    }
    parts
}

/// The request body's formData parameters: path-level ones apply unless
/// the operation defines its own body; formData parameters merge by name.
fn merge_body_parts(shared: &BodyParts, own: BodyParts) -> BodyParts {
    if own.body.is_some() {
        return own;
    }
    if own.forms.is_empty() {
        return shared.clone();
    }
    let overridden = |param: &Map<String, Value>| {
        own.forms
            .iter()
            .any(|(mine, _)| mine.get("name") == param.get("name"))
    };
    let mut forms: Vec<_> = shared
        .forms
        .iter()
        .filter(|(param, _)| !overridden(param))
        .cloned()
        .collect();
    forms.extend(own.forms);
    BodyParts { body: None, forms }
}

/// The `{type: object, properties, required}` schema of a form.
fn form_schema(fields: &[FormField]) -> Value {
    let properties: Map<String, Value> = fields
        .iter()
        .map(|f| (f.name.clone(), f.schema.clone()))
        .collect();
    let required: Vec<Value> = fields
        .iter()
        .filter(|f| f.required)
        .map(|f| Value::String(f.name.clone()))
        .collect();
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    Value::Object(schema)
}

/// The urlencoded `encoding` map for fields whose array style differs from
/// the 3.0 form default.
fn form_encoding(fields: &[FormField]) -> Map<String, Value> {
    fields
        .iter()
        .filter_map(|f| {
            let (style, explode) = f.encoding?;
            Some((
                f.name.clone(),
                json!({ "style": style, "explode": explode }),
            ))
        })
        .collect()
}

/// The media types of a form body: multipart when files are sent,
/// otherwise the form types `consumes` lists, otherwise urlencoded.
fn form_media_types(consumes: &[String], any_file: bool) -> Vec<String> {
    let listed = |wanted: &str| -> Vec<String> {
        consumes
            .iter()
            .filter(|m| media_essence(m) == wanted)
            .cloned()
            .collect()
    };
    let multipart = listed(MULTIPART);
    if any_file {
        return if multipart.is_empty() {
            vec![MULTIPART.into()]
        } else {
            multipart
        };
    }
    let forms: Vec<String> = consumes
        .iter()
        .filter(|m| matches!(media_essence(m).as_str(), MULTIPART | FORM_URLENCODED))
        .cloned()
        .collect();
    if forms.is_empty() {
        vec![FORM_URLENCODED.into()]
    } else {
        forms
    }
}

/// `content` with one entry per media type, each with `schema` and the
/// matching example.
fn media_content(
    schema: &Value,
    media: &[String],
    examples: &Map<String, Value>,
) -> Map<String, Value> {
    media
        .iter()
        .map(|media_type| {
            let mut entry = Map::new();
            entry.insert("schema".into(), schema.clone());
            if let Some(example) = examples.get(media_type) {
                entry.insert("example".into(), example.clone());
            }
            (media_type.clone(), Value::Object(entry))
        })
        .collect()
}

/// The operation's media types, else the document's, else JSON.
fn effective_media(own: Option<Vec<String>>, global: &Option<Vec<String>>) -> Vec<String> {
    let list = own.or_else(|| global.clone()).unwrap_or_default();
    if list.is_empty() {
        vec![DEFAULT_MEDIA_TYPE.into()]
    } else {
        list
    }
}

/// The media type without parameters, lower-cased.
fn media_essence(media: &str) -> String {
    media
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// `basePath` as a URL suffix: leading `/`, no trailing `/` (`/` → ``).
fn normalise_base_path(base: Option<&str>) -> String {
    let trimmed = base.unwrap_or_default().trim_matches('/');
    if trimmed.is_empty() {
        String::new()
    } else {
        format!("/{trimmed}")
    }
}

/// The parameter name of a local `#/parameters/<name>` reference.
fn local_parameter_name(reference: &str) -> Option<String> {
    let token = reference.strip_prefix("#/parameters/")?;
    (!token.is_empty() && !token.contains('/')).then(|| unescape_token(token))
}

/// Undoes [`crate::spec::diag::escape_token`].
fn unescape_token(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Whether a 2.0 object declares `type: file`.
fn is_file_type(map: &Map<String, Value>) -> bool {
    map.get("type").and_then(Value::as_str) == Some("file")
}

/// Whether a converted schema is an array.
fn is_array_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("array")
}

/// Whether a key is a specification extension.
fn is_extension(key: &str) -> bool {
    key.starts_with("x-")
}

/// Inserts `map` under `key` unless it is empty.
fn insert_non_empty(out: &mut Map<String, Value>, key: &str, map: Map<String, Value>) {
    if !map.is_empty() {
        out.insert(key.into(), Value::Object(map));
    }
}

/// A short description of a value's JSON type, for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::diag::Severity;

    fn run(doc: Value) -> (Value, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let out = upgrade(doc, "api.json", &mut diags);
        (out, diags)
    }

    fn pointers(diags: &[Diagnostic]) -> Vec<&str> {
        diags.iter().map(|d| d.pointer.as_str()).collect()
    }

    /// A minimal document with one operation at `/p` `post`.
    fn with_op(op: Value) -> Value {
        json!({
            "swagger": "2.0",
            "info": {"title": "t", "version": "1"},
            "paths": {"/p": {"post": op}}
        })
    }

    fn op_of(out: &Value) -> &Value {
        &out["paths"]["/p"]["post"]
    }

    #[test]
    fn petstore_like_document() {
        let doc = json!({
            "swagger": "2.0",
            "info": {"title": "Petstore", "version": "1.0"},
            "host": "petstore.example.com",
            "basePath": "/v1",
            "schemes": ["https", "http"],
            "consumes": ["application/json"],
            "produces": ["application/json"],
            "tags": [{"name": "pets"}],
            "externalDocs": {"url": "https://docs.example.com"},
            "x-logo": {"url": "logo.png"},
            "security": [{"key": []}],
            "paths": {
                "/pets/{id}": {
                    "get": {
                        "operationId": "getPet",
                        "tags": ["pets"],
                        "summary": "Get a pet",
                        "deprecated": true,
                        "x-internal": false,
                        "parameters": [
                            {"name": "id", "in": "path", "required": true,
                             "type": "integer", "format": "int64"}
                        ],
                        "responses": {
                            "200": {"description": "ok", "schema": {"$ref": "#/definitions/Pet"}},
                            "default": {"$ref": "#/responses/Error"}
                        }
                    }
                }
            },
            "definitions": {
                "Pet": {"type": "object", "required": ["id"],
                        "properties": {"id": {"type": "integer"}}}
            },
            "responses": {"Error": {"description": "error"}},
            "securityDefinitions": {"key": {"type": "apiKey", "name": "k", "in": "header"}}
        });
        let (out, diags) = run(doc);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            out,
            json!({
                "openapi": "3.0.3",
                "info": {"title": "Petstore", "version": "1.0"},
                "servers": [
                    {"url": "https://petstore.example.com/v1"},
                    {"url": "http://petstore.example.com/v1"}
                ],
                "tags": [{"name": "pets"}],
                "externalDocs": {"url": "https://docs.example.com"},
                "x-logo": {"url": "logo.png"},
                "security": [{"key": []}],
                "paths": {
                    "/pets/{id}": {
                        "get": {
                            "operationId": "getPet",
                            "tags": ["pets"],
                            "summary": "Get a pet",
                            "deprecated": true,
                            "x-internal": false,
                            "parameters": [
                                {"name": "id", "in": "path", "required": true,
                                 "schema": {"type": "integer", "format": "int64"}}
                            ],
                            "responses": {
                                "200": {"description": "ok", "content": {
                                    "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
                                }},
                                "default": {"$ref": "#/components/responses/Error"}
                            }
                        }
                    }
                },
                "components": {
                    "schemas": {
                        "Pet": {"type": "object", "required": ["id"],
                                "properties": {"id": {"type": "integer"}}}
                    },
                    "responses": {"Error": {"description": "error"}},
                    "securitySchemes": {"key": {"type": "apiKey", "name": "k", "in": "header"}}
                }
            })
        );
        assert_eq!(out.get("swagger"), None);
    }

    #[test]
    fn servers_from_host_base_path_and_schemes() {
        let servers = |extra: Value| {
            let mut doc = json!({"swagger": "2.0", "info": {}, "paths": {}});
            if let (Some(doc), Value::Object(extra)) = (doc.as_object_mut(), extra) {
                doc.extend(extra);
            }
            run(doc).0.get("servers").cloned()
        };
        assert_eq!(
            servers(json!({"host": "h.io", "basePath": "/"})),
            Some(json!([{"url": "https://h.io"}]))
        );
        assert_eq!(
            servers(json!({"host": "h.io"})),
            Some(json!([{"url": "https://h.io"}]))
        );
        assert_eq!(
            servers(json!({"host": "h.io:8080", "basePath": "/api/", "schemes": ["http"]})),
            Some(json!([{"url": "http://h.io:8080/api"}]))
        );
        assert_eq!(
            servers(json!({"basePath": "/api"})),
            Some(json!([{"url": "/api"}]))
        );
        assert_eq!(
            servers(json!({"basePath": "/"})),
            Some(json!([{"url": "/"}]))
        );
        assert_eq!(servers(json!({})), None);
    }

    #[test]
    fn operation_schemes_become_operation_servers() {
        let doc = json!({
            "swagger": "2.0", "host": "h.io", "basePath": "/v1", "schemes": ["https"],
            "paths": {"/a": {
                "get": {"schemes": ["http"], "responses": {}},
                "put": {"schemes": ["https"], "responses": {}}
            }}
        });
        let (out, diags) = run(doc);
        assert!(diags.is_empty());
        assert_eq!(
            out["paths"]["/a"]["get"]["servers"],
            json!([{"url": "http://h.io/v1"}])
        );
        assert_eq!(out["paths"]["/a"]["put"].get("servers"), None);
        assert_eq!(out["paths"]["/a"]["put"].get("schemes"), None);
    }

    #[test]
    fn body_parameter_becomes_request_body() {
        let doc = with_op(json!({
            "consumes": ["application/json", "application/xml"],
            "parameters": [{
                "name": "pet", "in": "body", "required": true, "description": "The pet",
                "schema": {"$ref": "#/definitions/Pet"},
                "x-examples": {"application/json": {"name": "Rex"}}
            }],
            "responses": {"204": {"description": "done"}}
        }));
        let (out, diags) = run(doc);
        assert!(diags.is_empty());
        assert_eq!(
            op_of(&out),
            &json!({
                "requestBody": {
                    "required": true,
                    "description": "The pet",
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/Pet"},
                            "example": {"name": "Rex"}
                        },
                        "application/xml": {"schema": {"$ref": "#/components/schemas/Pet"}}
                    },
                    "x-codegen-request-body-name": "pet"
                },
                "responses": {"204": {"description": "done"}}
            })
        );
    }

    #[test]
    fn body_consumes_falls_back_to_global_then_json() {
        let body = json!([{"name": "b", "in": "body", "schema": {"type": "string"}}]);
        let mut doc = with_op(json!({"parameters": body, "responses": {}}));
        doc["consumes"] = json!(["text/plain"]);
        let (out, _) = run(doc);
        assert_eq!(
            op_of(&out)["requestBody"]["content"],
            json!({"text/plain": {"schema": {"type": "string"}}})
        );
        let (out, _) = run(with_op(json!({"parameters": body, "responses": {}})));
        assert_eq!(
            op_of(&out)["requestBody"]["content"],
            json!({"application/json": {"schema": {"type": "string"}}})
        );
    }

    #[test]
    fn body_parameter_without_schema_warns() {
        let doc = with_op(json!({
            "parameters": [{"name": "b", "in": "body"}],
            "responses": {}
        }));
        let (out, diags) = run(doc);
        assert_eq!(
            op_of(&out)["requestBody"],
            json!({"content": {"application/json": {"schema": {}}},
                   "x-codegen-request-body-name": "b"})
        );
        assert_eq!(pointers(&diags), ["/paths/~1p/post/parameters/0"]);
        assert_eq!(diags[0].severity, Severity::Warning);
        assert_eq!(diags[0].file, "api.json");
    }

    #[test]
    fn form_data_with_file_is_multipart() {
        let doc = with_op(json!({
            "consumes": ["multipart/form-data"],
            "parameters": [
                {"name": "note", "in": "formData", "type": "string", "description": "A note"},
                {"name": "upload", "in": "formData", "type": "file", "required": true}
            ],
            "responses": {}
        }));
        let (out, diags) = run(doc);
        assert!(diags.is_empty());
        assert_eq!(
            op_of(&out)["requestBody"],
            json!({
                "required": true,
                "content": {"multipart/form-data": {"schema": {
                    "type": "object",
                    "properties": {
                        "note": {"description": "A note", "type": "string"},
                        "upload": {"type": "string", "format": "binary"}
                    },
                    "required": ["upload"]
                }}}
            })
        );
    }

    #[test]
    fn form_data_with_file_is_multipart_even_without_consumes() {
        let doc = with_op(json!({
            "parameters": [{"name": "f", "in": "formData", "type": "file"}],
            "responses": {}
        }));
        let (out, _) = run(doc);
        assert_eq!(
            op_of(&out)["requestBody"],
            json!({"content": {"multipart/form-data": {"schema": {
                "type": "object",
                "properties": {"f": {"type": "string", "format": "binary"}}
            }}}})
        );
    }

    #[test]
    fn form_data_without_file_is_urlencoded() {
        let doc = with_op(json!({
            "parameters": [
                {"name": "name", "in": "formData", "type": "string", "required": false},
                {"name": "tags", "in": "formData", "type": "array",
                 "items": {"type": "string"}},
                {"name": "ids", "in": "formData", "type": "array",
                 "items": {"type": "integer"}, "collectionFormat": "multi"}
            ],
            "responses": {}
        }));
        let (out, diags) = run(doc);
        assert!(diags.is_empty());
        assert_eq!(
            op_of(&out)["requestBody"],
            json!({"content": {"application/x-www-form-urlencoded": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "tags": {"type": "array", "items": {"type": "string"}},
                        "ids": {"type": "array", "items": {"type": "integer"}}
                    }
                },
                "encoding": {"tags": {"style": "form", "explode": false}}
            }}})
        );
    }

    #[test]
    fn form_data_uses_form_types_listed_in_consumes() {
        let doc = with_op(json!({
            "consumes": ["application/json", "multipart/form-data"],
            "parameters": [{"name": "a", "in": "formData", "type": "string"}],
            "responses": {}
        }));
        let (out, _) = run(doc);
        assert_eq!(
            op_of(&out)["requestBody"]["content"],
            json!({"multipart/form-data": {"schema": {
                "type": "object", "properties": {"a": {"type": "string"}}
            }}})
        );
    }

    fn query_array(collection_format: Option<&str>, location: &str) -> (Value, Vec<Diagnostic>) {
        let mut param = json!({"name": "q", "in": location, "type": "array",
                               "items": {"type": "string"}});
        if let Some(cf) = collection_format {
            param["collectionFormat"] = json!(cf);
        }
        let (out, diags) = run(with_op(json!({"parameters": [param], "responses": {}})));
        (op_of(&out)["parameters"][0].clone(), diags)
    }

    #[test]
    fn collection_formats() {
        let style = |cf, location| {
            let (param, diags) = query_array(cf, location);
            (
                param["style"].clone(),
                param["explode"].clone(),
                diags.len(),
            )
        };
        assert_eq!(style(None, "query"), (json!("form"), json!(false), 0));
        assert_eq!(
            style(Some("csv"), "query"),
            (json!("form"), json!(false), 0)
        );
        assert_eq!(
            style(Some("multi"), "query"),
            (json!("form"), json!(true), 0)
        );
        assert_eq!(
            style(Some("ssv"), "query"),
            (json!("spaceDelimited"), json!(false), 0)
        );
        assert_eq!(
            style(Some("pipes"), "query"),
            (json!("pipeDelimited"), json!(false), 0)
        );
        assert_eq!(style(None, "path"), (json!("simple"), json!(false), 0));
        assert_eq!(
            style(Some("csv"), "header"),
            (json!("simple"), json!(false), 0)
        );
        assert_eq!(
            style(Some("multi"), "path"),
            (json!("simple"), json!(false), 1)
        );
    }

    #[test]
    fn collection_format_array_parameter_shape() {
        let (param, _) = query_array(Some("multi"), "query");
        assert_eq!(
            param,
            json!({"name": "q", "in": "query", "style": "form", "explode": true,
                   "schema": {"type": "array", "items": {"type": "string"}}})
        );
    }

    #[test]
    fn tsv_warns_and_is_treated_as_csv() {
        let (param, diags) = query_array(Some("tsv"), "query");
        assert_eq!(
            (&param["style"], &param["explode"]),
            (&json!("form"), &json!(false))
        );
        assert_eq!(
            pointers(&diags),
            ["/paths/~1p/post/parameters/0/collectionFormat"]
        );
        assert!(diags[0].message.contains("tsv"));
    }

    #[test]
    fn nested_items_collection_format_is_dropped_with_warning() {
        let doc = with_op(json!({
            "parameters": [{
                "name": "m", "in": "query", "type": "array",
                "items": {"type": "array", "collectionFormat": "pipes",
                          "items": {"type": "integer", "minimum": 1}}
            }],
            "responses": {}
        }));
        let (out, diags) = run(doc);
        assert_eq!(
            op_of(&out)["parameters"][0]["schema"],
            json!({"type": "array", "items": {"type": "array",
                   "items": {"type": "integer", "minimum": 1}}})
        );
        assert_eq!(
            pointers(&diags),
            ["/paths/~1p/post/parameters/0/items/collectionFormat"]
        );
    }

    #[test]
    fn parameter_keywords_move_into_schema() {
        let doc = with_op(json!({
            "parameters": [{
                "name": "limit", "in": "query", "description": "max", "required": false,
                "allowEmptyValue": true, "type": "integer", "format": "int32",
                "minimum": 1, "maximum": 100, "exclusiveMaximum": true, "default": 10,
                "multipleOf": 1, "x-nullable": true, "x-example": 20, "x-extra": "kept"
            }, {
                "name": "s", "in": "header", "type": "string", "enum": ["a", "b"],
                "minLength": 1, "maxLength": 2, "pattern": "^[ab]$"
            }],
            "responses": {}
        }));
        let (out, diags) = run(doc);
        assert!(diags.is_empty());
        assert_eq!(
            op_of(&out)["parameters"],
            json!([{
                "name": "limit", "in": "query", "description": "max", "required": false,
                "allowEmptyValue": true,
                "schema": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 100,
                           "exclusiveMaximum": true, "default": 10, "multipleOf": 1,
                           "nullable": true},
                "example": 20,
                "x-extra": "kept"
            }, {
                "name": "s", "in": "header",
                "schema": {"type": "string", "enum": ["a", "b"], "minLength": 1,
                           "maxLength": 2, "pattern": "^[ab]$"}
            }])
        );
    }

    #[test]
    fn security_definitions_of_all_kinds() {
        let doc = json!({
            "swagger": "2.0", "paths": {},
            "securityDefinitions": {
                "basic": {"type": "basic", "description": "user/pass"},
                "key": {"type": "apiKey", "name": "api_key", "in": "query"},
                "implicit": {"type": "oauth2", "flow": "implicit",
                             "authorizationUrl": "https://a/auth", "scopes": {"read": "r"}},
                "password": {"type": "oauth2", "flow": "password",
                             "tokenUrl": "https://a/token", "scopes": {}},
                "app": {"type": "oauth2", "flow": "application",
                        "tokenUrl": "https://a/token", "x-ext": 1},
                "code": {"type": "oauth2", "flow": "accessCode",
                         "authorizationUrl": "https://a/auth", "tokenUrl": "https://a/token",
                         "scopes": {"w": "write"}}
            }
        });
        let (out, diags) = run(doc);
        assert!(diags.is_empty());
        assert_eq!(
            out["components"]["securitySchemes"],
            json!({
                "basic": {"type": "http", "scheme": "basic", "description": "user/pass"},
                "key": {"type": "apiKey", "name": "api_key", "in": "query"},
                "implicit": {"type": "oauth2", "flows": {"implicit": {
                    "authorizationUrl": "https://a/auth", "scopes": {"read": "r"}}}},
                "password": {"type": "oauth2", "flows": {"password": {
                    "tokenUrl": "https://a/token", "scopes": {}}}},
                "app": {"type": "oauth2", "x-ext": 1, "flows": {"clientCredentials": {
                    "tokenUrl": "https://a/token", "scopes": {}}}},
                "code": {"type": "oauth2", "flows": {"authorizationCode": {
                    "authorizationUrl": "https://a/auth", "tokenUrl": "https://a/token",
                    "scopes": {"w": "write"}}}}
            })
        );
    }

    #[test]
    fn bad_security_definitions_are_skipped_with_warnings() {
        let doc = json!({
            "swagger": "2.0", "paths": {},
            "securityDefinitions": {
                "weird": {"type": "digest"},
                "noflow": {"type": "oauth2"},
                "badflow": {"type": "oauth2", "flow": "device"},
                "nourl": {"type": "oauth2", "flow": "implicit"},
                "str": "nope"
            }
        });
        let (out, diags) = run(doc);
        assert_eq!(
            out["components"]["securitySchemes"],
            json!({"nourl": {"type": "oauth2", "flows": {"implicit": {"scopes": {}}}}})
        );
        assert_eq!(
            pointers(&diags),
            [
                "/securityDefinitions/weird/type",
                "/securityDefinitions/noflow",
                "/securityDefinitions/badflow/flow",
                "/securityDefinitions/nourl",
                "/securityDefinitions/str"
            ]
        );
    }

    #[test]
    fn refs_are_rewritten_everywhere() {
        let doc = json!({
            "swagger": "2.0",
            "paths": {
                "/a": {
                    "post": {
                        "parameters": [
                            {"$ref": "#/parameters/limit"},
                            {"$ref": "#/parameters/petBody"},
                            {"$ref": "other.yaml#/parameters/shared"}
                        ],
                        "responses": {
                            "200": {"description": "ok", "schema": {
                                "type": "object",
                                "properties": {
                                    "a": {"$ref": "#/definitions/a~1b"},
                                    "b": {"$ref": "other.yaml#/definitions/Thing"},
                                    "c": {"$ref": "#/definitions/Pet/properties/name"},
                                    "d": {"$ref": "https://x.io/s.json"}
                                }
                            }},
                            "404": {"$ref": "other.yaml#/responses/NotFound"}
                        }
                    }
                },
                "/b": {"$ref": "other.yaml#/paths/~1b"}
            },
            "parameters": {
                "limit": {"name": "limit", "in": "query", "type": "integer"},
                "petBody": {"name": "pet", "in": "body", "schema": {"$ref": "#/definitions/Pet"}},
                "alias": {"$ref": "#/parameters/limit"}
            }
        });
        let (out, diags) = run(doc);
        assert!(diags.is_empty(), "{diags:?}");
        let op = &out["paths"]["/a"]["post"];
        assert_eq!(
            op["parameters"],
            json!([
                {"$ref": "#/components/parameters/limit"},
                {"$ref": "other.yaml#/components/parameters/shared"}
            ])
        );
        assert_eq!(
            op["requestBody"],
            json!({"$ref": "#/components/requestBodies/petBody"})
        );
        assert_eq!(
            op["responses"]["200"]["content"]["application/json"]["schema"]["properties"],
            json!({
                "a": {"$ref": "#/components/schemas/a~1b"},
                "b": {"$ref": "other.yaml#/components/schemas/Thing"},
                "c": {"$ref": "#/components/schemas/Pet/properties/name"},
                "d": {"$ref": "https://x.io/s.json"}
            })
        );
        assert_eq!(
            op["responses"]["404"],
            json!({"$ref": "other.yaml#/components/responses/NotFound"})
        );
        assert_eq!(out["paths"]["/b"], json!({"$ref": "other.yaml#/paths/~1b"}));
        assert_eq!(
            out["components"],
            json!({
                "parameters": {
                    "limit": {"name": "limit", "in": "query", "schema": {"type": "integer"}},
                    "alias": {"$ref": "#/components/parameters/limit"}
                },
                "requestBodies": {
                    "petBody": {
                        "content": {"application/json": {
                            "schema": {"$ref": "#/components/schemas/Pet"}
                        }},
                        "x-codegen-request-body-name": "pet"
                    }
                }
            })
        );
    }

    #[test]
    fn global_form_data_parameter_refs_are_merged_into_the_form() {
        let doc = json!({
            "swagger": "2.0",
            "paths": {"/up": {"post": {
                "parameters": [
                    {"$ref": "#/parameters/file"},
                    {"name": "title", "in": "formData", "type": "string", "required": true}
                ],
                "responses": {}
            }}},
            "parameters": {
                "file": {"name": "file", "in": "formData", "type": "file", "description": "data"}
            }
        });
        let (out, diags) = run(doc);
        assert!(diags.is_empty());
        assert_eq!(out.get("components"), None);
        assert_eq!(
            out["paths"]["/up"]["post"],
            json!({
                "requestBody": {
                    "required": true,
                    "content": {"multipart/form-data": {"schema": {
                        "type": "object",
                        "properties": {
                            "file": {"description": "data", "type": "string", "format": "binary"},
                            "title": {"type": "string"}
                        },
                        "required": ["title"]
                    }}}
                },
                "responses": {}
            })
        );
    }

    #[test]
    fn responses_use_produces_examples_and_headers() {
        let doc = json!({
            "swagger": "2.0",
            "produces": ["application/xml"],
            "paths": {"/r": {
                "get": {
                    "produces": ["application/json", "text/csv"],
                    "responses": {
                        "200": {
                            "schema": {"type": "array", "items": {"type": "string"}},
                            "examples": {"application/json": ["a"], "text/plain": "x"},
                            "headers": {
                                "X-Rate": {"type": "integer", "description": "limit"},
                                "X-Ids": {"type": "array", "items": {"type": "string"},
                                          "collectionFormat": "pipes"}
                            }
                        },
                        "204": {"description": "empty"},
                        "x-note": "kept"
                    }
                },
                "put": {"responses": {"200": {"description": "xml", "schema": {"type": "string"}}}}
            }}
        });
        let (out, diags) = run(doc);
        assert_eq!(
            out["paths"]["/r"]["get"]["responses"],
            json!({
                "200": {
                    "description": "",
                    "headers": {
                        "X-Rate": {"description": "limit", "schema": {"type": "integer"}},
                        "X-Ids": {"schema": {"type": "array", "items": {"type": "string"}}}
                    },
                    "content": {
                        "application/json": {
                            "schema": {"type": "array", "items": {"type": "string"}},
                            "example": ["a"]
                        },
                        "text/csv": {"schema": {"type": "array", "items": {"type": "string"}}}
                    }
                },
                "204": {"description": "empty"},
                "x-note": "kept"
            })
        );
        assert_eq!(
            out["paths"]["/r"]["put"]["responses"]["200"],
            json!({"description": "xml", "content": {
                "application/xml": {"schema": {"type": "string"}}
            }})
        );
        assert_eq!(
            pointers(&diags),
            [
                "/paths/~1r/get/responses/200/headers/X-Ids/collectionFormat",
                "/paths/~1r/get/responses/200/examples/text~1plain"
            ]
        );
    }

    #[test]
    fn response_examples_without_schema_are_dropped_with_warning() {
        let doc = with_op(json!({"responses": {
            "200": {"description": "ok", "examples": {"application/json": {}}}
        }}));
        let (out, diags) = run(doc);
        assert_eq!(
            op_of(&out)["responses"]["200"],
            json!({"description": "ok"})
        );
        assert_eq!(pointers(&diags), ["/paths/~1p/post/responses/200/examples"]);
    }

    #[test]
    fn schemas_convert_nullable_file_and_discriminator_recursively() {
        let doc = json!({
            "swagger": "2.0", "paths": {},
            "definitions": {
                "Pet": {
                    "type": "object",
                    "discriminator": "kind",
                    "x-nullable": true,
                    "properties": {
                        "kind": {"type": "string"},
                        "photo": {"type": "file"},
                        "tags": {"type": "array", "items": {"type": "string", "x-nullable": true}},
                        "meta": {"type": "object", "additionalProperties": {"type": "file"}},
                        "flags": {"type": "object", "additionalProperties": true},
                        "owner": {"$ref": "#/definitions/Owner", "x-nullable": false}
                    }
                },
                "Cat": {
                    "allOf": [{"$ref": "#/definitions/Pet"}, {"x-nullable": true}],
                    "not": {"type": "file"}
                }
            }
        });
        let (out, diags) = run(doc);
        assert!(diags.is_empty());
        assert_eq!(
            out["components"]["schemas"],
            json!({
                "Pet": {
                    "type": "object",
                    "discriminator": {"propertyName": "kind"},
                    "nullable": true,
                    "properties": {
                        "kind": {"type": "string"},
                        "photo": {"type": "string", "format": "binary"},
                        "tags": {"type": "array", "items": {"type": "string", "nullable": true}},
                        "meta": {"type": "object", "additionalProperties": {
                            "type": "string", "format": "binary"}},
                        "flags": {"type": "object", "additionalProperties": true},
                        "owner": {"$ref": "#/components/schemas/Owner"}
                    }
                },
                "Cat": {
                    "allOf": [{"$ref": "#/components/schemas/Pet"}, {"nullable": true}],
                    "not": {"type": "string", "format": "binary"}
                }
            })
        );
    }

    #[test]
    fn file_parameter_outside_form_becomes_binary_string() {
        let doc = with_op(json!({
            "parameters": [{"name": "f", "in": "header", "type": "file"}],
            "responses": {"200": {"description": "raw", "schema": {"type": "file"}}}
        }));
        let (out, _) = run(doc);
        let op = op_of(&out);
        assert_eq!(
            op["parameters"][0]["schema"],
            json!({"type": "string", "format": "binary"})
        );
        assert_eq!(
            op["responses"]["200"]["content"]["application/json"]["schema"],
            json!({"type": "string", "format": "binary"})
        );
    }

    #[test]
    fn path_level_parameters() {
        let doc = json!({
            "swagger": "2.0",
            "paths": {"/items/{id}": {
                "parameters": [
                    {"name": "id", "in": "path", "required": true, "type": "string"},
                    {"name": "item", "in": "body", "schema": {"type": "object"}}
                ],
                "put": {"responses": {}},
                "post": {
                    "parameters": [{"name": "other", "in": "body", "schema": {"type": "string"}}],
                    "responses": {}
                },
                "x-path-ext": true
            }}
        });
        let (out, diags) = run(doc);
        assert!(diags.is_empty());
        assert_eq!(
            out["paths"]["/items/{id}"],
            json!({
                "parameters": [
                    {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}
                ],
                "put": {
                    "requestBody": {
                        "content": {"application/json": {"schema": {"type": "object"}}},
                        "x-codegen-request-body-name": "item"
                    },
                    "responses": {}
                },
                "post": {
                    "requestBody": {
                        "content": {"application/json": {"schema": {"type": "string"}}},
                        "x-codegen-request-body-name": "other"
                    },
                    "responses": {}
                },
                "x-path-ext": true
            })
        );
    }

    #[test]
    fn path_level_form_data_merges_with_operation_form_data() {
        let doc = json!({
            "swagger": "2.0",
            "paths": {"/f": {
                "parameters": [
                    {"name": "a", "in": "formData", "type": "string"},
                    {"name": "b", "in": "formData", "type": "string"}
                ],
                "post": {
                    "parameters": [{"name": "b", "in": "formData", "type": "integer"}],
                    "responses": {}
                },
                "put": {
                    "parameters": [{"name": "x", "in": "body", "schema": {}}],
                    "responses": {}
                }
            }}
        });
        let (out, _) = run(doc);
        let item = &out["paths"]["/f"];
        assert_eq!(item.get("parameters"), None);
        assert_eq!(
            item["post"]["requestBody"]["content"][FORM_URLENCODED]["schema"]["properties"],
            json!({"a": {"type": "string"}, "b": {"type": "integer"}})
        );
        assert_eq!(
            item["put"]["requestBody"]["content"],
            json!({"application/json": {"schema": {}}})
        );
    }

    #[test]
    fn conflicting_body_parameters_warn() {
        let doc = with_op(json!({
            "parameters": [
                {"name": "a", "in": "body", "schema": {"type": "string"}},
                {"name": "b", "in": "body", "schema": {"type": "integer"}},
                {"name": "c", "in": "formData", "type": "string"}
            ],
            "responses": {}
        }));
        let (out, diags) = run(doc);
        assert_eq!(
            op_of(&out)["requestBody"]["content"]["application/json"]["schema"],
            json!({"type": "string"})
        );
        assert_eq!(
            pointers(&diags),
            [
                "/paths/~1p/post/parameters/1",
                "/paths/~1p/post/parameters/2"
            ]
        );
    }

    #[test]
    fn malformed_input_warns_without_panicking() {
        let (out, diags) = run(json!({"swagger": "2.0", "paths": ["/a"]}));
        assert_eq!(out, json!({"openapi": "3.0.3", "paths": {}}));
        assert_eq!(pointers(&diags), ["/paths"]);

        let doc = json!({
            "swagger": "2.0",
            "host": 7,
            "schemes": "https",
            "consumes": [1, "application/json"],
            "paths": {
                "/a": {
                    "get": "not an operation",
                    "post": {"parameters": {"name": "x"}, "responses": []},
                    "put": {"parameters": [
                        3,
                        {"in": "query", "type": "string"},
                        {"name": "n", "in": "cookie", "type": "string"},
                        {"$ref": 5}
                    ], "responses": {"200": "ok"}}
                },
                "/b": "nope"
            },
            "definitions": {"A": {"properties": [], "allOf": {}, "x-nullable": "yes",
                                  "discriminator": 3}, "B": 4},
            "parameters": 1,
            "responses": {"R": []}
        });
        let (out, diags) = run(doc);
        assert_eq!(
            out,
            json!({
                "openapi": "3.0.3",
                "paths": {"/a": {"post": {}, "put": {"responses": {}}}},
                "components": {"schemas": {"A": {"properties": {}}, "B": {}}}
            })
        );
        assert_eq!(
            pointers(&diags),
            [
                "/consumes/0",
                "/host",
                "/schemes",
                "/paths/~1a/get",
                "/paths/~1a/post/parameters",
                "/paths/~1a/post/responses",
                "/paths/~1a/put/parameters/0",
                "/paths/~1a/put/parameters/1",
                "/paths/~1a/put/parameters/2",
                "/paths/~1a/put/parameters/3/$ref",
                "/paths/~1a/put/responses/200",
                "/paths/~1b",
                "/definitions/A/properties",
                "/definitions/A/allOf",
                "/definitions/A/x-nullable",
                "/definitions/A/discriminator",
                "/definitions/B",
                "/responses/R",
                "/parameters"
            ]
        );
        assert!(diags.iter().all(|d| d.severity == Severity::Warning));
    }

    #[test]
    fn non_object_document_is_returned_unchanged() {
        let (out, diags) = run(json!(["swagger"]));
        assert_eq!(out, json!(["swagger"]));
        assert_eq!(pointers(&diags), [""]);
    }

    #[test]
    fn rewrite_ref_keeps_non_2_0_refs() {
        let mut diags = Vec::new();
        let up = Upgrader::new("f", &mut diags, &Map::new());
        assert_eq!(up.rewrite_ref("#/definitions"), "#/components/schemas");
        assert_eq!(
            up.rewrite_ref("#/components/schemas/A"),
            "#/components/schemas/A"
        );
        assert_eq!(up.rewrite_ref("#/paths/~1a"), "#/paths/~1a");
        assert_eq!(up.rewrite_ref("#"), "#");
        assert_eq!(up.rewrite_ref("a.json"), "a.json");
        assert_eq!(
            up.rewrite_ref("a.json#/securityDefinitions/k"),
            "a.json#/components/securitySchemes/k"
        );
    }
}
