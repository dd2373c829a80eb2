//! Reading tool arguments, and the errors that name them.

use serde_json::{Map, Value};

use super::super::binding::ParamBinding;
use super::RequestError;

/// The argument's value, treating `null` as absent.
pub(super) fn non_null<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    args.get(name).filter(|v| !v.is_null())
}

/// The parameter's value, or `MissingArgument` when it is required.
pub(super) fn param_value<'a>(
    args: &'a Map<String, Value>,
    p: &ParamBinding,
) -> Result<Option<&'a Value>, RequestError> {
    match non_null(args, &p.arg) {
        Some(value) => Ok(Some(value)),
        None if p.required => Err(missing(&p.arg)),
        None => Ok(None),
    }
}

pub(super) fn missing(arg: &str) -> RequestError {
    RequestError::MissingArgument { arg: arg.into() }
}

pub(super) fn invalid(arg: &str, reason: impl Into<String>) -> RequestError {
    RequestError::InvalidArgument {
        arg: arg.into(),
        reason: reason.into(),
    }
}

pub(super) fn template_error(template: &str, reason: impl Into<String>) -> RequestError {
    RequestError::PathTemplate {
        template: template.into(),
        reason: reason.into(),
    }
}
