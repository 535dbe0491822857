//! Enabling and disabling firmware (`firmware.enable` for inverter firmware,
//! `firmware.gateway.edit` for gateway software). Enabling with `notify=true` leaves every
//! owner concerned one notice that an update is available, in the same transaction as the
//! flag (see `store::notices`).

use axum::extract::{Path, State};
use domain::permissions::{FIRMWARE_ENABLE, FIRMWARE_GATEWAY_EDIT};
use serde::Deserialize;
use utoipa::IntoParams;

use super::{FirmwareItem, load_item, require_change};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Query, num},
    session::CurrentUser,
    users::path_id,
};
use domain::time::now_ms;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct EnableQuery {
    /// `true` or `false`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub enable: Option<String>,
    /// `true`: tell the owners concerned (when enabling).
    #[serde(default, deserialize_with = "num::opt_text")]
    pub notify: Option<String>,
}

/// Turns a firmware on or off; with `notify=true` (enabling), every owner of a plant holding a
/// device it fits gets a notice.
#[utoipa::path(get, path = "/api/v1/firmware/{id}/changeEnable", tag = "firmware",
    params(("id" = i64, Path), EnableQuery), security(("bearer" = [])),
    responses((status = 200, description = "The firmware; 2, 4 id/enable", body = Envelope<FirmwareItem>)))]
pub async fn change_enable(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<EnableQuery>,
) -> ApiResult<Data<FirmwareItem>> {
    // Rights before anything about the id: an outsider learns nothing about which exist.
    let (change, gateway_edit) = (FIRMWARE_ENABLE, FIRMWARE_GATEWAY_EDIT);
    require_change(&me, change).or_else(|_| require_change(&me, gateway_edit))?;
    let id = path_id(&id)?;
    let toggle = service::firmware::Toggle {
        enable: q.enable.as_deref(),
        notify: q.notify.as_deref(),
    };
    service::firmware::enable(&app.store, &me.actor, id, toggle, now_ms()).await?;
    Ok(Data(load_item(&app, id).await?))
}
