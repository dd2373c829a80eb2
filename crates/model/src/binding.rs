//! How one tool maps onto HTTP: method, path template, where each argument
//! goes on the wire, the body, servers and security. Built by
//! `tools` from the document, consumed by the request builder; serializable
//! so the generator can embed it in generated crates.
//!
//! From the rest of the crate it holds only a workflow tool's steps
//! ([`crate::workflow::WorkflowBinding`], plain data too) and re-exports
//! [`MediaKind`] beside the bodies it describes, so a binding stays data
//! that serializes whole.

use serde::{Deserialize, Serialize};

/// Everything needed to turn a tool call into an HTTP request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HttpBinding {
    /// Upper-case HTTP method (`GET`, `POST`, …).
    pub method: String,
    /// Path template relative to the server URL, e.g. `/pets/{petId}`.
    pub path: String,
    /// Path, query, header and cookie parameters, in document order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<ParamBinding>,
    /// The request body, if the operation takes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<BodyBinding>,
    /// Candidate servers, most specific first (operation, path item, document).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<Server>,
    /// Security alternatives: any one requirement satisfies the operation;
    /// empty means no authentication.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub security: Vec<SecurityRequirement>,
    /// How a JSON response body becomes `structuredContent`, when the tool
    /// advertises an `outputSchema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<OutputShape>,
    /// The media types the operation's responses document (every response,
    /// in document order, each once, as written), from which the request's
    /// `Accept` header is made: an API that can answer XML or JSON answers
    /// what the tool renders best, and one that negotiates strictly is
    /// never asked for a type it does not have. Empty: nothing documented.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub response_media_types: Vec<String>,
    /// The headers the operation's responses document (every response, in
    /// document order, each name once, as written): the runtime shows
    /// them to the model when the API sends them, beside the ones any
    /// client acts on (`Link`, `ETag`, rate limits; see
    /// `runtime::response::headers`). Empty: nothing documented, or a
    /// catalog written before it existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub response_headers: Vec<String>,
    /// Set when the document says the operation may be long-running (a
    /// `202` response, Azure's `x-ms-long-running-operation`, or a 200/201
    /// documenting `Operation-Location` / `Azure-AsyncOperation`): how its
    /// final result is found and which operation cancels it. The runtime
    /// also treats an undocumented `202` with a status URL as
    /// long-running (see `runtime::lro`). Absent in catalogs written
    /// before it existed, which read as "not declared".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lro: Option<LroBinding>,
    /// Set for a tool that is an Arazzo workflow, not one operation: its
    /// steps call the other tools (see `runtime::workflow`), and the
    /// method and path above only name it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workflow: Option<Box<crate::workflow::WorkflowBinding>>,
}

/// A path template split at its fragment: `/#Action=Describe` is the path
/// `/` and the fragment `Action=Describe`. A URL's fragment is never sent
/// (RFC 3986, section 3.5), so the request goes to the path alone.
/// Documents use a fragment to keep otherwise equal path keys apart:
/// APIs.guru's AWS descriptions (327 documents, 8,009 operations) key each
/// action `/#Action=…` or `/#X-Amz-Target=…`, the operation told apart on
/// the wire by the parameter the fragment names. A `#` inside a `{slot}`
/// belongs to the slot's name, and one followed by more path (a `/` or a
/// `{slot}`: Mastercard's `/send/#env/v1/partners/{partnerId}`) is a
/// placeholder in the path, not a fragment.
pub fn split_fragment(template: &str) -> (&str, Option<&str>) {
    let mut in_slot = false;
    for (at, c) in template.char_indices() {
        match c {
            '{' => in_slot = true,
            '}' => in_slot = false,
            '#' if !in_slot => {
                let rest = &template[at + 1..];
                if rest.contains(['/', '{']) {
                    return (template, None);
                }
                return (&template[..at], Some(rest));
            }
            _ => {}
        }
    }
    (template, None)
}

/// What the document says about a long-running operation: built by
/// `tools::lro` (which documents the rule), read by `runtime::lro`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LroBinding {
    /// Where the final result is once the operation succeeded, when the
    /// document says (Azure's `final-state-via`); `None`: the runtime's
    /// default rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_state_via: Option<FinalStateVia>,
    /// The operation that cancels this one, when a link of the response
    /// names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancel: Option<Box<CancelLink>>,
}

/// Azure's `x-ms-long-running-operation-options.final-state-via`: which
/// URL holds the final result of a succeeded operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FinalStateVia {
    /// The initial response's `Location`.
    Location,
    /// The `Azure-AsyncOperation` status resource (or its `resourceLocation`).
    AzureAsyncOperation,
    /// The URL the operation was started on (a PUT's resource).
    OriginalUri,
    /// The `Operation-Location` status resource (or its `resourceLocation`).
    OperationLocation,
}

