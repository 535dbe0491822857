//! The OpenAPI document, generated from the handlers' annotations. A test compares it with the
//! committed `docs/openapi.json` so that every API change shows up in review.

use utoipa::{
    Modify, OpenApi,
    openapi::{
        ObjectBuilder, Schema, Type,
        security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
    },
};

use utoipa_axum::router::OpenApiRouter;

use crate::{
    AppState, accounts, audit, auth, batteries, commands, company, debug, dict, events, firmware,
    gateways, inverters, messages, meters, monitor, permissions, plants, protocols, settings,
    system, upgrades, users, versions, weather_stations,
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
        .merge(permissions::router())
        .merge(company::router())
        .merge(dict::router())
        .merge(plants::router())
        .merge(protocols::router())
        .merge(gateways::router())
        .merge(monitor::router())
        .merge(inverters::router())
        .merge(batteries::router())
        .merge(meters::router())
        .merge(weather_stations::router())
        .merge(events::router())
        .merge(messages::router())
        .merge(system::router())
        .merge(versions::router())
        .merge(audit::router())
        .merge(commands::router())
        .merge(settings::router())
        .merge(firmware::router())
        .merge(upgrades::router())
        .merge(debug::router())
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

/// The document as pretty JSON, keys sorted (a stable order, so it can be committed and compared).
pub fn document() -> Result<String, serde_json::Error> {
    let mut doc = routes().into_openapi();
    name_operations(&mut doc);
    // Through `Value`, whose maps are sorted: extensions are a hash map, whose order varies.
    serde_json::to_string_pretty(&serde_json::to_value(&doc)?)
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
