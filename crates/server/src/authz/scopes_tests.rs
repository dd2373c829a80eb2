//! Unit tests of `scopes.rs` (kept out of generated crates).

use super::*;

fn set(s: &[&str]) -> BTreeSet<String> {
    s.iter().map(|x| x.to_string()).collect()
}

#[test]
fn one_alternative_suffices_and_the_closest_is_named() {
    let rule = vec![
        vec!["a".to_string(), "b".to_string()],
        vec!["c".to_string()],
    ];
    assert!(check(&rule, &set(&["c"])).is_ok());
    assert!(check(&rule, &set(&["a", "b"])).is_ok());
    assert_eq!(check(&rule, &set(&["a"])).unwrap_err(), ["a", "b"]);
    assert_eq!(check(&rule, &set(&["x"])).unwrap_err(), ["c"]);
    assert!(check(&[], &set(&[])).is_ok());
}