impl FinalStateVia {
    /// Reads the extension's spelling (`location`, `azure-async-operation`,
    /// `original-uri`, `operation-location`; case-insensitive).
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "location" => Some(Self::Location),
            "azure-async-operation" => Some(Self::AzureAsyncOperation),
            "original-uri" => Some(Self::OriginalUri),
            "operation-location" => Some(Self::OperationLocation),
            _ => None,
        }
    }
}

/// The cancel operation an OpenAPI link of the long-running operation's
/// response names, ready to be sent: its binding, and the value of each
/// of its arguments as a constant or a runtime expression
/// (`$response.body#/id`, `$response.header.Location`, `$request.path.id`)
/// that the runtime resolves against the call that started the operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CancelLink {
    /// The link's name in the response's `links`.
    pub link: String,
    /// The target operation, for messages: its operationId, or its method
    /// and path.
    pub operation: String,
    /// How the cancel request is made: the target's method, path,
    /// parameters (each argument named as in `arguments`), servers and
    /// security.
    pub http: HttpBinding,
    /// The value of each argument of `http`, in document order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<LinkArgument>,
}

/// One argument of a [`CancelLink`]: a constant, or a runtime expression
/// (a string starting with `$`, or one with `{$...}` inside).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinkArgument {
    /// The argument of [`CancelLink::http`] it feeds.
    pub arg: String,
    /// The link parameter's value as written.
    pub value: serde_json::Value,
}

/// Where a parameter travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Location {
    /// Substituted into the path template.
    Path,
    /// Appended to the query string.
    Query,
    /// Sent as a request header.
    Header,
    /// Sent in the `Cookie` header.
    Cookie,
    /// The whole query string (OpenAPI 3.2 `in: querystring`): one
    /// structured argument serialized as its `content` media type says
    /// (`application/x-www-form-urlencoded` pairs, JSON text, a string
    /// as is), never together with `query` parameters.
    Querystring,
}

impl Location {
    /// The OpenAPI spelling (`path`, `query`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Location::Path => "path",
            Location::Query => "query",
            Location::Header => "header",
            Location::Cookie => "cookie",
            Location::Querystring => "querystring",
        }
    }
}

/// OpenAPI parameter serialization style.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Style {
    /// `a,b,c` (path and header default).
    Simple,
    /// `.a.b.c` path style.
    Label,
    /// `;id=a,b` path style.
    Matrix,
    /// `id=a&id=b` or `id=a,b` (query and cookie default).
    Form,
    /// `id=a%20b`.
    SpaceDelimited,
    /// `id=a|b`.
    PipeDelimited,
    /// `id[key]=value` for objects.
    DeepObject,
}

/// One parameter: which argument feeds it and how it goes on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParamBinding {
    /// Name of the tool argument (a property of the input schema).
    pub arg: String,
    /// Name on the wire (may differ from `arg` when names collide).
    pub name: String,
    /// Where it goes.
    #[serde(rename = "in")]
    pub location: Location,
    /// Serialization style.
    pub style: Style,
    /// Whether arrays/objects explode into several name=value pairs.
    pub explode: bool,
    /// Whether the argument must be given.
    pub required: bool,
    /// Query only: reserved characters are sent unencoded.
    #[serde(default, skip_serializing_if = "is_false")]
    pub allow_reserved: bool,
    /// Set when the parameter is described by `content` instead of `schema`:
    /// the value is serialized as this media type (JSON) instead of a style.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
}

/// The request body and how tool arguments fill it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BodyBinding {
    /// The media type sent as `Content-Type`.
    pub media_type: String,
    /// Whether a body must be sent.
    pub required: bool,
    /// How arguments map onto the body.
    pub shape: BodyShape,
}

/// How arguments form the body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BodyShape {
    /// The whole body is one argument (arrays, scalars, free-form objects,
    /// raw text or binary).
    Whole {
        /// Argument name (usually `body`).
        arg: String,
        /// The argument is base64 (or a `data:` URI) to decode into bytes.
        #[serde(default, skip_serializing_if = "is_false")]
        binary: bool,
    },
    /// An object body whose properties are top-level arguments.
    Properties {
        /// One entry per property, in schema order.
        props: Vec<BodyProp>,
    },
}

/// One property of an object body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BodyProp {
    /// Tool argument name.
    pub arg: String,
    /// Property name in the body.
    pub name: String,
    /// Multipart/form: the value is a file (base64 or `data:` URI).
    #[serde(default, skip_serializing_if = "is_false")]
    pub binary: bool,
    /// Multipart: the part's content type from the document's `encoding`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// The `style`, `explode` and `allowReserved` the document's `encoding`
    /// entry gives the property, serialized as a query parameter would be
    /// (Stripe's `metadata[key]=value` is `deepObject`): in an
    /// `application/x-www-form-urlencoded` body, and in a
    /// `multipart/form-data` body of an OpenAPI 3.1 document (each
    /// name/value pair one part; 3.0 ignores these fields for multipart).
    /// `None` keeps the default: arrays repeat the name, objects are JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<FormStyle>,
    /// Multipart: headers the document's `encoding` gives each part of
    /// this property, with the values their schemas fix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<PartHeader>,
}

