//! Rust types for a generated crate's arguments, from the tools' input
//! schemas (JSON Schema 2020-12, `$ref`s naming `#/$defs/…`).
//!
//! A generated crate reads each call's arguments (already valid against
//! the schema) into these types and serializes them back into the request,
//! so every type must give back exactly the JSON it read. The rules:
//!
//! - an object with `properties` is a struct (docs from `title` and
//!   `description`); members not listed are kept in a flattened `extra`
//!   map unless `additionalProperties` is `false`; a nested struct keeps
//!   the order its members came in (`runtime::typed::MemberOrder`);
//! - an optional member is `Option<T>`, left out when `None`; one that may
//!   be `null` is `Option<Option<T>>`, so a `null` the client sent is sent;
//! - a string `enum` is a Rust enum (PascalCase variants renamed to the
//!   values); an `enum` with other members is a `Value`;
//! - `integer` is `i64` (`i32` for `format: int32`, `u64` for `format:
//!   uint64` with `minimum >= 0`), read from any integral number by
//!   `runtime::typed::integers`, which refuses what does not fit;
//! - `number` is `serde_json::Number` (`1` and `1.0` stay as sent);
//! - `array` is `Vec<T>`; an object without `properties` a
//!   `Map<String, Value>`;
//! - `$defs` are named types shared by every tool (the `types` module);
//!   one that refers to itself is boxed;
//! - `oneOf`/`anyOf`/`allOf`/`not`/`if`/`const`/`prefixItems`, several
//!   types, no type, or a `$ref` with siblings that change its shape stay
//!   `serde_json::Value`: they cannot be typed exactly.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::model::doc_lines;
use super::names::{self, Scope};

/// Annotation keywords a `$ref` may sit beside without changing its type.
const REF_SIBLINGS_KEPT: &[&str] = &[
    "description",
    "title",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contentEncoding",
    "contentMediaType",
    "x-mcp-header",
];

/// Keywords whose meaning a Rust type cannot hold exactly.
const UNTYPED: &[&str] = &[
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "if",
    "const",
    "prefixItems",
    "dependentSchemas",
    "unevaluatedProperties",
];

/// Deeper than this, schemas stay `Value` (a guard against pathological
/// nesting; real documents stay far below it).
const MAX_DEPTH: usize = 24;

/// A Rust type expression for a schema.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// `serde_json::Value`: anything, `null` included.
    Value,
    /// `String`.
    Str,
    /// `bool`.
    Bool,
    /// `serde_json::Number`.
    Number,
    /// `i64`, `i32` or `u64`.
    Int(&'static str),
    /// `Vec<T>`.
    Vec(Box<Ty>),
    /// `Option<T>`: the value may be `null`.
    Nullable(Box<Ty>),
    /// `Map<String, Value>`.
    Map,
    /// A generated struct or enum; `boxed` when it contains itself.
    Named {
        /// The type's identifier.
        name: String,
        /// `Box<name>`.
        boxed: bool,
    },
}

impl Ty {
    /// The type as Rust source.
    pub fn rust(&self) -> String {
        match self {
            Ty::Value => "Value".into(),
            Ty::Str => "String".into(),
            Ty::Bool => "bool".into(),
            Ty::Number => "Number".into(),
            Ty::Int(t) => (*t).into(),
            Ty::Vec(t) => format!("Vec<{}>", t.rust()),
            Ty::Nullable(t) => format!("Option<{}>", t.rust()),
            Ty::Map => "Map<String, Value>".into(),
            Ty::Named { name, boxed: true } => format!("Box<{name}>"),
            Ty::Named { name, .. } => name.clone(),
        }
    }

    /// Whether reading it needs `runtime::typed::integers` (an integer not
    /// inside a struct of its own).
    fn has_int(&self) -> bool {
        match self {
            Ty::Int(_) => true,
            Ty::Vec(t) | Ty::Nullable(t) => t.has_int(),
            _ => false,
        }
    }

    fn nullable(self, yes: bool) -> Ty {
        if yes && self != Ty::Value {
            Ty::Nullable(Box::new(self))
        } else {
            self
        }
    }
}

/// A generated struct or enum, as the templates render it.
#[derive(Debug, Clone, Serialize)]
pub struct TypeDecl {
    /// Its identifier.
    pub name: String,
    /// Doc lines.
    pub doc: Vec<String>,
    /// A struct (fields) rather than an enum (variants).
    pub is_struct: bool,
    /// Struct fields, in schema order.
    pub fields: Vec<FieldView>,
    /// The flattened map of members the schema does not list (open
    /// objects), if any: its identifier.
    pub extra: Option<String>,
    /// The field holding the member order (nested structs), if any.
    pub order_field: Option<String>,
    /// Enum variants.
    pub variants: Vec<VariantView>,
}

