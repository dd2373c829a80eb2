//! JSON pointers to the parts of the document findings name, spelled in
//! one place: an operation under `paths`, its request body, a response,
//! its `operationId`; and reading a pointer back into a path and method.

use crate::pointer::{pointer_tokens, push_token};

/// The pointer to `paths` in the root file.
pub const PATHS: &str = "/paths";

/// The methods a path item holds as fixed fields (`query` since OpenAPI
/// 3.2); any other is a key of its `additionalOperations`.
pub const FIXED_METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace", "query",
];

/// The member of a path item that holds OpenAPI 3.2's other methods.
pub const ADDITIONAL_OPERATIONS: &str = "additionalOperations";

/// `/paths/<path>/<method>` in the root file (`method` as the model names
/// it: lower-case for a fixed field), or
/// `/paths/<path>/additionalOperations/<method>` for any other method.
pub fn operation(path: &str, method: &str) -> String {
    let item = push_token(PATHS, path);
    if FIXED_METHODS.contains(&method) {
        push_token(&item, method)
    } else {
        push_token(&push_token(&item, ADDITIONAL_OPERATIONS), method)
    }
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
    let key = match tokens.next() {
        Some(k) if k == ADDITIONAL_OPERATIONS => tokens.next().or(Some(k)),
        other => other,
    };
    Some((path, key))
}

#[cfg(test)]
#[path = "pointers_tests.rs"]
mod tests;
