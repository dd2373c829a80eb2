use super::*;

fn m(t: &str, p: &str) -> Option<Vec<(String, String)>> {
    Template::parse(t).matches(p)
}

#[test]
fn slots_match_one_segment_and_are_decoded() {
    assert_eq!(
        m("/pets/{petId}", "/pets/42"),
        Some(vec![("petId".into(), "42".into())])
    );
    assert_eq!(
        m("/pets/{petId}", "/pets/a%20b%2Fc"),
        Some(vec![("petId".into(), "a b/c".into())])
    );
    assert_eq!(m("/pets/{petId}", "/pets/42/photo"), None);
    assert_eq!(m("/pets/{petId}", "/pets/"), None);
    assert_eq!(m("/pets", "/pets"), Some(vec![]));
    assert_eq!(m("/", "/"), Some(vec![]));
}

#[test]
fn mixed_segments() {
    assert_eq!(
        m("/files/{name}.{ext}", "/files/report.tar.gz"),
        Some(vec![
            ("name".into(), "report".into()),
            ("ext".into(), "tar.gz".into())
        ])
    );
    assert_eq!(
        m("/v{version}/x", "/v2/x"),
        Some(vec![("version".into(), "2".into())])
    );
    assert_eq!(m("/v{version}/x", "/w2/x"), None);
}

#[test]
fn literals_are_more_specific() {
    let lit = Template::parse("/pets/mine").specificity();
    let slot = Template::parse("/pets/{id}").specificity();
    let mixed = Template::parse("/pets/p{id}").specificity();
    assert!(lit > mixed && mixed > slot);
}
