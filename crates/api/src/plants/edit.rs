//! Creating a plant (the wizard's final call), reading it, and editing its parts.

use axum::extract::{Path, State};
use domain::{
    Code, DomainError,
    account::{parse_email, parse_phone},
    currency,
    ids::PlantId,
    plant::{
        ADDRESS_MAX, CONTACT_MAX, INVEST_MAX, PlantType, TariffSegment, Valuation, check_azimuth,
        check_capacity, check_date, check_location, check_money, check_name, check_tilt,
    },
};
use serde::{Deserialize, Serialize};
use service::plants::{Changes, PlantDraft};
use store::plants::{PlantFields, PlantRow};
use utoipa::ToSchema;

use super::{
    DictEntry, TariffRow, currency_json, offers::PendingOffer, tariff_row, timezone_json, visible,
};
use crate::{
    AppState, dict,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, num},
    files,
    session::CurrentUser,
    users::{create_at, path_id},
};
use domain::time::now_ms;

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantRequest {
    #[serde(default)]
    #[schema(min_length = 5, max_length = 32)]
    pub name: Option<String>,
    /// Installed capacity, kWp (0-50000).
    #[serde(default, alias = "capacity", deserialize_with = "num::opt_f64")]
    #[schema(minimum = 0, maximum = 50000)]
    pub total_power: Option<f64>,
    /// Commissioning / grid-connection date, `YYYY-MM-DD`.
    #[serde(default, alias = "gridDate", deserialize_with = "num::opt_text")]
    pub join_date: Option<String>,
    /// 1 grid-tied, 2 storage AC coupled, 3 storage DC coupled.
    #[serde(default, rename = "type", deserialize_with = "num::opt_i64")]
    pub kind: Option<i64>,
    /// Currency id or ISO code.
    #[serde(default, alias = "currencyId", deserialize_with = "num::opt_text")]
    pub currency: Option<String>,
    /// Time zone id or IANA name.
    #[serde(
        default,
        alias = "timezoneId",
        alias = "timeZone",
        deserialize_with = "num::opt_text"
    )]
    pub timezone: Option<String>,
    #[serde(default)]
    #[schema(max_length = 120)]
    pub address: Option<String>,
    #[serde(default, deserialize_with = "num::opt_f64")]
    pub lon: Option<f64>,
    #[serde(default, deserialize_with = "num::opt_f64")]
    pub lat: Option<f64>,
    /// URLs answered by `POST /api/v1/plant/thumbnail`.
    #[serde(default)]
    pub image_url: Option<String>,
    #[serde(default)]
    pub thumb_url: Option<String>,
    /// Contact person.
    #[serde(default, alias = "contact")]
    #[schema(max_length = 30)]
    pub principal: Option<String>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub phone: Option<String>,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub email: Option<String>,
    #[serde(default)]
    #[schema(max_length = 30)]
    pub installer: Option<String>,
    #[serde(default, deserialize_with = "num::opt_f64")]
    pub invest: Option<f64>,
    /// Tilt of the modules from the horizontal, degrees (0-90); optional. On an edit, left
    /// out keeps it and `null` (or `""`) clears it. Without it the plant figures' clear-sky
    /// reference assumes one (docs/figures.md).
    #[serde(default, deserialize_with = "num::clearable_f64")]
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 90)]
    pub tilt: Option<Option<f64>>,
    /// Azimuth of the modules, degrees clockwise from north (0-360, 180 = south); optional,
    /// kept and cleared like `tilt`.
    #[serde(default, deserialize_with = "num::clearable_f64")]
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 360)]
    pub azimuth: Option<Option<f64>>,
    /// Account (email or phone) that will own the plant; company staff create for customers.
    #[serde(default)]
    pub owner: Option<String>,
    #[serde(default)]
    pub charges: Option<Vec<ChargeRequest>>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChargeRequest {
    #[serde(default, deserialize_with = "num::opt_f64")]
    pub price: Option<f64>,
    /// 1 constant, 2 time of use, 3 by generation/volume.
    #[serde(default, rename = "type", deserialize_with = "num::opt_i64")]
    pub kind: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub start_range: Option<String>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub end_range: Option<String>,
    /// `import`, `export` or null.
    #[serde(default)]
    pub status: Option<String>,
}

