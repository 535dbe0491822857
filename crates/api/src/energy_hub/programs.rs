//! Programmes (the list every participant reads; built-in ones the utility edits) and the
//! time zones the enrollment form offers.

use axum::extract::State;
use chrono::{Offset, Utc};
use chrono_tz::TZ_VARIANTS;
use domain::ids::ProgramId;
use domain::permissions::{ENERGYHUB_VIEW, SYS_ENERGYHUB_EDIT};
use domain::{Code, energy_hub::ProgramInput};
use serde::Deserialize;
use store::energy_hub::ProgramRow;
use utoipa::IntoParams;

use super::{require, require_write, wire};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Body, Query, num},
    session::CurrentUser,
};
use domain::time::now_ms;

pub(crate) fn program_json(p: &ProgramRow) -> wire::Program {
    wire::Program {
        id: p.id.0,
        name: p.name.clone(),
        long_name: p.long_name.clone(),
        description: p.description.clone(),
        retailer: p.retailer.clone(),
        source: if p.is_vtn() { "vtn" } else { "local" },
        vtn_name: p.vtn_name.clone(),
        auto_accept: p.auto_accept,
        active: p.active,
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct ProgramQuery {
    /// `1`: inactive programmes too (the utility only).
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub all: Option<i64>,
}

/// The programmes plants may enroll in: active ones, or all for the utility with `all=1`.
#[utoipa::path(get, path = "/api/v1/oadr/listProgram", tag = "energy hub",
    params(ProgramQuery), security(("bearer" = [])),
    responses((status = 200, description = "Programmes by name; 2 without energyhub.view", body = Envelope<Vec<wire::Program>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ProgramQuery>,
) -> ApiResult<Data<Vec<wire::Program>>> {
    require(&me, ENERGYHUB_VIEW)?;
    let all = q.all == Some(1) && me.actor.has(SYS_ENERGYHUB_EDIT);
    let list = app.store.programs(all).await?;
    Ok(Data(list.iter().map(program_json).collect()))
}

/// Creates (no id) or edits a built-in programme. VTN programmes are the VTN's: 2.
#[utoipa::path(post, path = "/api/v1/oadr/program", tag = "energy hub",
    request_body = wire::ProgramRequest, security(("bearer" = [])),
    responses((status = 200, description = "The programme; 2 without sys.energyhub.edit or for a VTN programme, 1008 unknown id, 4 name (also when taken), longName, description, retailer", body = Envelope<wire::Program>)))]
pub async fn save(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<wire::ProgramRequest>,
) -> ApiResult<Data<wire::Program>> {
    require_write(&me, SYS_ENERGYHUB_EDIT)?;
    let input = ProgramInput {
        name: req.name,
        long_name: req.long_name,
        description: req.description,
        retailer: req.retailer,
        auto_accept: req.auto_accept,
        active: req.active,
    };
    let id = service::energy_hub::programs::save(
        &app.store,
        &me.actor,
        req.id.map(ProgramId),
        input,
        now_ms(),
    )
    .await?;
    let saved = app.store.program(id).await?.ok_or(Code::ProgramMissing)?;
    Ok(Data(program_json(&saved)))
}

/// Every time zone with its current offset, by offset then name.
#[utoipa::path(get, path = "/api/v1/oadr/timezones", tag = "energy hub",
    security(("bearer" = [])),
    responses((status = 200, description = "Time zones; 2 without energyhub.view", body = Envelope<Vec<wire::TimeZone>>)))]
pub async fn timezones(me: CurrentUser) -> ApiResult<Data<Vec<wire::TimeZone>>> {
    require(&me, ENERGYHUB_VIEW)?;
    let now = Utc::now();
    let mut zones: Vec<(i32, wire::TimeZone)> = TZ_VARIANTS
        .iter()
        .map(|tz| {
            let seconds = now.with_timezone(tz).offset().fix().local_minus_utc();
            let sign = if seconds < 0 { '-' } else { '+' };
            let (h, m) = (seconds.abs() / 3600, seconds.abs() % 3600 / 60);
            let offset = format!("{sign}{h:02}:{m:02}");
            let label = format!("(UTC{offset}) {}", tz.name());
            (
                seconds,
                wire::TimeZone {
                    id: tz.name(),
                    offset,
                    label,
                },
            )
        })
        .collect();
    zones.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.id.cmp(b.1.id)));
    Ok(Data(zones.into_iter().map(|(_, z)| z).collect()))
}
