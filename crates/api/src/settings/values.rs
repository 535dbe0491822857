//! Reading and writing an inverter's settings.

use std::time::Duration;

use axum::extract::{Path, State};
use domain::{
    Code, DomainError,
    settings::{Group, Offer, levels::check_battery_levels_of_write},
};
use serde_json::{Map, Value, json};

use super::{
    amps_max, field_json, flat, full_read, offer_of, raw, require_setting,
    wire::{SettingGroupFields, SettingSupport, SettingValues, SettingWrite},
};
use crate::{
    AppState, commands,
    envelope::{ApiResult, Data, Envelope},
    extract::Body,
    inverters::{self, Inverter},
    session::CurrentUser,
};

/// How long a read waits for the device before answering the values it last confirmed.
const READ_WAIT: Duration = Duration::from_secs(5);
/// How long a device has to apply a write.
const WRITE_TIMEOUT: Duration = Duration::from_secs(60);
/// How many recent commands a read looks through for writes the device confirmed.
const RECENT_COMMANDS: i64 = 50;

/// Whether the inverter has settings (601 when its register map writes none, 605 when it
/// writes none of its family's), the fields it offers by group, and whether the caller may
/// change them.
#[utoipa::path(get, path = "/api/v1/inverter/setting/{sn}/support", tag = "settings", params(("sn" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, description = "The family's fields by group; 600, 601, 605", body = Envelope<SettingSupport>)))]
pub async fn support(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<SettingSupport>> {
    let inv = inverters::visible(&app, &me, &sn).await?;
    let offer = offer_of(&app, &inv).await?;
    let amps = amps_max(&app, &inv).await?;
    let groups: Vec<SettingGroupFields> = Group::ALL
        .iter()
        .filter_map(|g| {
            let fields: Vec<_> = offer
                .group(*g)
                .map(|f| field_json(&f.for_model(amps)))
                .collect();
            (!fields.is_empty()).then(|| SettingGroupFields {
                key: (*g).into(),
                fields,
            })
        })
        .collect();
    Ok(Data(SettingSupport {
        support: true,
        sn: inv.row.sn.clone(),
        family: offer.family().into(),
        editable: require_setting(&me, &inv).is_ok(),
        groups,
    }))
}

/// The inverter's settings as one flat object whose values are all strings, carrying every
/// key of the original API (350 besides `sn`) for every kind of inverter: the device's answer
/// when it is online, else the values it last confirmed, else the defaults; settings the
/// device does not have as the original shows them (`"0"`, `"false"`, `"00:00"`). Flags are
/// `"0"`/`"1"`, except `time1on`..`time6on`, `genTime1on`..`genTime6on` and the day flags
/// (`"true"`/`"false"`, with `time1On`..`time6On` as `"1"`/`"0"`) (docs/clients.md).
#[utoipa::path(get, path = "/api/v1/common/setting/{sn}/read", tag = "settings", params(("sn" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, description = "A flat object of every original key {sn, safetyType, battMode, peakAndVallery \"0\"/\"1\", sellTime1..6, sellTime1..6Pac, sellTime1..6Volt, cap1..6, time1..6on \"true\"/\"false\", genTime1..6on, mondayOn..sundayOn, zeroExportPower, batteryMaxCurrentCharge, batteryMaxCurrentDischarge, beep, ...}, every value a string; 2, 600, 601", body = Envelope<SettingValues>)))]
pub async fn read(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<SettingValues>> {
    let inv = inverters::visible(&app, &me, &sn).await?;
    require_setting(&me, &inv)?;
    let offer = match offer_of(&app, &inv).await {
        Ok(offer) => offer,
        Err(crate::envelope::ApiError::Domain(e)) if e.code == Code::NoSettings => {
            return Ok(Data(full_read(&inv.row.sn, None, &[])));
        }
        Err(e) => return Err(e),
    };
    let confirmed = current(&app, &inv, &offer).await?;
    Ok(Data(full_read(&inv.row.sn, Some(&offer), &confirmed)))
}

/// The values the device has: those it confirmed since the last read (nobody may have polled
/// its writes to the end), then its own answer when it is online (waiting briefly), as kept.
pub(crate) async fn current(
    app: &AppState,
    inv: &Inverter,
    offer: &Offer,
) -> ApiResult<Vec<(String, String)>> {
    for c in app
        .store
        .device_commands(&inv.row.sn, RECENT_COMMANDS)
        .await?
        .iter()
        .rev()
    {
        service::setting_offers::remember_applied(&app.store, c).await?;
    }
    let link = app.commands.as_ref();
    service::setting_offers::read_from_device(&app.store, link, &inv.row, offer, READ_WAIT).await;
    Ok(app.store.device_settings(&inv.row.sn).await?)
}

/// Writes settings: a JSON object of values (strings; flags may be booleans). Every key of the
/// family is validated (code 4 names the first bad field; battery currents up to the model's
/// maximum); the original's other keys, which clients echo back from a read, are ignored.
/// Only values that differ from the device's confirmed ones are sent, as one `set_params`
/// command. The audit entry records each change as `{key, old, new, unit}`.
/// Answers `{commandId, changed}` (`commandId` null when nothing changed); the write counts as
/// applied once `GET /api/v1/command/{commandId}` says `succeeded`.
#[utoipa::path(post, path = "/api/v1/common/setting/{sn}/set", tag = "settings", params(("sn" = String, Path)),
    request_body = Object, security(("bearer" = [])),
    responses((status = 200, description = "The command and the keys changed; 2, 4 field, 600, 601, 602 offline, 603 upgrading, 605, 606 connection failed", body = Envelope<SettingWrite>)))]