fn text(field: &str, value: Option<&str>, old: &str, max: usize) -> Result<String, DomainError> {
    match value {
        None => Ok(old.to_string()),
        Some(v) => domain::account::check_text(field, v, max),
    }
}

/// Only pictures this portal stored may be referenced.
fn picture(field: &str, value: Option<&str>, old: &str) -> Result<String, DomainError> {
    match value.map(str::trim) {
        None => Ok(old.to_string()),
        Some("") => Ok(String::new()),
        Some(url)
            if url.starts_with("/files/plants/") && !url.contains("..") && url.len() < 200 =>
        {
            Ok(url.into())
        }
        Some(_) => Err(DomainError::invalid(field)),
    }
}

/// Merges a request into a plant's current values (or the defaults of a new plant) and checks
/// every field.
fn fields(req: &PlantRequest, old: Option<&PlantRow>) -> Result<PlantFields, DomainError> {
    let required = |field: &str| DomainError::invalid(field);
    let name = match (&req.name, old) {
        (Some(n), _) => check_name(n)?,
        (None, Some(p)) => p.name.clone(),
        (None, None) => return Err(required("name")),
    };
    let plant_type = match (req.kind, old) {
        (Some(t), _) => PlantType::from_wire(t)? as i64,
        (None, Some(p)) => p.plant_type,
        (None, None) => PlantType::GridTied as i64,
    };
    let total_power = check_capacity(
        req.total_power
            .or(old.map(|p| p.total_power))
            .unwrap_or(0.0),
    )?;
    let join_date = match (&req.join_date, old) {
        (Some(d), _) => check_date("joinDate", d)?,
        (None, Some(p)) => p.join_date.clone(),
        (None, None) => chrono::Utc::now().format("%Y-%m-%d").to_string(),
    };
    let currency = match (&req.currency, old) {
        (Some(c), _) => currency::find(c)
            .ok_or_else(|| required("currency"))?
            .code
            .to_string(),
        (None, Some(p)) => p.currency.clone(),
        (None, None) => "USD".into(),
    };
    let timezone = match (&req.timezone, old) {
        (Some(t), _) => dict::timezone_by_id_or_code(t)
            .ok_or_else(|| required("timezone"))?
            .1
            .name()
            .to_string(),
        (None, Some(p)) => p.timezone.clone(),
        (None, None) => return Err(required("timezone")),
    };
    let (lon, lat) = match (req.lon, req.lat, old) {
        (Some(lon), Some(lat), _) => check_location(lon, lat)?,
        (None, None, Some(p)) => (p.lon, p.lat),
        _ => return Err(Code::BadLonLat.into()),
    };
    let old_text = |f: fn(&PlantRow) -> &str| old.map(f).unwrap_or("");
    let phone = match req.phone.as_deref().map(str::trim) {
        None => old_text(|p| &p.phone).to_string(),
        Some("") => String::new(),
        Some(v) => parse_phone(v).map_err(|_| DomainError::invalid("phone"))?,
    };
    let email = match req.email.as_deref().map(str::trim) {
        None => old_text(|p| &p.email).to_string(),
        Some("") => String::new(),
        Some(v) => parse_email(v)?,
    };
    Ok(PlantFields {
        name,
        plant_type,
        total_power,
        join_date,
        currency,
        timezone,
        address: text(
            "address",
            req.address.as_deref(),
            old_text(|p| &p.address),
            ADDRESS_MAX,
        )?,
        lon,
        lat,
        image_url: picture(
            "imageUrl",
            req.image_url.as_deref(),
            old_text(|p| &p.image_url),
        )?,
        thumb_url: picture(
            "thumbUrl",
            req.thumb_url.as_deref(),
            old_text(|p| &p.thumb_url),
        )?,
        principal: text(
            "principal",
            req.principal.as_deref(),
            old_text(|p| &p.principal),
            CONTACT_MAX,
        )?,
        phone,
        email,
        installer: text(
            "installer",
            req.installer.as_deref(),
            old_text(|p| &p.installer),
            CONTACT_MAX,
        )?,
        invest: check_money(
            "invest",
            req.invest.or(old.map(|p| p.invest)).unwrap_or(0.0),
            INVEST_MAX,
        )?,
        tilt: check_tilt(req.tilt.unwrap_or(old.and_then(|p| p.tilt)))?,
        azimuth: check_azimuth(req.azimuth.unwrap_or(old.and_then(|p| p.azimuth)))?,
    })
}

