//! `requestBody` from body and formData parameters, over the media types
//! `consumes` names.

use super::parameters::split_simple;
use super::schemas::is_array_schema;
use super::schemas::is_file_type;
use super::*;
use openapi2mcp_model::wire::media::essence;

impl Upgrader<'_> {
    /// The request body of an operation, from its body or formData params.
    pub(super) fn operation_body(
        &mut self,
        parts: BodyParts,
        consumes: &[String],
    ) -> Option<Value> {
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
    pub(super) fn request_body(
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
            if essence(&media) == FORM_URLENCODED && !encoding.is_empty() {
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
}

/// The request body's formData parameters: path-level ones apply unless
/// the operation defines its own body; formData parameters merge by name.
pub(super) fn merge_body_parts(shared: &BodyParts, own: BodyParts) -> BodyParts {
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
            .filter(|m| essence(m) == wanted)
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
        .filter(|m| matches!(essence(m).as_str(), MULTIPART | FORM_URLENCODED))
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
pub(super) fn media_content(
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
pub(super) fn effective_media(
    own: Option<Vec<String>>,
    global: &Option<Vec<String>>,
) -> Vec<String> {
    let list = own.or_else(|| global.clone()).unwrap_or_default();
    if list.is_empty() {
        vec![DEFAULT_MEDIA_TYPE.into()]
    } else {
        list
    }
}