/// One struct field.
#[derive(Debug, Clone, Serialize)]
pub struct FieldView {
    /// Field identifier.
    pub ident: String,
    /// The member's name in the schema (serde rename).
    pub arg: String,
    /// Rust type, without the `Option` of an optional member (a member
    /// that may be `null` is `Option<T>` here already).
    pub ty: String,
    /// Whether the member may be left out: the field is `Option<ty>`.
    pub optional: bool,
    /// An optional member that may be `null`: `Some(None)` is a `null`
    /// the client sent, kept apart from absence.
    pub keep_null: bool,
    /// Doc lines.
    pub doc: Vec<String>,
    /// The field's serde attribute arguments (rename, default, skip,
    /// deserialize_with), empty when none are needed.
    pub serde: String,
}

/// One enum variant.
#[derive(Debug, Clone, Serialize)]
pub struct VariantView {
    /// Variant identifier.
    pub ident: String,
    /// The string it stands for.
    pub value: String,
}

/// The types of one crate: the shared ones (`$defs`) and, per tool, the
/// arguments struct and the inline types only it uses.
#[derive(Debug)]
pub struct TypeTable {
    names: Scope,
    /// `$defs` key → the schemas seen under it and their types.
    defs: BTreeMap<String, Vec<(Value, Ty)>>,
    /// Shared declarations, in the order they were made.
    pub shared: Vec<TypeDecl>,
    /// Defs being built (references back to them are boxed).
    building: Vec<String>,
}

impl TypeTable {
    /// A table whose type names avoid `reserved`.
    pub fn new(reserved: &[&str]) -> Self {
        Self {
            names: Scope::with_reserved(reserved),
            defs: BTreeMap::new(),
            shared: Vec::new(),
            building: Vec::new(),
        }
    }

    /// Claims a crate-wide type name (`base`, `base2`, …).
    pub fn claim(&mut self, base: &str) -> String {
        self.names.claim(base, "")
    }

    /// The arguments struct `name` for input schema `root`, plus the inline
    /// types it needs (in declaration order, the struct first).
    /// `field_doc(arg)` gives each top-level field's first doc line (where
    /// the argument goes).
    pub fn args(
        &mut self,
        name: &str,
        doc: Vec<String>,
        root: &Value,
        field_doc: &dyn Fn(&str) -> String,
    ) -> Vec<TypeDecl> {
        let mut local = Vec::new();
        let decl = self.struct_decl(name, doc, root, root, false, Some(field_doc), &mut local, 0);
        local.insert(0, decl);
        local
    }

    /// The struct for object schema `schema`.
    #[allow(clippy::too_many_arguments)]
    fn struct_decl(
        &mut self,
        name: &str,
        doc: Vec<String>,
        root: &Value,
        schema: &Value,
        ordered: bool,
        field_doc: Option<&dyn Fn(&str) -> String>,
        sink: &mut Vec<TypeDecl>,
        depth: usize,
    ) -> TypeDecl {
        let empty = Map::new();
        let props = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut scope = Scope::default();
        let mut fields = Vec::new();
        for (arg, prop) in props {
            let ident = scope.claim(&names::snake(arg, "arg"), "_");
            let hint = format!("{name}{}", names::pascal(arg, "Field"));
            let origin = format!("The `{arg}` member of [`{name}`].");
            let ty = self.ty(root, prop, &hint, &origin, false, false, sink, depth + 1);
            let optional = !required.contains(&arg.as_str());
            let mut lines = match field_doc {
                Some(f) => vec![f(arg)],
                None => vec![format!("`{arg}` member.")],
            };
            // The member's own words, else those of the schema it refers to.
            let mut described = describe(prop, "");
            if described.is_empty() {
                described = describe(resolve(root, prop), "");
            }
            if !described.is_empty() {
                lines.push(String::new());
                lines.extend(described);
            }
            fields.push(field(ident, arg, &ty, optional, lines));
        }
        let open = !matches!(schema.get("additionalProperties"), Some(Value::Bool(false)));
        let extra = open.then(|| scope.claim("extra", "_"));
        let order_field = ordered.then(|| scope.claim("member_order", "_"));
        TypeDecl {
            name: name.to_string(),
            doc,
            is_struct: true,
            fields,
            extra,
            order_field,
            variants: Vec::new(),
        }
    }

