//! Types shared by the tools' arguments: one per schema of the API
//! description that arguments use (`$defs`).

#![allow(unused_imports)]

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};
use openapi2mcp_runtime::typed::{self, MemberOrder};

/// Where the pet is in the sales process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(clippy::enum_variant_names)]
pub enum Status {
    /// "available"
    #[serde(rename = "available")]
    Available,
    /// "pending"
    #[serde(rename = "pending")]
    Pending,
    /// "sold"
    #[serde(rename = "sold")]
    Sold,
}

impl Status {
    /// The value as the API spells it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Available => "available",
            Self::Pending => "pending",
            Self::Sold => "sold",
        }
    }
}