/// The tariff of a request as the domain reads it; `service::plants::tariff` checks it.
fn tariff(req: &[ChargeRequest]) -> Result<Vec<TariffSegment>, DomainError> {
    req.iter()
        .map(|c| {
            Ok(TariffSegment {
                kind: Valuation::from_wire(c.kind.unwrap_or(1))?,
                start: c.start_range.clone().unwrap_or_default(),
                end: c.end_range.clone().unwrap_or_default(),
                price: c
                    .price
                    .ok_or_else(|| DomainError::invalid("charges.price"))?,
                direction: c.status.clone().filter(|s| !s.is_empty()),
            })
        })
        .collect()
}

/// Creates a plant with its income settings (the wizard). Answers the new plant's id.
#[utoipa::path(post, path = "/api/v1/plant", tag = "plants", request_body = PlantRequest, security(("bearer" = [])),
    responses((status = 200, description = "The new plant's id; 2, 4, 10, 105", body = Envelope<i64>)))]
pub async fn create(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<PlantRequest>,
) -> ApiResult<Data<i64>> {
    let draft = PlantDraft {
        fields: fields(&req, None)?,
        tariff: tariff(req.charges.as_deref().unwrap_or_default())?,
        owner: req.owner,
    };
    let id = service::plants::create(&app.store, &me.actor, &draft, now_ms()).await?;
    Ok(Data(id.0))
}

/// The owner of a plant.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantMaster {
    pub id: i64,
    pub nickname: String,
    pub mobile: String,
    pub account: String,
}

/// One plant in full, as clients read it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantDetail {
    pub id: i64,
    pub name: String,
    /// Installed capacity, kWp.
    pub total_power: f64,
    pub thumb_url: String,
    pub image_url: String,
    /// `YYYY-MM-DD`.
    pub join_date: String,
    /// 1 grid-tied, 2 storage AC coupled, 3 storage DC coupled.
    #[serde(rename = "type")]
    pub plant_type: i64,
    /// 0 offline, 1 normal, 2 warning, 3 fault, 4 upgrading.
    pub status: i64,
    /// The tariff.
    pub charges: Vec<TariffRow>,
    /// The tariff's kind (the first row's `type`), 0 without a tariff.
    pub valuation: i64,
    /// Always empty (kept for older clients).
    pub products: Vec<String>,
    pub lon: f64,
    pub lat: f64,
    /// Tilt of the modules, degrees (0-90); null when not given.
    #[schema(required)]
    pub tilt: Option<f64>,
    /// Azimuth of the modules, degrees clockwise from north (180 = south); null when not
    /// given.
    #[schema(required)]
    pub azimuth: Option<f64>,
    pub address: String,
    /// The owner, null when the account is gone.
    #[schema(required)]
    pub master: Option<PlantMaster>,
    pub currency: DictEntry,
    pub timezone: DictEntry,
    pub realtime: crate::monitor::energy::Realtime,
    pub create_at: String,
    pub phone: String,
    pub email: String,
    pub installer: String,
    pub principal: String,
    pub invest: f64,
    /// What the caller may do on this plant (permission keys).
    pub plant_permission: Vec<String>,
    /// Shared with the caller by someone else.
    pub share: bool,
    #[schema(required)]
    pub company_id: Option<i64>,
    /// The offer the plant waits on, null when none.
    #[schema(required)]
    pub offer: Option<PendingOffer>,
}

