//! Unit tests of the 2.0 upgrader, continued: security, `$ref`
//! rewriting, responses, schemas, path-level parameters and malformed
//! input. The helpers are the parent test module's.

use super::*;

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

#[test]
fn a_success_without_a_schema_is_in_the_declared_produces() {
    // httpbin's `/image`: an image answer has no schema in 2.0; its
    // `produces` is what `Accept` must offer (a strict API answers 406 to
    // `*/*`). Errors and empty answers get no content; undeclared
    // `produces` adds nothing.
    let doc = json!({
        "swagger": "2.0",
        "produces": ["application/json"],
        "paths": {
            "/image": {"get": {
                "produces": ["image/webp", "image/png"],
                "responses": {
                    "200": {"description": "An image."},
                    "204": {"description": "nothing"},
                    "404": {"description": "missing"}
                }
            }},
            "/status": {"get": {"responses": {"200": {"description": "up"}}}}
        }
    });
    let (out, _) = run(doc);
    let image = &out["paths"]["/image"]["get"]["responses"];
    assert_eq!(
        image["200"]["content"],
        json!({"image/webp": {}, "image/png": {}})
    );
    assert!(image["204"].get("content").is_none());
    assert!(image["404"].get("content").is_none());
    let status = &out["paths"]["/status"]["get"]["responses"]["200"];
    assert_eq!(status["content"], json!({"application/json": {}}));

    let undeclared = json!({
        "swagger": "2.0",
        "paths": {"/status": {"get": {"responses": {"200": {"description": "up"}}}}}
    });
    let (out, _) = run(undeclared);
    assert!(
        out["paths"]["/status"]["get"]["responses"]["200"]
            .get("content")
            .is_none()
    );
}