    /// The type of `schema`. A struct or enum it declares is named `hint`
    /// (made unique), or exactly `hint` when `exact` (a def's name,
    /// claimed already); `origin` says where the schema is, for a type
    /// that has no description of its own.
    #[allow(clippy::too_many_arguments)]
    fn ty(
        &mut self,
        root: &Value,
        schema: &Value,
        hint: &str,
        origin: &str,
        exact: bool,
        in_vec: bool,
        sink: &mut Vec<TypeDecl>,
        depth: usize,
    ) -> Ty {
        let Some(obj) = schema.as_object() else {
            return Ty::Value;
        };
        if depth > MAX_DEPTH || UNTYPED.iter().any(|k| obj.contains_key(*k)) {
            return Ty::Value;
        }
        if let Some(reference) = obj.get("$ref").and_then(Value::as_str) {
            if obj
                .keys()
                .any(|k| k != "$ref" && !REF_SIBLINGS_KEPT.contains(&k.as_str()))
            {
                return Ty::Value;
            }
            return match reference.strip_prefix("#/$defs/") {
                Some(key) if !key.contains('/') => self.def(root, key, in_vec, depth),
                _ => match reference.strip_prefix('#').and_then(|p| root.pointer(p)) {
                    Some(target) if depth < MAX_DEPTH => {
                        self.ty(root, target, hint, origin, false, in_vec, sink, depth + 1)
                    }
                    _ => Ty::Value,
                },
            };
        }
        let types: Vec<&str> = match obj.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let type_admits_null = types.is_empty() || types.contains(&"null");
        let non_null: Vec<&str> = types.iter().copied().filter(|t| *t != "null").collect();
        if let Some(Value::Array(members)) = obj.get("enum")
            && (non_null.is_empty() || non_null == ["string"])
        {
            // A string enum; an enum of one other type is typed by its type.
            return self.enum_ty(
                schema,
                members,
                type_admits_null,
                (hint, origin, exact),
                sink,
            );
        }
        let nullable = types.contains(&"null");
        let ty = match non_null.as_slice() {
            ["string"] => Ty::Str,
            ["boolean"] => Ty::Bool,
            ["number"] => Ty::Number,
            ["integer"] => Ty::Int(int_type(obj)),
            ["array"] => match obj.get("items") {
                Some(items @ Value::Object(_)) => {
                    let item_hint = format!("{hint}Item");
                    let origin = match origin.strip_prefix("The ") {
                        Some(rest) => format!("An item of the {rest}"),
                        None => format!("An item of: {origin}"),
                    };
                    Ty::Vec(Box::new(self.ty(
                        root,
                        items,
                        &item_hint,
                        &origin,
                        false,
                        true,
                        sink,
                        depth + 1,
                    )))
                }
                _ => Ty::Vec(Box::new(Ty::Value)),
            },
            ["object"] => match obj.get("properties").and_then(Value::as_object) {
                Some(p) if !p.is_empty() => {
                    let name = self.name(hint, exact);
                    let decl = self.struct_decl(
                        &name,
                        describe(schema, origin),
                        root,
                        schema,
                        true,
                        None,
                        sink,
                        depth,
                    );
                    sink.push(decl);
                    Ty::Named { name, boxed: false }
                }
                _ => Ty::Map,
            },
            _ => return Ty::Value,
        };
        ty.nullable(nullable)
    }

    /// `hint` made unique, or as it is when `exact`.
    fn name(&mut self, hint: &str, exact: bool) -> String {
        if exact {
            hint.to_string()
        } else {
            self.claim(hint)
        }
    }

    /// An enum of strings (and `null`) as a Rust enum; one with other
    /// members as `Value`.
    #[allow(clippy::too_many_arguments)]
    fn enum_ty(
        &mut self,
        schema: &Value,
        members: &[Value],
        type_admits_null: bool,
        (hint, origin, exact): (&str, &str, bool),
        sink: &mut Vec<TypeDecl>,
    ) -> Ty {
        let strings: Vec<&str> = members.iter().filter_map(Value::as_str).collect();
        let has_null = members.iter().any(Value::is_null);
        let others = members.len() - strings.len() - usize::from(has_null);
        if others > 0 || strings.is_empty() {
            return Ty::Value;
        }
        let name = self.name(hint, exact);
        let mut variant_names = Scope::default();
        let mut variants: Vec<VariantView> = Vec::new();
        for value in strings {
            if variants.iter().any(|v| v.value == value) {
                continue;
            }
            variants.push(VariantView {
                ident: variant_names.claim(&names::pascal(value, "V"), ""),
                value: value.to_string(),
            });
        }
        let decl = TypeDecl {
            name: name.clone(),
            doc: describe(schema, origin),
            is_struct: false,
            fields: Vec::new(),
            extra: None,
            order_field: None,
            variants,
        };
        sink.push(decl);
        Ty::Named { name, boxed: false }.nullable(has_null && type_admits_null)
    }

