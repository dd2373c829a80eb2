use super::*;

#[test]
fn slugs() {
    assert_eq!(slug("Swagger Petstore!"), "swagger-petstore");
    assert_eq!(
        slug("GitHub's official OpenAPI spec"),
        "github-s-official-openapi-spec"
    );
    assert_eq!(slug("***"), "api");
}
