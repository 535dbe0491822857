//! Plant reports: a day, month or year of one plant (energy, self-consumption, income, peak
//! power, predicted generation, events), as JSON for the A4 report page and as a workbook,
//! both built by `service::reports` (which also builds the monthly report e-mail's workbook).
//! Reports need `workdata.view` (`workdata.export` for the workbook) and a plant the caller
//! may see; one they may not see answers 4 `id` exactly like a missing one.

pub(crate) mod subscription;

use axum::{
    extract::{Path, State},
    response::Response,
};
use domain::{Code, DomainError};
use serde::Deserialize;
use service::reports::{self, Period, model::PlantReport, sheet};
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data, Envelope, current_lang},
    extract::{Query, num},
    monitor::PlantCtx,
    readings,
    session::CurrentUser,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(report))
        .routes(routes!(download))
        .routes(routes!(subscription::state, subscription::set))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct ReportQuery {
    /// `day`, `month` or `year` (`day` by default).
    #[serde(default, rename = "type", deserialize_with = "num::opt_text")]
    #[param(rename = "type")]
    pub kind: Option<String>,
    /// `YYYY-MM-DD`, `YYYY-MM` or `YYYY` as the type asks; the current one by default.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub date: Option<String>,
}

/// The plant `raw_id` names when the caller may see it; 4 `id` otherwise.
pub(crate) async fn plant(app: &AppState, me: &CurrentUser, raw_id: &str) -> ApiResult<PlantCtx> {
    match PlantCtx::load(app, me, raw_id).await {
        Err(ApiError::Domain(e)) if e.code == Code::PlantMissing => {
            Err(DomainError::invalid("id").into())
        }
        other => other,
    }
}

fn require(me: &CurrentUser, key: &str) -> ApiResult<()> {
    if me.actor.has(key) {
        Ok(())
    } else {
        Err(Code::NoPermission.into())
    }
}

async fn report_of(
    app: &AppState,
    me: &CurrentUser,
    id: &str,
    q: &ReportQuery,
) -> ApiResult<PlantReport> {
    let ctx = plant(app, me, id).await?;
    let period = Period::parse(
        q.kind.as_deref(),
        q.date.as_deref(),
        readings::today(ctx.tz),
    )?;
    let curves = &app.caches.curves;
    let lang = current_lang();
    let figures = &app.config.figures;
    Ok(reports::build(
        &app.store,
        curves,
        &me.actor,
        ctx.view(),
        (period, figures),
        lang,
    )
    .await?)
}

/// A plant's report of a day (24 hours and the 5-minute power curves), a month (its days) or
/// a year (its months).
#[utoipa::path(get, path = "/api/v1/report/plant/{id}", tag = "reports",
    params(("id" = i64, Path), ReportQuery), security(("bearer" = [])),
    responses((status = 200, description = "The report; 2 without workdata.view, 4 id (missing or not visible), 4 type, 4 date", body = Envelope<PlantReport>)))]
pub async fn report(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<ReportQuery>,
) -> ApiResult<Data<PlantReport>> {
    require(&me, domain::permissions::WORKDATA_VIEW)?;
    Ok(Data(report_of(&app, &me, &id, &q).await?))
}

/// The same report as a workbook: sheets Summary, Energy and Events, headers in the caller's
/// language.
#[utoipa::path(get, path = "/api/v1/report/plant/{id}/download", tag = "reports",
    params(("id" = i64, Path), ReportQuery), security(("bearer" = [])),
    responses((status = 200, content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = Vec<u8>, description = "An .xlsx attachment `<plant>-<date>.xlsx`; 2 without workdata.export, 4 id, type, date")))]
pub async fn download(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<ReportQuery>,
) -> ApiResult<Response> {
    require(&me, domain::permissions::WORKDATA_EXPORT)?;
    let r = report_of(&app, &me, &id, &q).await?;
    crate::xlsx::download(&sheet::file_name(&r), &sheet::sheets(&r, current_lang()))
}
