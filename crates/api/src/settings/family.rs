//! The original API's settings routes per family (docs/api.md, "Settings by family"): for each
//! route `GET {prefix}/{sn}/{part}` reads and `POST {prefix}/{sn}/{part}` sets, where `part`
//! is `read` (everything) or one group (`workMode`, `battery`, `tou`, `generator`, `grid`,
//! `limits`, `power`). Thin handlers over the common settings use case (`values::current`,
//! `values::write`): the same validation, permission, command and audit, narrowed to the
//! route's inverters (`domain::settings::route`) and to the part's keys.

use axum::extract::{Path, State};
use domain::{
    Code, DomainError,
    settings::{
        Field,
        route::{Part, Route, in_slot},
    },
};
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    flat, offer_of, require_setting,
    values::{current, write},
    wire::{SettingValues, SettingWrite},
};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Body, Query, num},
    inverters::{self, Inverter},
    session::CurrentUser,
};

#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct SetQuery {
    /// With `tou`: the time-of-use slot (1 to 6) the call sets; only that slot's keys and the
    /// day flags are taken.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub time: Option<i64>,
}

/// The inverter `sn` if the caller sees it, the route serves it and the caller may change its
/// settings; with the settings it offers.
async fn admitted(
    app: &AppState,
    me: &CurrentUser,
    route: Route,
    sn: &str,
) -> ApiResult<(Inverter, domain::settings::Offer)> {
    let inv = inverters::visible(app, me, sn).await?;
    route.admits(inv.row.type_code, &inv.row.protocol)?;
    require_setting(me, &inv)?;
    let offer = offer_of(app, &inv).await?;
    Ok((inv, offer))
}

/// The offered fields a part covers; 605 when the inverter offers none of them.
fn part_fields(offer: &domain::settings::Offer, part: Part) -> ApiResult<Vec<&Field>> {
    let fields: Vec<&Field> = offer
        .fields()
        .iter()
        .filter(|f| part.covers(f.group))
        .collect();
    if fields.is_empty() {
        return Err(Code::NoSettings.into());
    }
    Ok(fields)
}

async fn read_part(
    app: &AppState,
    me: &CurrentUser,
    route: Route,
    sn: &str,
    part: &str,
) -> ApiResult<Data<SettingValues>> {
    let part = Part::parse(part)?;
    let (inv, offer) = admitted(app, me, route, sn).await?;
    let fields = part_fields(&offer, part)?;
    let confirmed = current(app, &inv, &offer).await?;
    Ok(Data(flat(&inv.row.sn, fields, &confirmed)))
}

/// The keys a set call gives, checked against the part: a lone `value` (a form field) stands
/// for the part's only field; any key the part does not offer is code 4 naming it; with
/// `time`, keys of another slot are code 4 `time`.
fn part_body(
    fields: &[&Field],
    time: Option<i64>,
    mut body: Map<String, Value>,
) -> Result<Map<String, Value>, DomainError> {
    if let Some(value) = body.remove("value") {
        match fields {
            [only] if !body.contains_key(&only.key) => {
                body.insert(only.key.clone(), value);
            }
            _ => return Err(DomainError::invalid("value")),
        }
    }
    let slot = match time {
        None => None,
        Some(t) => Some(
            usize::try_from(t)
                .ok()
                .filter(|t| (1..=domain::settings::SLOTS).contains(t))
                .ok_or_else(|| DomainError::invalid("time"))?,
        ),
    };
    for key in body.keys() {
        if !fields.iter().any(|f| f.key == *key) {
            return Err(DomainError::invalid(key.clone()));
        }
        if let Some(slot) = slot
            && !in_slot(key, slot)
        {
            return Err(DomainError::invalid("time"));
        }
    }
    Ok(body)
}

