//! Reading gateways: the paged list with its filters, online counts, one gateway with the
//! devices behind it, and unbinding.

use std::collections::HashMap;

use axum::extract::{Path, State};
use domain::{ids::UserId, plant::Status};
use serde::Deserialize;
use serde_json::{Value, json};
use service::gateways::GatewayRef;
use store::{
    gateways::{DeviceRow, GatewayFilter, GatewayListRow, GatewayRow},
    users::UserRow,
};
use utoipa::IntoParams;

use super::{require_any, visible};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Done},
    extract::{Query, num},
    now_ms,
    plants::update_at,
    session::CurrentUser,
    users::create_at,
};

const MAX_PAGE: i64 = 100;
pub(super) const VIEW_KEYS: [&str; 2] = ["gateway.view", "sys.gateway.view"];

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub page: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub limit: Option<i64>,
    /// 1 online, 0 offline; -1 any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub status: Option<i64>,
    /// Upload interval in seconds; -1 any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub upload_cycle: Option<i64>,
    /// Protocol config name; -1 any.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub protocol: Option<String>,
    /// Company the gateways are held for; -1 any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub agent_company_id: Option<i64>,
    /// Part of the SN, any case.
    #[serde(default, alias = "gsn", deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
    /// Only the gateways of this plant.
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
}

impl ListQuery {
    pub(super) fn filter(&self, limit: i64, offset: i64) -> GatewayFilter {
        GatewayFilter {
            online: self
                .status
                .filter(|s| *s >= 0)
                .map(|s| s != Status::Offline as i64),
            upload_cycle: self.upload_cycle.filter(|c| *c >= 0),
            protocol: self
                .protocol
                .as_deref()
                .map(str::trim)
                .filter(|p| !p.is_empty() && *p != "-1")
                .map(String::from),
            company: self.agent_company_id.filter(|c| *c > 0),
            sn: self
                .sn
                .as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from),
            plant: self.plant_id.filter(|p| *p > 0),
            limit,
            offset,
        }
    }
}

pub(super) fn comm_type_name(code: &str) -> String {
    match code.to_ascii_lowercase().as_str() {
        "wifi" | "wi-fi" => "WiFi".into(),
        "4g" | "lte" => "4G".into(),
        "2g" | "gprs" => "GPRS".into(),
        "eth" | "ethernet" | "lan" => "Ethernet".into(),
        "rs485" => "RS485".into(),
        _ => code.into(),
    }
}

/// The numeric communication type clients read as an int (the name is `commTypeName`); null
/// for a link without a code.
fn comm_type_code(code: &str) -> Option<i64> {
    match comm_type_name(code).as_str() {
        "WiFi" => Some(1),
        "GPRS" => Some(2),
        "4G" => Some(3),
        "Ethernet" => Some(4),
        "RS485" => Some(5),
        _ => None,
    }
}

/// `YYYY-MM-DD HH:MM:SS` (UTC), as the gateway list shows the last data time.
pub(super) fn lldt(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .format("%Y-%m-%d %H:%M:%S")
        .to_string()
}

/// The accounts holding the gateways of a page (the list's "customer"), read once per owner.
pub(super) async fn customers(
    app: &AppState,
    rows: &[GatewayListRow],
) -> ApiResult<HashMap<i64, UserRow>> {
    let mut found = HashMap::new();
    for owner in rows.iter().filter_map(|r| r.gateway.owner_id) {
        if !found.contains_key(&owner)
            && let Some(u) = app.store.user(UserId(owner)).await?
        {
            found.insert(owner, u);
        }
    }
    Ok(found)
}

/// The customer of a gateway: its holder's nickname, or account when there is none.
pub(super) fn customer_name(u: &UserRow) -> &str {
    if u.nickname.trim().is_empty() {
        &u.account
    } else {
        &u.nickname
    }
}

/// One gateway as the list answers it (the original API's item): `sn` always a string,
/// `updateAt` always `YYYY-MM-DDTHH:MM:SSZ`, `commType` and `protocolType` ints or null (the
/// names are `commTypeName` and `proto`); plus its plant and customer (the account holding
/// it). `key` is always null here: the registration key is the gateway's MQTT password, and
/// only the detail gives it, to those who may edit the gateway.
fn item(g: &GatewayRow, plant_name: Option<&str>, customer: Option<&UserRow>) -> Value {
    let status = if g.online {
        Status::Normal
    } else {
        Status::Offline
    };
    json!({
        "id": g.id, "sn": g.sn, "key": null, "alias": g.alias, "status": status as i64,
        "commType": comm_type_code(&g.comm_type), "commTypeName": comm_type_name(&g.comm_type), "signal": g.signal,
        "softVer": g.soft_ver, "hardVer": g.hard_ver,
        "updateAt": update_at(g.last_online.unwrap_or(g.updated_at).max(g.updated_at)),
        // The original numbers its protocols; a protocol here is a named config (`proto`).
        "protocolType": null, "proto": g.protocol, "model": g.model,
        // The time of its newest message (telemetry, status, event or reply), not of its
        // connection: `lldt` in the spec's format, `lastMessageAt` as `updateAt` writes times.
        "lldt": g.last_online.map(lldt), "lastMessageAt": g.last_online.map(update_at),
        "uploadCycle": g.upload_cycle,
        "devName": if g.alias.is_empty() { &g.sn } else { &g.alias },
        "online": g.online, "plantId": g.plant_id, "plantName": plant_name,
        "plant": g.plant_id.map(|id| json!({"id": id, "name": plant_name})),
        "customerId": g.owner_id, "customerName": customer.map(customer_name),
        "customer": customer.map(|u| json!({"id": u.id, "nickname": customer_name(u), "account": u.account})),
        "createAt": create_at(g.created_at),
    })
}

