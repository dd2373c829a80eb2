use super::*;

#[test]
fn names_are_split_trimmed_and_decoded() {
    assert_eq!(names("repos, issues,,"), vec!["repos", "issues"]);
    assert_eq!(names("pull%20requests"), vec!["pull requests"]);
    assert!(names(" , ").is_empty());
}
