use super::*;

fn header(name: &str, scalar: &str) -> Candidate {
    Candidate {
        name: name.into(),
        location: Location::Header,
        explicit: Explicit::Unset,
        scalar: Some(scalar.into()),
        format: None,
    }
}

fn with(mut c: Candidate, explicit: Explicit) -> Candidate {
    c.explicit = explicit;
    c
}

fn auto() -> Routing {
    Routing::default()
}

fn names(candidates: &[Candidate], routing: &Routing) -> Vec<Option<String>> {
    decide(candidates, routing).names
}

#[test]
fn routing_headers_of_scalar_types_are_mirrored_under_their_names() {
    let got = names(
        &[
            header("X-Region", "string"),
            header("Tenant-Id", "integer"),
            header("ConsistencyLevel", "string"),
            header("X-Dry-Run", "boolean"),
        ],
        &auto(),
    );
    assert_eq!(
        got,
        ["X-Region", "Tenant-Id", "ConsistencyLevel", "X-Dry-Run"].map(|n| Some(n.to_string()))
    );
}

#[test]
fn numbers_arrays_objects_and_untyped_headers_are_not_mirrored() {
    let mut untyped = header("X-Untyped", "string");
    untyped.scalar = None;
    let got = names(
        &[
            header("X-Ratio", "number"),
            untyped,
            header("X-Region", "string"),
        ],
        &auto(),
    );
    assert_eq!(got, vec![None, None, Some("X-Region".into())]);
}

#[test]
fn only_header_parameters_are_mirrored_by_the_rule() {
    let mut query = header("region", "string");
    query.location = Location::Query;
    let mut path = header("tenant", "string");
    path.location = Location::Path;
    assert_eq!(names(&[query, path], &auto()), vec![None, None]);
}

#[test]
fn credentials_are_never_mirrored_by_the_rule() {
    for name in [
        "Authorization",
        "proxy-authorization",
        "Cookie",
        "X-Auth-Token",
        "x-authtoken",
        "X-Access-Token",
        "X-Client-Secret",
        "X-Password",
        "X-API-Key",
        "x-api-key",
        "X_API_KEY",
        "XApiKey",
        "apikey",
        "Ocp-Apim-Subscription-Key",
        "x-functions-key",
        "X-Hub-Signature-256",
        "X-Session-Id",
        "sessionid",
        "X-Auth-Email",
        "X-CSRF-Token",
        "X-Amz-Security-Token",
    ] {
        assert!(secret_by_name(name), "{name} should be a secret");
        assert_eq!(
            names(&[header(name, "string")], &auto()),
            vec![None],
            "{name}"
        );
    }
}

#[test]
fn secret_words_need_a_word_boundary() {
    // A `key` alone, and words merely containing `auth`, are not secrets.
    for name in [
        "X-Region",
        "Idempotency-Key-Scope",
        "Partition-Key",
        "X-Author",
        "X-Monkey",
        "ConsistencyLevel",
        "X-Tenant",
        "Accept-Language",
    ] {
        assert!(!secret_by_name(name), "{name} is no secret");
    }
}

#[test]
fn security_scheme_headers_are_credentials_whatever_their_name() {
    let schemes = BTreeMap::from([
        (
            "key".to_string(),
            SecurityScheme::ApiKey {
                name: "X-Tenant-Routing".into(),
                location: Location::Header,
            },
        ),
        (
            "q".to_string(),
            SecurityScheme::ApiKey {
                name: "region".into(),
                location: Location::Query,
            },
        ),
    ]);
    let routing = Routing {
        mode: McpHeaderMode::Auto,
        schemes: SchemeNames::of(&schemes),
    };
    // Same name, another location: not the scheme's.
    let got = names(
        &[
            header("x-tenant-routing", "string"),
            header("Region", "string"),
        ],
        &routing,
    );
    assert_eq!(got, vec![None, Some("Region".into())]);
    // Not even when the document asks for it; it says why.
    let decision = decide(
        &[with(
            header("X-Tenant-Routing", "string"),
            Explicit::Name("Tenant".into()),
        )],
        &routing,
    );
    assert_eq!(decision.names, vec![None]);
    assert!(
        decision.warnings[0].1.contains("security scheme"),
        "{:?}",
        decision.warnings
    );
}

#[test]
fn password_formats_and_per_request_headers_are_not_mirrored() {
    let mut pass = header("X-Pin", "string");
    pass.format = Some("password".into());
    let got = names(
        &[
            pass,
            header("If-Match", "string"),
            header("if-none-match", "string"),
            header("Idempotency-Key", "string"),
            header("traceparent", "string"),
            header("X-Request-ID", "string"),
            header("X-Correlation-Id", "string"),
            header("X-Trace-Id", "string"),
            header("X-B3-SpanId", "string"),
            header("x-requestid", "string"),
        ],
        &auto(),
    );
    assert_eq!(got, vec![None; 10]);
    for routing in ["X-Tenant-Id", "X-Region", "X-Shard-Id", "X-Id"] {
        assert!(!per_request(routing), "{routing}");
    }
}

