//! JSON pointers to the parts of the document findings name, spelled in
//! one place: an operation under `paths`, its request body, a response,
//! its `operationId`; and reading a pointer back into a path and method.

use crate::document::pointer::{pointer_tokens, push_token};

/// The pointer to `paths` in the root file.
pub const PATHS: &str = "/paths";

/// `/paths/<path>/<method>` in the root file (`method` lower-case).
pub fn operation(path: &str, method: &str) -> String {
    push_token(&push_token(PATHS, path), method)
}

/// The request body of the operation at `operation`.
pub fn request_body(operation: &str) -> String {
    push_token(operation, "requestBody")
}

/// The response `status` of the operation at `operation`.
pub fn response(operation: &str, status: &str) -> String {
    push_token(&push_token(operation, "responses"), status)
}

/// The `operationId` of the operation at `operation`.
pub fn operation_id(operation: &str) -> String {
    push_token(operation, "operationId")
}

/// The path and the method (or other key of the path item) a pointer
/// under `/paths` names.
pub fn path_and_method(pointer: &str) -> Option<(String, Option<String>)> {
    let mut tokens = pointer_tokens(pointer).ok()?.into_iter();
    if tokens.next()? != "paths" {
        return None;
    }
    let path = tokens.next()?;
    Some((path, tokens.next()))
}

#[cfg(test)]
mod tests {
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
    }
}
