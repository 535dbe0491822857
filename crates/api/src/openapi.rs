//! The OpenAPI document, generated from the handlers' annotations. A test compares it with the
//! committed `docs/openapi.json` so that every API change shows up in review.

use utoipa::{
    Modify, OpenApi,
    openapi::{
        ObjectBuilder, Schema, Type,
        security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
    },
};

use std::collections::BTreeSet;

use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    AppState, accounts, agents, alarm_engine, audit, auth, batteries, combiners, comm_log,
    commands, companies, company, customers, debug, dict, energy_hub, events, firmware, fleet,
    gateways, inverters, manuals, messages, meters, monitor, owners, permissions, plants,
    predicted, products, protocols, push, reports, settings, staff, system, upgrades, users,
    versions, weather_stations, webhooks,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "Solar portal API", description = "Envelope {code, msg, data, success}; see docs/api.md"),
    modifiers(&Bearer, &ErrorCodes)
)]
struct ApiDoc;

/// Every API route with its documentation: a handler is mounted by the path of its
/// `#[utoipa::path]`, so a route cannot exist without its documented shape.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(auth::router())
        .merge(accounts::router())
        .merge(users::router())
        .merge(webhooks::router())
        .merge(push::router())
        .merge(permissions::router())
        .merge(company::router())
        .merge(companies::router())
        .merge(staff::router())
        .merge(agents::router())
        .merge(customers::router())
        .merge(owners::router())
        .merge(dict::router())
        .merge(plants::router())
        .merge(fleet::router())
        .merge(protocols::router())
        .merge(products::router())
        .merge(gateways::router())
        .merge(monitor::router())
        .merge(inverters::router())
        .merge(batteries::router())
        .merge(meters::router())
        .merge(weather_stations::router())
        .merge(combiners::router())
        .merge(manuals::router())
        .merge(events::router())
        .merge(alarm_engine::router())
        .merge(messages::router())
        .merge(system::router())
        .merge(versions::router())
        .merge(audit::router())
        .merge(commands::router())
        .merge(settings::router())
        .merge(firmware::router())
        .merge(upgrades::router())
        .merge(debug::router())
        .merge(predicted::router())
        .merge(reports::router())
        .merge(comm_log::router())
        .merge(energy_hub::router())
        .merge(energy_hub::vtn::router())
}

struct Bearer;

impl Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}

/// The error catalogue as the schema `ErrorCode`: every code a refusal may carry, with its name
/// (`x-enum-varnames`) and English message (`x-enum-descriptions`), from which clients generate
/// their constants.
struct ErrorCodes;

impl Modify for ErrorCodes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let codes = domain::Code::ALL;
        let schema = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .description(Some(
                "A refusal's code (`code` of the envelope); 0 is success.",
            ))
            .enum_values(Some(codes.iter().map(|c| c.number())))
            .build();
        let mut schema = Schema::Object(schema);
        if let Schema::Object(object) = &mut schema {
            let names: Vec<_> = codes.iter().map(|c| c.name()).collect();
            let texts: Vec<_> = codes.iter().map(|c| c.message(domain::Lang::En)).collect();
            let extensions = object.extensions.get_or_insert_with(Default::default);
            extensions.insert("x-enum-varnames".into(), serde_json::json!(names));
            extensions.insert("x-enum-descriptions".into(), serde_json::json!(texts));
        }
        let components = openapi.components.get_or_insert_with(Default::default);
        components.schemas.insert("ErrorCode".into(), schema.into());
    }
}

/// A text field that holds one of `values` and nothing else (the server sends or takes no
/// other), for `#[schema(schema_with = ..)]` on a field kept as text in Rust.
pub(crate) fn one_of_text<'a>(
    description: &str,
    values: impl IntoIterator<Item = &'a str>,
) -> utoipa::openapi::Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .enum_values(Some(values))
        .build()
}

/// The schema of `domain::DeviceFamily` (which cannot derive `ToSchema`: `domain` knows no
/// HTTP), named `DeviceFamily` in the document: `#[schema(value_type = DeviceFamilySchema)]`
/// on a field of that type.
pub(crate) struct DeviceFamilySchema;

impl utoipa::PartialSchema for DeviceFamilySchema {
    fn schema() -> utoipa::openapi::RefOr<Schema> {
        let names = domain::DeviceFamily::ALL.map(domain::DeviceFamily::as_str);
        let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        one_of_text(&format!("A device family: {}.", listed.join(", ")), names).into()
    }
}

impl utoipa::ToSchema for DeviceFamilySchema {
    fn name() -> std::borrow::Cow<'static, str> {
        "DeviceFamily".into()
    }
}

/// The document as pretty JSON, keys sorted (a stable order, so it can be committed and compared).
pub fn document() -> Result<String, serde_json::Error> {
    let mut doc = routes().into_openapi();
    name_operations(&mut doc);
    // Through `Value`, whose maps are sorted: extensions are a hash map, whose order varies.
    let mut doc = serde_json::to_value(&doc)?;
    require_answer_fields(&mut doc);
    serde_json::to_string_pretty(&doc)
}

