use super::fit;

#[test]
fn long_texts_are_cut_to_the_registrys_limit() {
    assert_eq!(fit("Pet  store", 100), "Pet store");
    let long = "x".repeat(150);
    let cut = fit(&long, 100);
    assert_eq!(cut.chars().count(), 100);
    assert!(cut.ends_with('…'));
}
