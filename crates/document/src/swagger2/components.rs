//! `components` from the global `definitions`, `parameters` and
//! `responses` (body parameters become request bodies).

use super::bodies::effective_media;
use super::*;

impl Upgrader<'_> {
    /// `components` from the global sections; empty maps are left out.
    pub(super) fn components(&mut self, sections: Sections) -> Map<String, Value> {
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
    pub(super) fn schema_map(&mut self, value: Value, pointer: &str) -> Map<String, Value> {
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
            if let Some(converted) = self.response(response, &pointer, &produces, &[]) {
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
}
