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
        ],
        &auto(),
    );
    assert_eq!(got, vec![None; 5]);
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
