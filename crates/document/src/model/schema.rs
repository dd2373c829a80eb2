//! Schema handles: where a schema object is, and the one way to read it
//! above the document layer. [`Schema::convert`] turns it into JSON
//! Schema 2020-12 (through [`crate::dialect`], the only place
//! that knows the OpenAPI dialects), handing each `$ref` to the caller
//! resolved; the typed queries (object properties, binary content,
//! "always an object") follow `$ref`s here, so no caller walks raw JSON.

use serde_json::Value;

use crate::dialect::{self, Direction};
use crate::pointer::escape_token;
use crate::refs::Located;
use crate::{Diagnostic, Document};

/// How deep `$ref`/`allOf` nesting is followed by the typed queries.
const MAX_DEPTH: usize = 16;

/// A schema object of the document (not converted).
#[derive(Clone)]
pub struct Schema<'d> {
    doc: &'d Document,
    node: Located<'d>,
}

/// A `$ref` met while converting, as the document resolves it.
pub enum RefTarget<'a> {
    /// The reference names this node.
    Found {
        /// Key of the file it points into.
        file: String,
        /// The decoded JSON pointer in that file.
        pointer: String,
    },
    /// The reference cannot even be resolved to a place.
    Broken {
        /// Key of the file the reference is written in.
        from: &'a str,
        /// The reference as written.
        reference: &'a str,
        /// Why, at the referring file.
        diagnostic: Diagnostic,
    },
}

/// A scalar schema's type and format (see [`Schema::scalar_type`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScalarType<'d> {
    /// `string`, `integer`, `number` or `boolean` (as written).
    pub name: &'d str,
    /// `format`, if any.
    pub format: Option<&'d str>,
}

/// An object schema's properties, `$ref`s followed and `allOf` merged.
pub struct ObjectShape<'d> {
    /// Property names and schemas; a later `allOf` part overrides.
    pub props: Vec<(String, Schema<'d>)>,
    /// Required names, each once.
    pub required: Vec<String>,
}

impl Document {
    /// The schema at `pointer` in file `file` (a key of the document, as
    /// [`RefTarget::Found`] gives it).
    pub fn schema_at(&self, file: &str, pointer: &str) -> Option<Schema<'_>> {
        let (file, value) = self.value_at(file, pointer)?;
        Some(Schema {
            doc: self,
            node: Located {
                file,
                pointer: pointer.to_string(),
                value,
            },
        })
    }

    /// JSON pointers of the root file's `components/schemas`, in order.
    pub fn component_schema_pointers(&self) -> Vec<String> {
        if let Some(schemas) = self.lazy_components("schemas") {
            return schemas
                .keys()
                .map(|name| format!("/components/schemas/{}", escape_token(name)))
                .collect();
        }
        match self.root().get("components").and_then(|c| c.get("schemas")) {
            Some(Value::Object(schemas)) => schemas
                .keys()
                .map(|name| format!("/components/schemas/{}", escape_token(name)))
                .collect(),
            _ => Vec::new(),
        }
    }
}

impl<'d> Schema<'d> {
    pub(super) fn new(doc: &'d Document, node: Located<'d>) -> Self {
        Self { doc, node }
    }

    /// A schema value that is not part of the document but is read as if
    /// written in its root file (its `$ref`s resolve there): for schemas
    /// built by hand, in tests and checks.
    pub fn inline(doc: &'d Document, value: &'d Value) -> Self {
        Self {
            doc,
            node: Located {
                file: doc.root_key(),
                pointer: String::new(),
                value,
            },
        }
    }