/// How one property of a form or multipart body is serialized, as the
/// Encoding Object's `style`, `explode` and `allowReserved` say (the
/// query-string styles, unencoded: a form body percent-encodes the
/// resulting names and values, a multipart body sends them as they are).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormStyle {
    /// `form`, `spaceDelimited`, `pipeDelimited` or `deepObject`.
    pub style: Style,
    /// Whether arrays and objects become one pair per member.
    pub explode: bool,
    /// Form bodies: RFC 3986 reserved characters in values are sent
    /// literally (those that would break the form, `&=+#[]`, and `%` stay
    /// encoded). Multipart bodies encode nothing, so it changes nothing
    /// there.
    #[serde(default, skip_serializing_if = "is_false")]
    pub allow_reserved: bool,
}

/// One header of a multipart part, from the Encoding Object's `headers`
/// (say `Content-Transfer-Encoding` or a vendor header): sent on every part
/// of the property. Only headers whose value the document fixes (`const`,
/// a one-member `enum`, or `default`) are recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartHeader {
    /// Header name (an RFC 9110 token).
    pub name: String,
    /// Header value (no CR, LF or other control characters).
    pub value: String,
}

/// A server URL template and its variables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Server {
    /// URL, possibly with `{variables}`, possibly relative.
    pub url: String,
    /// Variables in document order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<ServerVariable>,
}

/// One `{variable}` in a server URL.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerVariable {
    /// Variable name.
    pub name: String,
    /// Value used unless configured otherwise.
    pub default: String,
    /// Allowed values, if restricted.
    #[serde(default, rename = "enum", skip_serializing_if = "Vec::is_empty")]
    pub allowed: Vec<String>,
}

/// A set of schemes that must all be satisfied together.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SecurityRequirement {
    /// Scheme names (keys of the API's security schemes) with scopes.
    pub schemes: Vec<SchemeUse>,
}

/// One scheme inside a [`SecurityRequirement`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SchemeUse {
    /// Name in `components.securitySchemes`.
    pub name: String,
    /// OAuth2/OIDC scopes required.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
}

/// A security scheme, as the runtime needs it to authenticate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum SecurityScheme {
    /// A key in a header, query parameter or cookie.
    ApiKey {
        /// Header/query/cookie name.
        name: String,
        /// Where it goes.
        #[serde(rename = "in")]
        location: Location,
    },
    /// HTTP authentication (`bearer`, `basic`, …).
    Http {
        /// Lower-case scheme name.
        scheme: String,
        /// Hint about the bearer token format.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bearer_format: Option<String>,
    },
    /// OAuth 2.0; the runtime can itself fetch client-credentials tokens.
    #[serde(rename = "oauth2")]
    OAuth2 {
        /// Token URL of the client-credentials flow, if the API has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_credentials_token_url: Option<String>,
        /// Flow names the document offers (`authorizationCode`, …).
        flows: Vec<String>,
        /// How a person logs in (authorization code, device), when the
        /// document offers a flow for it: the per-user identity of
        /// `openapi2mcp login`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        login: Option<Box<LoginFlows>>,
    },
    /// OpenID Connect discovery.
    OpenIdConnect {
        /// Discovery URL.
        url: String,
    },
    /// Mutual TLS.
    MutualTls,
}

/// The endpoints a person logs in through, from an OAuth2 scheme's
/// `authorizationCode` and (OpenAPI 3.2) `deviceAuthorization` flows and
/// its `oauth2MetadataUrl`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LoginFlows {
    /// The authorization code flow's `authorizationUrl`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorization_url: Option<String>,
    /// The token URL of the authorization code (or device) flow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_url: Option<String>,
    /// The device flow's `deviceAuthorizationUrl` (OpenAPI 3.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_authorization_url: Option<String>,
    /// The flows' `refreshUrl`, when it differs from the token URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_url: Option<String>,
    /// RFC 8414 authorization server metadata (`oauth2MetadataUrl`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata_url: Option<String>,
    /// Every scope the login flows list, in document order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
}

/// How a JSON response becomes `structuredContent`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OutputShape {
    /// The body is a JSON object: it is the structured content.
    Object,
    /// The body is not an object (array, scalar): it is wrapped as `{key: body}`.
    Wrapped {
        /// The wrapping property name.
        key: String,
    },
}

/// How a media type's content is encoded (defined with the other media
/// type helpers; named here, beside the bindings it describes).
pub use crate::wire::media::MediaKind;

fn is_false(b: &bool) -> bool {
    !*b
}