#[test]
fn names_become_tokens_and_clashes_keep_the_first() {
    assert_eq!(to_token("X Region"), Some("X-Region".into()));
    assert_eq!(to_token("Zone:Primary"), Some("Zone-Primary".into()));
    assert_eq!(to_token("Région"), Some("R-gion".into()));
    assert_eq!(to_token("  "), None);
    assert!(is_token("X-Region") && !is_token("") && !is_token("A B"));
    let decision = decide(
        &[header("X-Region", "string"), header("x-region", "string")],
        &auto(),
    );
    assert_eq!(decision.names, vec![Some("X-Region".into()), None]);
    assert_eq!(decision.warnings.len(), 1);
    assert_eq!(decision.warnings[0].0, 1);
    assert!(
        decision.warnings[0].1.contains("X-Region"),
        "{:?}",
        decision.warnings
    );
}

#[test]
fn the_documents_names_come_first_and_override_the_rule() {
    let mut query = header("zone", "string");
    query.location = Location::Query;
    let candidates = [
        // The rule would take `Region` for this one...
        header("Region", "string"),
        // ...but the document gives it to a later parameter.
        with(
            header("X-Location", "string"),
            Explicit::Name("region".into()),
        ),
        // A secret-looking name the document says is no secret.
        with(header("X-Session-Shard", "integer"), Explicit::Derived),
        // A routing-looking header the document says never to mirror.
        with(header("X-Tenant", "string"), Explicit::Never),
        // A query parameter the document mirrors.
        with(query, Explicit::Name("Zone".into())),
    ];
    let decision = decide(&candidates, &auto());
    assert_eq!(
        decision.names,
        vec![
            None,
            Some("region".into()),
            Some("X-Session-Shard".into()),
            None,
            Some("Zone".into()),
        ]
    );
    assert_eq!(decision.warnings.len(), 1, "{:?}", decision.warnings);
    assert_eq!(decision.warnings[0].0, 0);
}

#[test]
fn the_documents_names_are_validated() {
    let candidates = [
        with(header("a", "string"), Explicit::Name("My Region".into())),
        with(header("b", "string"), Explicit::Name(String::new())),
        with(header("c", "string"), Explicit::Malformed("a number")),
        with(header("d", "number"), Explicit::Name("D".into())),
        with(header("Authorization", "string"), Explicit::Derived),
        with(header("e", "string"), Explicit::Name("Dup".into())),
        with(header("f", "string"), Explicit::Name("DUP".into())),
    ];
    let decision = decide(&candidates, &auto());
    assert_eq!(
        decision.names,
        vec![None, None, None, None, None, Some("Dup".into()), None]
    );
    let warned: Vec<usize> = decision.warnings.iter().map(|(i, _)| *i).collect();
    assert_eq!(warned, vec![0, 1, 2, 3, 4, 6], "{:?}", decision.warnings);
    assert!(decision.warnings[0].1.contains("RFC 9110"));
    assert!(decision.warnings[2].1.contains("not a number"));
    assert!(decision.warnings[3].1.contains("number"));
    assert!(decision.warnings[4].1.contains("credentials"));
}

#[test]
fn explicit_mode_applies_only_the_documents_names_and_none_nothing() {
    let candidates = [
        header("X-Region", "string"),
        with(
            header("X-Tenant", "string"),
            Explicit::Name("Tenant".into()),
        ),
    ];
    let explicit = Routing {
        mode: McpHeaderMode::Explicit,
        ..Routing::default()
    };
    assert_eq!(
        names(&candidates, &explicit),
        vec![None, Some("Tenant".into())]
    );
    let none = Routing {
        mode: McpHeaderMode::None,
        ..Routing::default()
    };
    let decision = decide(&candidates, &none);
    assert_eq!(decision.names, vec![None, None]);
    assert!(decision.warnings.is_empty());
}

/// Through the tool model: a document's parameters become annotated
/// argument schemas.
mod model {
    use serde_json::{Value, json};

    use super::McpHeaderMode;
    use crate::{BuildOptions, build};
    use openapi2mcp_document::Document;