    /// The type of `$defs` key `key` (declared once per distinct schema,
    /// in the shared module).
    fn def(&mut self, root: &Value, key: &str, in_vec: bool, depth: usize) -> Ty {
        let Some(schema) = root.get("$defs").and_then(|d| d.get(key)) else {
            return Ty::Value;
        };
        let known = self
            .defs
            .get(key)
            .and_then(|seen| seen.iter().find(|(s, _)| s == schema))
            .map(|(_, ty)| ty.clone());
        if let Some(ty) = known {
            return self.boxed_if_building(ty, in_vec);
        }
        // Claim the name first and remember it: the def may refer to itself.
        let name = self.claim(&names::pascal(key, "Def"));
        let nullable = match schema.get("type") {
            Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
            _ => false,
        };
        let placeholder = Ty::Named {
            name: name.clone(),
            boxed: false,
        }
        .nullable(nullable);
        self.defs
            .entry(key.to_string())
            .or_default()
            .push((schema.clone(), placeholder));
        self.building.push(name.clone());
        let mut shared = Vec::new();
        let origin = format!("The schema `{key}`.");
        let ty = self.ty(
            root,
            schema,
            &name,
            &origin,
            true,
            false,
            &mut shared,
            depth + 1,
        );
        self.building.pop();
        self.shared.extend(shared);
        if let Some(entry) = self
            .defs
            .get_mut(key)
            .and_then(|seen| seen.iter_mut().find(|(s, _)| s == schema))
        {
            entry.1 = ty.clone();
        }
        self.boxed_if_building(ty, in_vec)
    }

    /// `ty` boxed when it names a def still being built (a type containing
    /// itself) outside a `Vec`.
    fn boxed_if_building(&self, ty: Ty, in_vec: bool) -> Ty {
        match ty {
            Ty::Named { name, .. } => {
                let boxed = !in_vec && self.building.contains(&name);
                Ty::Named { name, boxed }
            }
            Ty::Nullable(inner) => Ty::Nullable(Box::new(self.boxed_if_building(*inner, in_vec))),
            other => other,
        }
    }
}

/// The integer type for an `integer` schema.
fn int_type(schema: &Map<String, Value>) -> &'static str {
    let format = schema.get("format").and_then(Value::as_str);
    let non_negative = schema
        .get("minimum")
        .and_then(Value::as_f64)
        .is_some_and(|m| m >= 0.0);
    match format {
        Some("int32") => "i32",
        Some("uint64") if non_negative => "u64",
        _ => "i64",
    }
}

/// One struct field with its serde attributes.
fn field(ident: String, arg: &str, ty: &Ty, optional: bool, doc: Vec<String>) -> FieldView {
    let mut serde = Vec::new();
    if ident.trim_start_matches("r#") != arg {
        serde.push(format!("rename = {arg:?}"));
    }
    let nullable = matches!(ty, Ty::Nullable(_) | Ty::Value);
    if optional {
        serde.push("default".into());
    }
    if ty.has_int() {
        let helper = if optional {
            "present_integers"
        } else {
            "integers"
        };
        serde.push(format!(
            "deserialize_with = \"openapi2mcp_runtime::typed::{helper}\""
        ));
    } else if optional && nullable {
        serde.push("deserialize_with = \"openapi2mcp_runtime::typed::present\"".into());
    }
    if optional {
        serde.push("skip_serializing_if = \"Option::is_none\"".into());
    }
    FieldView {
        ident,
        arg: arg.to_string(),
        ty: ty.rust(),
        optional,
        keep_null: optional && nullable,
        doc,
        serde: serde.join(", "),
    }
}

/// Follows local `$ref`s (a few hops at most), for docs.
pub fn resolve<'a>(root: &'a Value, mut schema: &'a Value) -> &'a Value {
    for _ in 0..8 {
        let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|pointer| root.pointer(pointer))
        else {
            break;
        };
        schema = target;
    }
    schema
}

/// Doc lines from a schema's `title` and `description`; `fallback` when
/// it has neither (and it is not empty).
fn describe(schema: &Value, fallback: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let title = schema.get("title").and_then(Value::as_str);
    let description = schema.get("description").and_then(Value::as_str);
    if let Some(t) = title.filter(|t| !t.trim().is_empty()) {
        lines.extend(doc_lines(t));
    }
    if let Some(d) = description.filter(|d| !d.trim().is_empty()) {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.extend(doc_lines(d));
    }
    if lines.is_empty() && !fallback.is_empty() {
        lines.push(fallback.to_string());
    }
    lines
}

#[cfg(test)]
#[path = "types_tests.rs"]
mod tests;
