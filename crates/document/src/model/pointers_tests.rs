use super::*;

#[test]
fn pointers_round_trip() {
    let op = operation("/a/{b}", "get");
    assert_eq!(op, "/paths/~1a~1{b}/get");
    assert_eq!(request_body(&op), "/paths/~1a~1{b}/get/requestBody");
    assert_eq!(response(&op, "2XX"), "/paths/~1a~1{b}/get/responses/2XX");
    assert_eq!(operation_id(&op), "/paths/~1a~1{b}/get/operationId");
    assert_eq!(
        path_and_method(&op),
        Some(("/a/{b}".to_string(), Some("get".to_string())))
    );
    assert_eq!(path_and_method("/components/x"), None);
    let copy = operation("/a", "COPY");
    assert_eq!(copy, "/paths/~1a/additionalOperations/COPY");
    assert_eq!(
        path_and_method(&copy),
        Some(("/a".to_string(), Some("COPY".to_string())))
    );
    assert_eq!(operation("/a", "query"), "/paths/~1a/query");
}