pub async fn set(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Body(body): Body<Map<String, Value>>,
) -> ApiResult<Data<SettingWrite>> {
    let inv = inverters::visible(&app, &me, &sn).await?;
    require_setting(&me, &inv)?;
    let offer = offer_of(&app, &inv).await?;
    Ok(Data(write(&app, &me, &inv, &offer, &body).await?))
}

/// The one settings write every route goes through: every offered key in `body` validated
/// (code 4 names the first bad field; battery currents up to the model's maximum), other keys
/// ignored, the battery levels in order with the device's other ones when the write changes
/// one (code 4, `domain::settings::levels`), the values that differ from the device's confirmed ones sent as
/// one `set_params` command, audited as `{key, old, new, unit}`. The caller has checked the
/// permission.
pub(crate) async fn write(
    app: &AppState,
    me: &CurrentUser,
    inv: &Inverter,
    offer: &Offer,
    body: &Map<String, Value>,
) -> ApiResult<SettingWrite> {
    let amps = amps_max(app, inv).await?;
    let mut values = Vec::new();
    for (key, value) in body {
        if let Some(field) = offer.field(key) {
            values.push((key.clone(), field.for_model(amps).check(&raw(value))?));
        }
    }
    if values.is_empty() {
        return Err(DomainError::with_detail(Code::InvalidParameter, "no setting given").into());
    }
    let confirmed = app.store.device_settings(&inv.row.sn).await?;
    let current = flat(&inv.row.sn, offer.fields(), &confirmed);
    check_battery_levels_of_write(
        |key| {
            values
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        },
        |key| current.0.get(key).map(String::as_str),
    )?;
    let changed: Map<String, Value> = values
        .into_iter()
        .filter(|(k, v)| current.0.get(k) != Some(v))
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    if changed.is_empty() {
        return Ok(SettingWrite {
            command_id: None,
            changed: Vec::new(),
        });
    }
    let keys: Vec<String> = changed.keys().cloned().collect();
    // The audit entry says what each value was (what a read showed) and what it becomes.
    let changes: Vec<Value> = changed
        .iter()
        .map(|(k, new)| {
            json!({
                "key": k,
                "old": current.0.get(k),
                "new": new,
                "unit": offer.field(k).map(|f| f.unit),
            })
        })
        .collect();
    let id = commands::send_to_device_noting(
        app,
        me,
        domain::audit_action::SETTING_SET,
        &inv.row,
        domain::command::CommandKind::SetParams,
        Value::Object(changed),
        WRITE_TIMEOUT,
        json!({ "changes": changes }),
    )
    .await?;
    Ok(SettingWrite {
        command_id: Some(id.0),
        changed: keys,
    })
}
