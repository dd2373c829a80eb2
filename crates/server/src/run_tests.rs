use super::*;

fn parts(principal: Option<super::super::authz::Principal>) -> axum::http::request::Parts {
    let (mut parts, ()) = axum::http::Request::new(()).into_parts();
    if let Some(p) = principal {
        parts.extensions.insert(p);
    }
    parts
}

#[test]
fn the_person_is_the_validated_user_on_http_and_local_on_stdio() {
    assert_eq!(person_of(None), LOCAL_USER);
    let alice = super::super::authz::Principal {
        issuer: Some("https://id.example".into()),
        subject: Some("alice".into()),
        ..Default::default()
    };
    assert_eq!(
        person_of(Some(&parts(Some(alice)))),
        "https://id.example|alice"
    );
    // HTTP without a validated user: nobody's login, never the local one.
    let nobody = person_of(Some(&parts(None)));
    assert_ne!(nobody, LOCAL_USER);
    assert_eq!(nobody, UNIDENTIFIED);
    let no_subject = super::super::authz::Principal {
        issuer: Some("https://id.example".into()),
        ..Default::default()
    };
    assert_eq!(person_of(Some(&parts(Some(no_subject)))), UNIDENTIFIED);
}
