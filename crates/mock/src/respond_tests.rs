use super::*;

#[test]
fn prefer_reads_code_and_example() {
    assert_eq!(
        Prefer::parse(["code=200, example=\"cat\""]),
        Prefer {
            code: Some("200".into()),
            example: Some("cat".into())
        }
    );
    assert_eq!(Prefer::parse(["respond-async"]), Prefer::default());
}

#[test]
fn codes_and_ranges() {
    assert_eq!(status_of("404"), 404);
    assert_eq!(status_of("4XX"), 400);
    assert_eq!(status_of("default"), 200);
}

#[test]
fn the_gif_placeholder_is_a_gif() {
    assert_eq!(GIF.len(), 42);
    assert!(GIF.starts_with(b"GIF89a") && GIF.ends_with(b";"));
}
