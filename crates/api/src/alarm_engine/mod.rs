//! The alarm engine's routes (docs/alarms.md): a company's rules (`company.info` to read,
//! `company.edit` to change; internal administrators name the company with `companyId`) and
//! the cases the caller may see (`event.view`, the plant visibility rule): the list, one case
//! with its history, acknowledging one. Rules live in `service::alarm_engine`.

mod cases;
mod rules;

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(rules::list))
        .routes(routes!(rules::add))
        .routes(routes!(rules::edit))
        .routes(routes!(rules::delete))
        .routes(routes!(cases::list))
        .routes(routes!(cases::one))
        .routes(routes!(cases::acknowledge))
}
