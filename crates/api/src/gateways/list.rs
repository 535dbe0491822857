//! Reading gateways: the paged list with its filters, online counts, one gateway with the
//! devices behind it, and unbinding.

use domain::{
    DomainError,
    ids::{CompanyId, GatewayId, PlantId},
};
use std::collections::HashMap;

use axum::extract::{Path, State};
use domain::{ids::UserId, plant::Status};
use serde::Deserialize;
use service::{agent_filter::CompanyFilter, gateways::GatewayRef};
use store::{
    gateways::{DeviceRow, GatewayFilter, GatewayListRow, GatewayRow},
    users::UserRow,
};
use utoipa::IntoParams;

use super::{
    require_any, visible,
    wire::{Gateway, GatewayCounts, GatewayCustomer, GatewayDetail, GatewayDevice, GatewayPlant},
};
use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Query, num},
    paging::{Page, Paging},
    plants::update_at,
    session::CurrentUser,
    users::create_at,
};
use domain::time::now_ms;

const MAX_PAGE: i64 = 100;
pub(super) const VIEW_KEYS: [&str; 2] = [
    domain::permissions::GATEWAY_VIEW,
    domain::permissions::SYS_GATEWAY_VIEW,
];

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
    /// Only the gateways of this agent company (held by it or on its plants; one of the
    /// caller's agents, internal staff any company); -1 any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub agent_company_id: Option<i64>,
    /// Only the gateways of this account (its user id: holding them or owning their plant).
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub customer_id: Option<i64>,
    /// Part of the SN, any case.
    #[serde(default, alias = "gsn", deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
    /// Only the gateways of this plant.
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
    /// `true`: only stock (gateways on no plant).
    #[serde(default, deserialize_with = "num::opt_bool")]
    pub stock: Option<bool>,
    /// `true`: only gateways on a plant.
    #[serde(default, deserialize_with = "num::opt_bool")]
    pub bound: Option<bool>,
    /// Part of the SN, alias or model, any case.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub keyword: Option<String>,
    /// Only these gateways: ids as a comma list, at most 100 (a restart's follow-up).
    #[serde(default, deserialize_with = "num::opt_text")]
    pub ids: Option<String>,
}

impl ListQuery {
    /// The filter with `agentCompanyId` resolved; `None` when it names a company the caller
    /// may not narrow to, whose answer is an empty list.
    pub(super) async fn resolved(
        &self,
        app: &AppState,
        me: &CurrentUser,
        limit: i64,
        offset: i64,
    ) -> ApiResult<Option<GatewayFilter>> {
        let company =
            service::agent_filter::agent_company(&app.store, &me.actor, self.agent_company_id)
                .await?;
        let mut f = self.filter(limit, offset);
        f.ids = id_list(self.ids.as_deref())?;
        match company {
            CompanyFilter::Any => f.company = None,
            CompanyFilter::Only(c) => f.company = Some(c),
            CompanyFilter::Nothing => return Ok(None),
        }
        Ok(Some(f))
    }

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
            company: self.agent_company_id.filter(|c| *c > 0).map(CompanyId),
            sn: self
                .sn
                .as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from),
            plant: self.plant_id.filter(|p| *p > 0).map(PlantId),
            customer: self.customer_id.filter(|c| *c > 0).map(UserId),
            placed: match (self.stock, self.bound) {
                (Some(true), _) | (_, Some(false)) => Some(false),
                (_, Some(true)) | (Some(false), _) => Some(true),
                (None, None) => None,
            },
            keyword: self
                .keyword
                .as_deref()
                .map(str::trim)
                .filter(|k| !k.is_empty())
                .map(String::from),
            ids: None,
            limit,
            offset,
        }
    }
}

