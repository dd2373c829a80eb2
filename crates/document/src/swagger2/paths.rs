//! Path items and operations: parameters merged with the path item's,
//! bodies, responses, servers.

use super::bodies::effective_media;
use super::bodies::merge_body_parts;
use super::responses::Produces;
use super::*;

impl Upgrader<'_> {
    /// `paths`, item by item.
    pub(super) fn paths(&mut self, value: Option<Value>) -> Value {
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
    pub(super) fn operation(
        &mut self,
        value: Value,
        pointer: &str,
        shared: &BodyParts,
    ) -> Option<Value> {
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
        // Declared media types (the operation's, else the document's):
        // what a response without a schema is in too (see `responses`).
        let declared_produces = own_produces
            .clone()
            .or_else(|| self.produces.clone())
            .unwrap_or_default();
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
                    let media = Produces {
                        effective: &produces,
                        declared: &declared_produces,
                    };
                    if let Some(responses) = self.responses(value, &responses_pointer, media) {
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
}
