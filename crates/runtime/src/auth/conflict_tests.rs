//! Unit tests of requirements no request can satisfy (two AND-ed schemes
//! needing the same header, query parameter or cookie): the helpers are
//! the parent test module's.

use super::*;

/// `@readme/oas-examples`' `security-multiple` schemes, every one
/// configured.
fn multiple() -> Authenticator {
    authenticator(
        vec![
            ("apiKey_header", api_key("X-API-KEY", Location::Header)),
            ("basic", http("basic")),
            ("oauth2", oauth2_scheme(None)),
            ("bearer", http("bearer")),
        ],
        &[
            ("OPENAPI2MCP_APIKEY_HEADER_KEY", "hk"),
            ("OPENAPI2MCP_BASIC_USERNAME", "ada"),
            ("OPENAPI2MCP_BASIC_PASSWORD", SECRET),
            ("OPENAPI2MCP_OAUTH2_TOKEN", "tok"),
            ("OPENAPI2MCP_BEARER_TOKEN", "btok"),
        ],
    )
}

/// `security-multiple`'s `POST /anything/and`: `apiKey_header` AND `basic`
/// AND `oauth2`. The API key and the last `Authorization` (Bearer) used to
/// be sent, which no server can accept as the requirement.
#[tokio::test]
async fn two_authorization_schemes_in_one_requirement_are_refused_naming_both() {
    let auth = multiple();
    let security = [requirement(&["apiKey_header", "basic", "oauth2"])];
    let e = applied(&auth, &security, "https://h.example/").await;
    assert_eq!(
        e,
        Err(AuthError::ConflictingSchemes {
            first: "basic".into(),
            second: "oauth2".into(),
            place: "the `Authorization` header".into(),
        })
    );
    let message = e.unwrap_err().to_string();
    assert!(
        message.contains("needs schemes `basic` and `oauth2` together")
            && message.contains("the `Authorization` header, which one request carries once"),
        "{message}"
    );
    assert!(
        !message.contains(SECRET) && !message.contains("tok"),
        "{message}"
    );
    assert!(!auth.can_satisfy(&security));
}

#[tokio::test]
async fn an_unsatisfiable_alternative_gives_way_to_a_satisfiable_one() {
    let auth = multiple();
    let security = [
        requirement(&["basic", "bearer"]),
        requirement(&["apiKey_header", "oauth2"]),
    ];
    let req = applied(&auth, &security, "https://h.example/").await;
    let Ok(req) = req else { panic!("{req:?}") };
    assert_eq!(header_of(&req, "X-API-KEY").as_deref(), Some("hk"));
    assert_eq!(
        header_of(&req, "Authorization").as_deref(),
        Some("Bearer tok")
    );
    assert!(auth.can_satisfy(&security));
}

#[tokio::test]
async fn api_keys_sharing_a_header_query_parameter_or_cookie_conflict() {
    let auth = authenticator(
        vec![
            ("h1", api_key("X-Key", Location::Header)),
            ("h2", api_key("x-key", Location::Header)),
            ("q1", api_key("key", Location::Query)),
            ("q2", api_key("key", Location::Query)),
            ("q3", api_key("Key", Location::Query)),
            ("c1", api_key("sid", Location::Cookie)),
            ("c2", api_key("sid", Location::Cookie)),
            ("auth_key", api_key("Authorization", Location::Header)),
            ("bearer", http("bearer")),
        ],
        &[
            ("OPENAPI2MCP_H1_KEY", "a"),
            ("OPENAPI2MCP_H2_KEY", "b"),
            ("OPENAPI2MCP_Q1_KEY", "a"),
            ("OPENAPI2MCP_Q2_KEY", "b"),
            ("OPENAPI2MCP_Q3_KEY", "c"),
            ("OPENAPI2MCP_C1_KEY", "a"),
            ("OPENAPI2MCP_C2_KEY", "b"),
            ("OPENAPI2MCP_AUTH_KEY_KEY", "k"),
            ("OPENAPI2MCP_BEARER_TOKEN", "t"),
        ],
    );
    let conflict = |first: &str, second: &str, place: &str| {
        Err(AuthError::ConflictingSchemes {
            first: first.into(),
            second: second.into(),
            place: place.into(),
        })
    };
    let cases = [
        (["h1", "h2"], conflict("h1", "h2", "the `X-Key` header")),
        (
            ["q1", "q2"],
            conflict("q1", "q2", "the query parameter `key`"),
        ),
        (["c1", "c2"], conflict("c1", "c2", "the cookie `sid`")),
        (
            ["auth_key", "bearer"],
            conflict("auth_key", "bearer", "the `Authorization` header"),
        ),
    ];
    for (names, expected) in cases {
        let got = applied(&auth, &[requirement(&names)], "https://h.example/")
            .await
            .map(|r| r.url);
        assert_eq!(got, expected, "{names:?}");
    }
    // Query parameter names are case-sensitive; a header and a query
    // parameter of one name are two places.
    let fine = applied(
        &auth,
        &[requirement(&["q1", "q3", "h1"])],
        "https://h.example/",
    )
    .await;
    let Ok(fine) = fine else { panic!("{fine:?}") };
    assert_eq!(fine.url, "https://h.example/?key=a&Key=c");
    assert_eq!(header_of(&fine, "X-Key").as_deref(), Some("a"));
}

/// Without credentials for it, a conflicting requirement is one more
/// alternative that cannot be used: the usual "no credentials" error
/// (the call then goes out anonymously) says why instead of asking for
/// variables that would not help.
#[tokio::test]
async fn an_unconfigured_conflicting_requirement_says_why_it_cannot_be_used() {
    let auth = authenticator(
        vec![
            ("basic", http("basic")),
            ("oauth2", oauth2_scheme(None)),
            ("key", api_key("k", Location::Query)),
        ],
        &[],
    );
    let security = [requirement(&["basic", "oauth2"]), requirement(&["key"])];
    let e = applied(&auth, &security, "https://h.example/").await;
    let Err(e @ AuthError::MissingCredentials { .. }) = e else {
        panic!("{e:?}")
    };
    let message = e.to_string();
    assert!(
        message.contains(
            "schemes `basic` and `oauth2` together cannot be used (both put their credential in \
             the `Authorization` header, which one request carries once), or set OPENAPI2MCP_KEY_KEY"
        ),
        "{message}"
    );
}