    fn doc(version: &str, params: Value) -> Document {
        Document::from_value(
            "t.yaml",
            json!({
                "openapi": version,
                "info": {"title": "t", "version": "1"},
                "paths": {"/items/{id}": {"get": {"operationId": "getItem", "parameters": params,
                    "responses": {"200": {"description": "ok"}}}}},
                "components": {
                    "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Gateway-Pass"}},
                    "schemas": {
                        "Region": {"type": "string", "enum": ["eu", "us"]},
                        "MaybeRegion": {"type": "string", "nullable": true}
                    }
                }
            }),
        )
        .unwrap()
    }

    fn schema_with(doc: &Document, mode: McpHeaderMode) -> (Value, Vec<String>) {
        let options = BuildOptions {
            mcp_headers: mode,
            ..BuildOptions::default()
        };
        let (catalog, diags) = build(doc, &options);
        let warnings = diags.iter().map(|d| d.to_string()).collect();
        (catalog.tools[0].input_schema.clone(), warnings)
    }

    fn header(name: &str, schema: Value) -> Value {
        json!({"name": name, "in": "header", "schema": schema})
    }

    fn annotation(schema: &Value, arg: &str) -> Option<String> {
        schema["properties"][arg]
            .get("x-mcp-header")
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    #[test]
    fn header_parameters_get_the_annotation_and_a_referenced_type_is_written_beside_it() {
        let d = doc(
            "3.0.3",
            json!([
                {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                header("X-Region", json!({"$ref": "#/components/schemas/Region"})),
                header("X-Shard", json!({"type": "integer"})),
                header("X-Maybe", json!({"$ref": "#/components/schemas/MaybeRegion"})),
                header("X-Nullable", json!({"type": "string", "nullable": true})),
                header("X-Ratio", json!({"type": "number"})),
                header("X-Tags", json!({"type": "array", "items": {"type": "string"}})),
                {"name": "X-Filter", "in": "header", "content": {"application/json": {"schema": {"type": "string"}}}},
                header("X-Gateway-Pass", json!({"type": "string"})),
                header("X-Auth-Token", json!({"type": "string"})),
                {"name": "q", "in": "query", "schema": {"type": "string"}},
            ]),
        );
        let (schema, warnings) = schema_with(&d, McpHeaderMode::Auto);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(annotation(&schema, "X-Region").as_deref(), Some("X-Region"));
        // SEP-2243 clients read the type on the annotated property itself.
        assert_eq!(schema["properties"]["X-Region"]["type"], "string");
        assert_eq!(annotation(&schema, "X-Shard").as_deref(), Some("X-Shard"));
        for arg in [
            "id",
            "X-Maybe",
            "X-Nullable",
            "X-Ratio",
            "X-Tags",
            "X-Filter",
            "X-Gateway-Pass",
            "X-Auth-Token",
            "q",
        ] {
            assert_eq!(annotation(&schema, arg), None, "{arg}: {schema}");
        }
        // The other modes.
        let (none, _) = schema_with(&d, McpHeaderMode::None);
        let (explicit, _) = schema_with(&d, McpHeaderMode::Explicit);
        for s in [none, explicit] {
            assert!(!s.to_string().contains("x-mcp-header"), "{s}");
        }
    }

    #[test]
    fn the_documents_extension_decides_and_is_validated_where_written() {
        let d = doc(
            "3.1.0",
            json!([
                {"name": "id", "in": "path", "required": true, "schema": {"type": "string"},
                 "x-mcp-header": "Item"},
                {"name": "X-Region", "in": "header", "schema": {"type": "string"}, "x-mcp-header": false},
                {"name": "X-Session-Shard", "in": "header", "schema": {"type": "integer"}, "x-mcp-header": true},
                {"name": "X-Bad", "in": "header", "schema": {"type": "string"}, "x-mcp-header": "Bad Name"},
                {"name": "X-Gateway-Pass", "in": "header", "schema": {"type": "string"}, "x-mcp-header": "Pass"},
            ]),
        );
        for mode in [McpHeaderMode::Auto, McpHeaderMode::Explicit] {
            let (schema, warnings) = schema_with(&d, mode);
            assert_eq!(annotation(&schema, "id").as_deref(), Some("Item"));
            assert_eq!(annotation(&schema, "X-Region"), None);
            assert_eq!(
                annotation(&schema, "X-Session-Shard").as_deref(),
                Some("X-Session-Shard")
            );
            assert_eq!(annotation(&schema, "X-Bad"), None);
            assert_eq!(annotation(&schema, "X-Gateway-Pass"), None);
            assert_eq!(warnings.len(), 2, "{warnings:?}");
            // Each warning points at the parameter.
            assert!(
                warnings[0].contains("Bad Name") && warnings[0].contains("parameters/3"),
                "{warnings:?}"
            );
            assert!(
                warnings[1].contains("security scheme") && warnings[1].contains("parameters/4"),
                "{warnings:?}"
            );
        }
    }

    #[test]
    fn a_summarized_schema_keeps_its_annotations() {
        let big: serde_json::Map<String, Value> = (0..60)
            .map(|i| {
                (
                    format!("field_{i}"),
                    json!({"type": "object", "description": "x".repeat(80),
                        "properties": {"a": {"type": "object", "properties": {"b": {"type": "string", "description": "y".repeat(80)}}}}}),
                )
            })
            .collect();
        let d = Document::from_value(
            "t.yaml",
            json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                "paths": {"/things": {"post": {"operationId": "createThing",
                    "parameters": [{"name": "X-Tenant", "in": "header", "required": true, "schema": {"type": "string"}}],
                    "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": big}}}},
                    "responses": {"201": {"description": "ok"}}}}}}),
        )
        .unwrap();
        let options = BuildOptions {
            schema_budget: 1024,
            ..BuildOptions::default()
        };
        let tool = &build(&d, &options).0.tools[0];
        assert!(tool.input_full.is_some(), "the schema was summarized");
        assert_eq!(
            annotation(&tool.input_schema, "X-Tenant").as_deref(),
            Some("X-Tenant")
        );
    }
}
