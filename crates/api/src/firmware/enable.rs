//! Enabling and disabling firmware (`firmware.enable` for inverter firmware,
//! `firmware.gateway.edit` for gateway software). Enabling with `notify=true` leaves every
//! owner concerned one notice that an update is available, in the same transaction as the
//! flag (see `store::notices`).

use axum::extract::{Path, State};
use domain::DomainError;
use serde::Deserialize;
use serde_json::json;
use utoipa::IntoParams;

use super::{ENABLE, FirmwareItem, GATEWAY_EDIT, INVERTER_VIEW, load, load_item, require_change};
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

fn flag(raw: Option<&str>, field: &str) -> Result<bool, DomainError> {
    match raw {
        Some("true" | "1") => Ok(true),
        Some("false" | "0") | None => Ok(false),
        Some(_) => Err(DomainError::invalid(field)),
    }
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
    require_change(&me, ENABLE).or_else(|_| require_change(&me, GATEWAY_EDIT))?;
    let id = path_id(&id)?;
    let row = load(&app, id).await?;
    let key = if row.target == "gateway" {
        GATEWAY_EDIT
    } else {
        ENABLE
    };
    require_change(&me, key)?;
    if row.target != "gateway" {
        super::require(&me, INVERTER_VIEW)?;
    }
    if q.enable.is_none() {
        return Err(DomainError::invalid("enable").into());
    }
    let enable = flag(q.enable.as_deref(), "enable")?;
    let notify = enable && flag(q.notify.as_deref(), "notify")?;
    let before = load_item(&app, id).await?;
    let params = json!({
        "target": row.target,
        "label": before.type_name,
        "version": row.version,
        "fileName": row.file_name,
    })
    .to_string();
    let sent = app
        .store
        .enable_firmware(id, enable, notify.then_some(params.as_str()), now_ms())
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    let action = if enable {
        "firmware.enable"
    } else {
        "firmware.disable"
    };
    let detail = json!({"firmId": id, "version": row.version, "target": row.target,
        "notify": notify, "notices": sent});
    crate::audit::record_admin(&app, &me, action, &format!("firmware:{}", row.name), detail).await;
    Ok(Data(load_item(&app, id).await?))
}