    /// Key of the file the schema is in.
    pub fn file_key(&self) -> &'d str {
        self.node.file
    }

    /// The JSON pointer to the schema in its file.
    pub fn pointer(&self) -> &str {
        &self.node.pointer
    }

    /// Converts the schema to JSON Schema 2020-12 for `direction`. Each
    /// `$ref` is handed to `on_ref`, resolved to a place, and replaced by
    /// what it returns.
    pub fn convert(
        &self,
        direction: Direction,
        on_ref: &mut dyn FnMut(RefTarget<'_>) -> String,
    ) -> Value {
        let doc = self.doc;
        let file = self.node.file;
        dialect::convert(
            self.node.value,
            doc.version,
            direction,
            &mut |reference| match doc.ref_target(file, reference) {
                Ok((file, pointer)) => on_ref(RefTarget::Found { file, pointer }),
                Err(message) => on_ref(RefTarget::Broken {
                    from: file,
                    reference,
                    diagnostic: Diagnostic::warning(doc.display_name(file), "", message),
                }),
            },
        )
    }

    /// `readOnly: true` on the schema itself.
    pub fn read_only(&self) -> bool {
        self.node.value.get("readOnly") == Some(&Value::Bool(true))
    }

    /// The schema's own `description`.
    pub fn description(&self) -> Option<&'d str> {
        self.node.value.get("description").and_then(Value::as_str)
    }

    /// The schema's own `type`, when it is one name.
    pub fn declared_type(&self) -> Option<&'d str> {
        self.node.value.get("type").and_then(Value::as_str)
    }

    /// The one scalar JSON type every value of the schema has, `$ref`s
    /// followed: `type` written as one name other than `object`, `array`
    /// or `null`, with the schema's `format`; `None` when the schema is
    /// nullable (3.0 `nullable`, a 3.1 type list), composed (`allOf`,
    /// `oneOf`, `anyOf`) or untyped. Decides which parameters may be
    /// mirrored into `Mcp-Param-*` headers.
    pub fn scalar_type(&self) -> Option<ScalarType<'d>> {
        let mut node = self.node.clone();
        for _ in 0..MAX_DEPTH {
            let v = node.value;
            if let Some(r) = v.get("$ref").and_then(Value::as_str) {
                node = self.doc.resolve_ref(node.file, r).ok()?;
                continue;
            }
            if v.get("nullable") == Some(&Value::Bool(true))
                || ["allOf", "oneOf", "anyOf"]
                    .iter()
                    .any(|k| v.get(*k).is_some())
            {
                return None;
            }
            let name = v.get("type").and_then(Value::as_str)?;
            if matches!(name, "object" | "array" | "null") {
                return None;
            }
            return Some(ScalarType {
                name,
                format: v.get("format").and_then(Value::as_str),
            });
        }
        None
    }

    /// The properties of an object schema (plain, `$ref`, or `allOf` of
    /// objects); `None` for anything that may not be an object, is
    /// nullable, or declares no property.
    pub fn object_shape(&self) -> Option<ObjectShape<'d>> {
        self.shape_at(0)
    }

    fn shape_at(&self, depth: usize) -> Option<ObjectShape<'d>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let node = &self.node;
        let v = node.value;
        if let Some(r) = v.get("$ref").and_then(Value::as_str) {
            let target = self.doc.resolve_ref(node.file, r).ok()?;
            return Schema::new(self.doc, target).shape_at(depth + 1);
        }
        if ["oneOf", "anyOf", "not", "if"]
            .iter()
            .any(|k| v.get(*k).is_some())
            || v.get("nullable") == Some(&Value::Bool(true))
        {
            return None;
        }
        match v.get("type") {
            None => {}
            Some(Value::String(t)) if t == "object" => {}
            _ => return None,
        }
        let mut shape = ObjectShape {
            props: Vec::new(),
            required: Vec::new(),
        };
        if let Some(all) = node.child("allOf") {
            let n = all.value.as_array()?.len();
            for i in 0..n {
                let part = Schema::new(self.doc, all.index(i)?).shape_at(depth + 1)?;
                shape.merge(part);
            }
        }
        if let Some(props) = node.child("properties") {
            let names = props.value.as_object()?.keys();
            let own = ObjectShape {
                props: names
                    .filter_map(|n| {
                        props
                            .child(n)
                            .map(|p| (n.clone(), Schema::new(self.doc, p)))
                    })
                    .collect(),
                required: Vec::new(),
            };
            shape.merge(own);
        }
        if let Some(Value::Array(req)) = v.get("required") {
            for r in req.iter().filter_map(Value::as_str) {
                if !shape.required.iter().any(|x| x == r) {
                    shape.required.push(r.to_string());
                }
            }
        }
        (!shape.props.is_empty()).then_some(shape)
    }

    /// Whether the schema (a form or multipart property) carries file
    /// content: `format: binary`, or a non-text `contentMediaType` without
    /// `contentEncoding`; an array of such.
    pub fn is_binary(&self) -> bool {
        let v = match self.node.value.get("$ref").and_then(Value::as_str) {
            Some(r) => match self.doc.resolve_ref(self.node.file, r) {
                Ok(t) => t.value,
                Err(_) => return false,
            },
            None => self.node.value,
        };
        let s = |k: &str| v.get(k).and_then(Value::as_str);
        if s("type") == Some("array") {
            return v.get("items").is_some_and(|items| {
                Schema::new(
                    self.doc,
                    Located {
                        file: self.node.file,
                        pointer: String::new(),
                        value: items,
                    },
                )
                .is_binary()
            });
        }
        s("format") == Some("binary")
            || (s("contentMediaType").is_some_and(|m| !m.starts_with("text/"))
                && s("contentEncoding").is_none())
    }

    /// The one value the schema asks for: `const`, a one-member `enum`,
    /// else `default` (a `$ref` followed). What can be sent where no
    /// argument supplies a value, such as a multipart part's documented
    /// header.
    pub fn fixed_value(&self) -> Option<&'d Value> {
        let v = match self.node.value.get("$ref").and_then(Value::as_str) {
            Some(r) => self.doc.resolve_ref(self.node.file, r).ok()?.value,
            None => self.node.value,
        };
        if let Some(c) = v.get("const") {
            return Some(c);
        }
        if let Some(Value::Array(members)) = v.get("enum")
            && let [only] = members.as_slice()
        {
            return Some(only);
        }
        v.get("default")
    }

    /// Whether every value the schema allows is a JSON object.
    pub fn is_object(&self) -> bool {
        self.object_at(0)
    }

    fn object_at(&self, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let node = &self.node;
        let v = node.value;
        if let Some(r) = v.get("$ref").and_then(Value::as_str) {
            return self
                .doc
                .resolve_ref(node.file, r)
                .is_ok_and(|t| Schema::new(self.doc, t).object_at(depth + 1));
        }
        if v.get("nullable") == Some(&Value::Bool(true)) {
            return false;
        }
        match v.get("type") {
            Some(Value::String(t)) => return t == "object",
            Some(Value::Array(ts)) => return ts.len() == 1 && ts[0] == "object",
            _ => {}
        }
        let branch = |list: &Located<'d>, i: usize| {
            list.index(i)
                .is_some_and(|b| Schema::new(self.doc, b).object_at(depth + 1))
        };
        for key in ["oneOf", "anyOf"] {
            if let Some(list) = node.child(key) {
                let n = list.value.as_array().map_or(0, Vec::len);
                return n > 0 && (0..n).all(|i| branch(&list, i));
            }
        }
        if let Some(list) = node.child("allOf") {
            let n = list.value.as_array().map_or(0, Vec::len);
            return (0..n).any(|i| branch(&list, i));
        }
        v.get("properties").is_some() || v.get("additionalProperties").is_some()
    }
}

impl<'d> ObjectShape<'d> {
    fn merge(&mut self, from: ObjectShape<'d>) {
        for (name, prop) in from.props {
            self.props.retain(|(n, _)| *n != name);
            self.props.push((name, prop));
        }
        for r in from.required {
            if !self.required.contains(&r) {
                self.required.push(r);
            }
        }
    }
}
