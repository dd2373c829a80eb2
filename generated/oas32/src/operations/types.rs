//! Types shared by the tools' arguments: one per schema of the API
//! description that arguments use (`$defs`).

#![allow(unused_imports)]

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};
use openapi2mcp_runtime::typed::{self, MemberOrder};