/// The fields an answer leaves out instead of sending `null` (`skip_serializing_if`), each
/// known by a field always beside it (schemas are also copied inline, into `Envelope_*`, so
/// the schema's name does not tell): the gateway detail's key state, the series answer's day.
/// Every other field of an answer is always sent.
const LEFT_OUT: [(&str, &str); 4] = [
    ("keyEditable", "keyPending"),
    ("keyEditable", "keyChangedAt"),
    ("infos", "date"),
    ("infos", "timezone"),
];

/// Marks every field of the schemas no request uses as required: answers always send it
/// (`null` when it has no value), so a generated client may count on the key. utoipa leaves an
/// `Option` field out of `required`, right for request bodies, where it may be omitted. An
/// answer's type may stand unreferenced (the responses name its copy inline in `Envelope_*`),
/// so the test is "in no request", not "referenced by a response".
fn require_answer_fields(doc: &mut Value) {
    let Some(paths) = doc["paths"].as_object() else {
        return;
    };
    let schemas = doc["components"]["schemas"].clone();
    let mut requests = BTreeSet::new();
    for op in paths
        .values()
        .filter_map(Value::as_object)
        .flat_map(|i| i.values())
    {
        collect_refs(&op["requestBody"], &schemas, &mut requests);
        collect_refs(&op["parameters"], &schemas, &mut requests);
    }
    if let Some(all) = doc["components"]["schemas"].as_object_mut() {
        all.iter_mut()
            .filter(|(name, _)| !requests.contains(name.as_str()))
            .for_each(|(_, schema)| require_properties(schema));
    }
}

/// The names of the component schemas `v` refers to, directly or through other schemas.
fn collect_refs(v: &Value, schemas: &Value, found: &mut BTreeSet<String>) {
    match v {
        Value::Object(map) => {
            if let Some(name) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/components/schemas/"))
                && found.insert(name.to_string())
            {
                collect_refs(&schemas[name], schemas, found);
            }
            map.values().for_each(|v| collect_refs(v, schemas, found));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, schemas, found)),
        _ => {}
    }
}

/// Requires every property of the objects in `schema`: itself, its properties, items and
/// `allOf`/`oneOf`/`anyOf` parts, but not inside another named schema (a `$ref`).
fn require_properties(schema: &mut Value) {
    let Some(map) = schema.as_object_mut() else {
        if let Some(items) = schema.as_array_mut() {
            items.iter_mut().for_each(require_properties);
        }
        return;
    };
    if let Some(props) = map.get("properties").and_then(Value::as_object) {
        let left_out = |p: &str| {
            LEFT_OUT
                .iter()
                .any(|(beside, field)| *field == p && props.contains_key(*beside))
        };
        let required: Vec<Value> = props
            .keys()
            .filter(|p| !left_out(p))
            .map(|p| Value::String(p.clone()))
            .collect();
        if !required.is_empty() {
            map.insert("required".into(), Value::Array(required));
        }
    }
    for key in ["allOf", "oneOf", "anyOf", "items"] {
        if let Some(part) = map.get_mut(key) {
            require_properties(part);
        }
    }
    if let Some(props) = map.get_mut("properties").and_then(Value::as_object_mut) {
        props.values_mut().for_each(require_properties);
    }
}

/// Operation ids from the method and path (`GET /api/v1/plant/{id}` is `get_api_v1_plant_id`,
/// a trailing slash adds `_slash`):
/// handler names repeat across domains (`list`, `detail`), and generators need unique ids.
fn name_operations(doc: &mut utoipa::openapi::OpenApi) {
    for (path, item) in doc.paths.paths.iter_mut() {
        let mut words: Vec<&str> = path
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        if path.ends_with('/') {
            words.push("slash");
        }
        let ops = [
            ("get", &mut item.get),
            ("post", &mut item.post),
            ("put", &mut item.put),
            ("delete", &mut item.delete),
        ];
        for (method, op) in ops {
            if let Some(op) = op {
                op.operation_id = Some(format!("{method}_{}", words.join("_")));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn answers_require_every_field_but_the_ones_they_leave_out_and_requests_stay_as_they_are() {
        let mut doc = json!({
            "paths": {"/a": {"post": {
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Body"}}}},
                "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Answer"}}}}}
            }}},
            "components": {"schemas": {
                "Body": {"type": "object", "properties": {"alias": {"type": ["string", "null"]}}},
                "Inline": {"type": "object", "properties": {"note": {"type": ["string", "null"]}}},
                "Answer": {"type": "object", "properties": {
                    "infos": {"type": "array", "items": {"$ref": "#/components/schemas/Body"}},
                    "date": {"type": ["string", "null"]},
                    "rows": {"type": "array", "items": {"type": "object", "properties": {"note": {"type": ["string", "null"]}}}}
                }}
            }}
        });
        super::require_answer_fields(&mut doc);
        let schemas = &doc["components"]["schemas"];
        assert_eq!(schemas["Answer"]["required"], json!(["infos", "rows"]));
        assert_eq!(
            schemas["Answer"]["properties"]["rows"]["items"]["required"],
            json!(["note"])
        );
        // An answer's type the responses copy inline rather than name.
        assert_eq!(schemas["Inline"]["required"], json!(["note"]));
        // Also reached from a request body: an `Option` there may be left out.
        assert!(schemas["Body"].get("required").is_none());
    }
}
