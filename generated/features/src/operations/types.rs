//! Types shared by the tools' arguments: one per schema of the API
//! description that arguments use (`$defs`).

#![allow(unused_imports)]

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};
use openapi2mcp_runtime::typed::{self, MemberOrder};

/// The `name` member of [`Plan`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(clippy::enum_variant_names)]
pub enum PlanName {
    /// "free"
    #[serde(rename = "free")]
    Free,
    /// "pro"
    #[serde(rename = "pro")]
    Pro,
}

impl PlanName {
    /// The value as the API spells it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Free => "free",
            Self::Pro => "pro",
        }
    }
}

/// The schema `Plan`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct Plan {
    /// `seats` member.
    #[serde(deserialize_with = "openapi2mcp_runtime::typed::integers")]
    pub seats: i64,
    /// `name` member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<PlanName>,
    /// The order the members came in, kept to send them on in it.
    #[serde(skip)]
    pub member_order: MemberOrder,
}

impl Serialize for Plan {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        typed::serialize_in_order(
            &self.member_order,
            Plan::serialize(self, serde_json::value::Serializer),
            s,
        )
    }
}

impl<'de> Deserialize<'de> for Plan {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (members, order) = typed::members_in_order(d)?;
        let mut this = Plan::deserialize(members).map_err(serde::de::Error::custom)?;
        this.member_order = order;
        Ok(this)
    }
}

/// The schema `Billing`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct Billing {
    /// `email` member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// `plan` member.
    pub plan: Plan,
    /// Members the schema does not list, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
    /// The order the members came in, kept to send them on in it.
    #[serde(skip)]
    pub member_order: MemberOrder,
}

impl Serialize for Billing {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        typed::serialize_in_order(
            &self.member_order,
            Billing::serialize(self, serde_json::value::Serializer),
            s,
        )
    }
}

impl<'de> Deserialize<'de> for Billing {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (members, order) = typed::members_in_order(d)?;
        let mut this = Billing::deserialize(members).map_err(serde::de::Error::custom)?;
        this.member_order = order;
        Ok(this)
    }
}