/// The `ids` filter: ids as a comma list, at most [`MAX_PAGE`]; none given is no filter,
/// anything else 4 `ids`.
fn id_list(raw: Option<&str>) -> Result<Option<Vec<GatewayId>>, DomainError> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    let ids = raw
        .split(',')
        .map(|part| part.trim().parse::<i64>().map(GatewayId))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| DomainError::invalid("ids"))?;
    if ids.len() > MAX_PAGE as usize {
        return Err(DomainError::invalid("ids"));
    }
    Ok(Some(ids))
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
pub(crate) fn comm_type_code(code: &str) -> Option<i64> {
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

/// The accounts holding the gateways of a page (the list's "customer"), one query.
pub(super) async fn customers(
    app: &AppState,
    rows: &[GatewayListRow],
) -> ApiResult<HashMap<UserId, UserRow>> {
    Ok(app
        .store
        .users_by_ids(rows.iter().filter_map(|r| r.gateway.owner_id))
        .await?)
}

/// One gateway as the list answers it (the original API's item): `sn` always a string,
/// `updateAt` always `YYYY-MM-DDTHH:MM:SSZ`, `commType` and `protocolType` ints or null (the
/// names are `commTypeName` and `proto`); plus its plant and customer (the account holding
/// it). `key` is always null here: the registration key is the gateway's MQTT password, and
/// only the detail gives it, to those who may edit the gateway.
fn item(g: &GatewayRow, plant_name: Option<&str>, customer: Option<&UserRow>) -> Gateway {
    let status = if g.online {
        Status::Normal
    } else {
        Status::Offline
    };
    let plant_name = plant_name.map(String::from);
    Gateway {
        id: g.id.0,
        sn: g.sn.clone(),
        key: None,
        alias: g.alias.clone(),
        status: status as i64,
        comm_type: comm_type_code(&g.comm_type),
        comm_type_name: comm_type_name(&g.comm_type),
        signal: g.signal,
        soft_ver: g.soft_ver.clone(),
        hard_ver: g.hard_ver.clone(),
        update_at: update_at(g.last_online.unwrap_or(g.updated_at).max(g.updated_at)),
        // The original numbers its protocols; a protocol here is a named config (`proto`).
        protocol_type: None,
        proto: g.protocol.clone(),
        model: g.model.clone(),
        // The time of its newest message (telemetry, status, event or reply), not of its
        // connection: `lldt` in the spec's format, `lastMessageAt` as `updateAt` writes times.
        lldt: g.last_online.map(lldt),
        last_message_at: g.last_online.map(update_at),
        upload_cycle: g.upload_cycle,
        signed_in_at: g.signed_in_at,
        dev_name: if g.alias.is_empty() {
            g.sn.clone()
        } else {
            g.alias.clone()
        },
        online: g.online,
        plant_id: g.plant_id.map(|v| v.0),
        plant: g.plant_id.map(|id| GatewayPlant {
            id: id.0,
            name: plant_name.clone(),
        }),
        plant_name,
        customer_id: g.owner_id.map(|v| v.0),
        customer_name: customer.map(|u| u.shown_name().to_string()),
        customer: customer.map(|u| GatewayCustomer {
            id: u.id.0,
            nickname: u.shown_name().to_string(),
            account: u.account.clone(),
        }),
        create_at: create_at(g.created_at),
    }
}

fn device(d: &DeviceRow) -> GatewayDevice {
    GatewayDevice {
        id: d.id.0,
        sn: d.sn.clone(),
        family: d.family,
        kind: d.type_code,
        alias: d.alias.clone(),
        model: d.model.clone(),
        protocol: d.protocol.clone(),
        rate_power: d.rated_power,
        parent_sn: d.parent_sn.clone(),
        status: d.status,
        online: d.online,
        plant_id: d.plant_id.map(|v| v.0),
        last_seen: d.last_seen.map(update_at),
        update_at: update_at(d.last_seen.unwrap_or(d.updated_at).max(d.updated_at)),
    }
}

/// The gateways the caller may see, paged (`page` from 1, `limit` up to 100).
#[utoipa::path(get, path = "/api/v1/gateways", tag = "gateways", params(ListQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of gateways", body = Envelope<Page<Gateway>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Page<Gateway>>> {
    require_any(&me, &VIEW_KEYS)?;
    let limit = q.limit.unwrap_or(10).clamp(1, MAX_PAGE);
    let page = q.page.unwrap_or(1).max(1);
    let Some(filter) = q.resolved(&app, &me, limit, (page - 1) * limit).await? else {
        return Ok(Data(Page::new(Paging::new(page, limit), 0, Vec::new())));
    };
    let (rows, total) = app
        .store
        .gateways_visible(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    let owners = customers(&app, &rows).await?;
    let infos: Vec<Gateway> = rows
        .iter()
        .map(|r| {
            let customer = r.gateway.owner_id.and_then(|o| owners.get(&o));
            item(&r.gateway, r.plant_name.as_deref(), customer)
        })
        .collect();
    Ok(Data(Page {
        page_size: limit,
        page_number: page,
        total,
        infos,
    }))
}

/// How many gateways the caller may see, online and offline.
#[utoipa::path(get, path = "/api/v1/gateways/count", tag = "gateways", security(("bearer" = [])),
    responses((status = 200, description = "How many, online and offline", body = Envelope<GatewayCounts>)))]
pub async fn count(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<GatewayCounts>> {
    require_any(&me, &VIEW_KEYS)?;
    let (total, online) = app
        .store
        .gateway_counts(me.actor.plant_visibility(), me.id())
        .await?;
    Ok(Data(GatewayCounts {
        total,
        online,
        offline: total - online,
    }))
}

/// One gateway with the devices behind it; 305 when the caller may not see it.
#[utoipa::path(get, path = "/api/v1/gateway/{id}", tag = "gateways", params(("id" = String, Path, description = "id or SN")),
    security(("bearer" = [])), responses((status = 200, description = "The list item plus its devices, and for those who may edit the gateway its key; 305", body = Envelope<GatewayDetail>)))]
pub async fn detail(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<GatewayDetail>> {
    require_any(&me, &VIEW_KEYS)?;
    let (g, scope, plant) = visible(&app, &me, &id).await?;
    let devices = app.store.gateway_devices(g.id).await?;
    let key_editable = service::gateways::key::may_edit(&me.actor, &g, &scope);
    let customer = match g.owner_id {
        Some(owner) => app.store.user(owner).await?,
        None => None,
    };
    let mut gateway = item(
        &g,
        plant.as_ref().map(|p| p.name.as_str()),
        customer.as_ref(),
    );
    gateway.plant = plant.as_ref().map(|p| GatewayPlant {
        id: p.id.0,
        name: Some(p.name.clone()),
    });
    if key_editable {
        gateway.key = Some(g.reg_key.clone());
    }
    Ok(Data(GatewayDetail {
        gateway,
        devices: devices.iter().map(device).collect(),
        key_editable,
        key_pending: key_editable.then_some(g.pending_key.is_some()),
        key_changed_at: key_editable.then(|| g.key_changed_at.map(update_at)),
    }))
}

/// Unbinds a gateway from its plant (`gateway.unbind` on the plant) or from the caller's
/// stock; its devices are unbound too and their history stays with the plant.
#[utoipa::path(post, path = "/api/v1/gateway/{id}/unbind", tag = "gateways", params(("id" = String, Path, description = "id or SN")),
    security(("bearer" = [])), responses((status = 200, description = "Unbound; 2, 305", body = Ack)))]
pub async fn unbind(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    let gateway = GatewayRef::parse(&id);
    service::gateways::unbind(&app.store, &me.actor, gateway, now_ms()).await?;
    Ok(Done)
}