fn device(d: &DeviceRow) -> Value {
    json!({
        "id": d.id, "sn": d.sn, "family": d.family, "type": d.type_code, "alias": d.alias,
        "model": d.model, "protocol": d.protocol, "ratePower": d.rated_power,
        "parentSn": d.parent_sn, "status": d.status, "online": d.online, "plantId": d.plant_id,
        "lastSeen": d.last_seen.map(update_at),
        "updateAt": update_at(d.last_seen.unwrap_or(d.updated_at).max(d.updated_at)),
    })
}

/// The gateways the caller may see, paged (`page` from 1, `limit` up to 100).
#[utoipa::path(get, path = "/api/v1/gateways", tag = "gateways", params(ListQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {pageSize, pageNumber, total, infos:[{id, sn, key, status, commType (1 WiFi, 2 GPRS, 3 4G, 4 Ethernet, 5 RS485, or null), signal, softVer, hardVer, updateAt, protocolType (null), model, lldt (last message, UTC), lastMessageAt (the same, YYYY-MM-DDTHH:MM:SSZ), uploadCycle, devName, commTypeName, proto, ...}]}")))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Value>> {
    require_any(&me, &VIEW_KEYS)?;
    let limit = q.limit.unwrap_or(10).clamp(1, MAX_PAGE);
    let page = q.page.unwrap_or(1).max(1);
    let (rows, total) = app
        .store
        .gateways_visible(
            me.actor.plant_visibility(),
            me.id(),
            &q.filter(limit, (page - 1) * limit),
        )
        .await?;
    let owners = customers(&app, &rows).await?;
    let infos: Vec<Value> = rows
        .iter()
        .map(|r| {
            let customer = r.gateway.owner_id.and_then(|o| owners.get(&o));
            item(&r.gateway, r.plant_name.as_deref(), customer)
        })
        .collect();
    Ok(Data(
        json!({"pageSize": limit, "pageNumber": page, "total": total, "infos": infos}),
    ))
}

/// How many gateways the caller may see, online and offline.
#[utoipa::path(get, path = "/api/v1/gateways/count", tag = "gateways", security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {total, online, offline}")))]
pub async fn count(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<Value>> {
    require_any(&me, &VIEW_KEYS)?;
    let (total, online) = app
        .store
        .gateway_counts(me.actor.plant_visibility(), me.id())
        .await?;
    Ok(Data(
        json!({"total": total, "online": online, "offline": total - online}),
    ))
}

/// One gateway with the devices behind it; 305 when the caller may not see it.
#[utoipa::path(get, path = "/api/v1/gateway/{id}", tag = "gateways", params(("id" = String, Path, description = "id or SN")),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with the list item plus plant {id, name}, devices[], keyEditable, and for those who may edit the gateway its key, keyPending and keyChangedAt; 305")))]
pub async fn detail(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Value>> {
    require_any(&me, &VIEW_KEYS)?;
    let (g, scope, plant) = visible(&app, &me, &id).await?;
    let devices = app.store.gateway_devices(g.id).await?;
    let key_editable = super::key::may_edit(&me, &g, &scope);
    let customer = match g.owner_id {
        Some(owner) => app.store.user(UserId(owner)).await?,
        None => None,
    };
    let mut body = item(
        &g,
        plant.as_ref().map(|p| p.name.as_str()),
        customer.as_ref(),
    );
    body["plant"] = match &plant {
        Some(p) => json!({"id": p.id, "name": p.name}),
        None => Value::Null,
    };
    body["devices"] = devices.iter().map(device).collect();
    if key_editable {
        body["key"] = json!(g.reg_key);
        body["keyPending"] = json!(g.pending_key.is_some());
        body["keyChangedAt"] = json!(g.key_changed_at.map(update_at));
    }
    body["keyEditable"] = json!(key_editable);
    Ok(Data(body))
}

/// Unbinds a gateway from its plant (`gateway.unbind` on the plant) or from the caller's
/// stock; its devices are unbound too and their history stays with the plant.
#[utoipa::path(post, path = "/api/v1/gateway/{id}/unbind", tag = "gateways", params(("id" = String, Path, description = "id or SN")),
    security(("bearer" = [])), responses((status = 200, description = "Envelope; 2, 305")))]
pub async fn unbind(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    let gateway = GatewayRef::parse(&id);
    let was = service::gateways::unbind(&app.store, &me.actor, gateway, now_ms()).await?;
    let g = &was.gateway;
    // Filed under the plant the gateway left.
    let detail = serde_json::json!({"plantId": g.plant_id});
    crate::audit::record_under(
        &app,
        &me,
        "gateway.unbind",
        &g.sn,
        g.plant_id,
        detail,
        "succeeded",
    )
    .await;
    Ok(Done)
}