async fn set_part(
    app: &AppState,
    me: &CurrentUser,
    route: Route,
    (sn, part, time): (&str, &str, Option<i64>),
    body: Map<String, Value>,
) -> ApiResult<Data<SettingWrite>> {
    let part = match Part::parse(part)? {
        Part::All => return Err(DomainError::invalid("part").into()),
        p => p,
    };
    let (inv, offer) = admitted(app, me, route, sn).await?;
    let fields = part_fields(&offer, part)?;
    let body = part_body(&fields, time, body)?;
    Ok(Data(write(app, me, &inv, &offer, &body).await?))
}

/// One route's read and set handlers (utoipa documents each path on its own).
macro_rules! family_route {
    ($read:ident, $set:ident, $route:expr, $path:tt $(,)?) => {
        /// Reads the settings of the route's inverters: `read` all, or one group.
        #[utoipa::path(get, path = $path, tag = "settings",
            params(("sn" = String, Path), ("part" = String, Path, description = "read, workMode, battery, tou, generator, grid, limits or power")),
            security(("bearer" = [])),
            responses((status = 200, description = "sn and the part's offered keys, every value a string; 2, 4 part, 600, 601 brand or no settings, 605 another family or nothing in the part, 610 grid type", body = Envelope<SettingValues>)))]
        pub async fn $read(
            State(app): State<AppState>,
            me: CurrentUser,
            Path((sn, part)): Path<(String, String)>,
        ) -> ApiResult<Data<SettingValues>> {
            read_part(&app, &me, $route, &sn, &part).await
        }

        /// Sets settings of the route's inverters: a JSON or form object of the group's keys (a
        /// lone `value` for a one-field group such as `power`); `tou` takes `time` (slot 1-6).
        #[utoipa::path(post, path = $path, tag = "settings",
            params(("sn" = String, Path), ("part" = String, Path, description = "workMode, battery, tou, generator, grid, limits or power"), SetQuery),
            request_body = Object, security(("bearer" = [])),
            responses((status = 200, description = "The command and the keys changed, as the common set; 2, 4 field/part/time, 600, 601, 602, 603, 605, 606, 610", body = Envelope<SettingWrite>)))]
        pub async fn $set(
            State(app): State<AppState>,
            me: CurrentUser,
            Path((sn, part)): Path<(String, String)>,
            Query(q): Query<SetQuery>,
            Body(body): Body<Map<String, Value>>,
        ) -> ApiResult<Data<SettingWrite>> {
            set_part(&app, &me, $route, (&sn, &part, q.time), body).await
        }
    };
}

family_route!(
    dy_store_read,
    dy_store_set,
    Route::DeyeStore,
    "/api/v1/dy/store/{sn}/{part}",
);
family_route!(
    dy_store_3ph_read,
    dy_store_3ph_set,
    Route::DeyeStoreThreePhase,
    "/api/v1/dy/store/{sn}/threePhase/{part}",
);
family_route!(
    dy_grid_read,
    dy_grid_set,
    Route::DeyeGrid,
    "/api/v1/dy/grid/{sn}/{part}",
);
family_route!(
    mt_read,
    mt_set,
    Route::Micro,
    "/api/v1/mt/setting/{sn}/{part}",
);
family_route!(
    gy_read,
    gy_set,
    Route::HighVoltage,
    "/api/v1/gy/setting/{sn}/{part}",
);
family_route!(asw_read, asw_set, Route::Aiswei, "/api/v1/asw/{sn}/{part}",);
family_route!(
    uneet_read,
    uneet_set,
    Route::Uneet,
    "/api/v1/setting/uneet/{sn}/{part}",
);

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(dy_store_read, dy_store_set))
        .routes(routes!(dy_store_3ph_read, dy_store_3ph_set))
        .routes(routes!(dy_grid_read, dy_grid_set))
        .routes(routes!(mt_read, mt_set))
        .routes(routes!(gy_read, gy_set))
        .routes(routes!(asw_read, asw_set))
        .routes(routes!(uneet_read, uneet_set))
}