/// One plant in full, as clients read it.
#[utoipa::path(get, path = "/api/v1/plant/{id}", tag = "plants", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The plant; 700", body = Envelope<PlantDetail>)))]
pub async fn detail(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<PlantDetail>> {
    let (p, access) = visible(&app, &me, &id).await?;
    let tariff = app.store.tariff(p.id).await?;
    let valuation = tariff.first().map(|c| c.kind).unwrap_or(0);
    let master = app.store.user(p.owner_id).await?;
    let currency = currency_json(&p.currency);
    let devices = app.store.plant_devices(p.id).await?;
    let offer = super::offers::pending(&app, &p).await?;
    let realtime = crate::monitor::energy::realtime_json(
        &p,
        &crate::monitor::summary::plant(&app, &p, &devices).await?,
    );
    Ok(Data(PlantDetail {
        id: p.id.0,
        name: p.name.clone(),
        total_power: p.total_power,
        thumb_url: p.thumb_url.clone(),
        image_url: p.image_url.clone(),
        join_date: p.join_date.clone(),
        plant_type: p.plant_type,
        status: p.status,
        charges: tariff.iter().map(tariff_row).collect(),
        valuation,
        products: Vec::new(),
        lon: p.lon,
        lat: p.lat,
        tilt: p.tilt,
        azimuth: p.azimuth,
        address: p.address.clone(),
        master: master.map(|u| PlantMaster {
            id: u.id.0,
            nickname: u.nickname,
            mobile: u.mobile,
            account: u.account,
        }),
        currency,
        timezone: timezone_json(&p.timezone),
        realtime,
        create_at: create_at(p.created_at),
        phone: p.phone.clone(),
        email: p.email.clone(),
        installer: p.installer.clone(),
        principal: p.principal.clone(),
        invest: p.invest,
        plant_permission: me.actor.plant_permissions(access),
        share: p.shared_as.is_some() && p.owner_id != me.user.id,
        company_id: p.company_id.map(|v| v.0),
        offer,
    }))
}

/// Translates an edit request into the use case, then removes the pictures it replaced.
async fn edit(app: &AppState, me: &CurrentUser, id: &str, req: PlantRequest) -> ApiResult<Done> {
    let id = PlantId(path_id(id).map_err(|_| Code::PlantMissing)?);
    let edited = service::plants::edit(
        &app.store,
        &me.actor,
        id,
        |old| {
            Ok(Changes {
                fields: fields(&req, Some(old))?,
                tariff: req.charges.as_deref().map(tariff).transpose()?,
            })
        },
        now_ms(),
    )
    .await?;
    let (old, new) = (&edited.before, &edited.fields);
    for (old, new) in [
        (&old.image_url, &new.image_url),
        (&old.thumb_url, &new.thumb_url),
    ] {
        if old != new {
            files::remove(app, old).await;
        }
    }
    Ok(Done)
}

/// Edits any part of a plant; fields left out keep their values.
#[utoipa::path(post, path = "/api/v1/plant/{id}", tag = "plants", request_body = PlantRequest, params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Done; 2, 4, 10, 700", body = Ack)))]
pub async fn update(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<PlantRequest>,
) -> ApiResult<Done> {
    edit(&app, &me, &id, req).await
}

/// Basic information: name, type, capacity, date, time zone, location, picture.
#[utoipa::path(post, path = "/api/v1/plant/{id}/info", tag = "plants", request_body = PlantRequest, params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Done; 2, 4, 10, 700", body = Ack)))]
pub async fn update_info(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<PlantRequest>,
) -> ApiResult<Done> {
    let req = PlantRequest {
        principal: None,
        phone: None,
        email: None,
        installer: None,
        charges: None,
        owner: None,
        ..req
    };
    edit(&app, &me, &id, req).await
}

/// Contact person, phone, email and installer.
#[utoipa::path(post, path = "/api/v1/plant/{id}/contacts", tag = "plants", request_body = PlantRequest, params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Done; 2, 4, 700", body = Ack)))]
pub async fn update_contacts(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<PlantRequest>,
) -> ApiResult<Done> {
    let req = PlantRequest {
        principal: req.principal,
        phone: req.phone,
        email: req.email,
        installer: req.installer,
        ..PlantRequest::default()
    };
    edit(&app, &me, &id, req).await
}

/// Currency, investment and tariff (`{id, currency, invest, charges:[{price, type, startRange,
/// endRange}]}`, numbers possibly as strings).
#[utoipa::path(post, path = "/api/v1/plant/{id}/income", tag = "plants", request_body = PlantRequest, params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Done; 2, 4, 700", body = Ack)))]
pub async fn update_tariff(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<PlantRequest>,
) -> ApiResult<Done> {
    let req = PlantRequest {
        currency: req.currency,
        invest: req.invest,
        charges: Some(req.charges.unwrap_or_default()),
        ..PlantRequest::default()
    };
    edit(&app, &me, &id, req).await
}
