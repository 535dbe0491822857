//! Messages: the caller's notifications. Each warning or fault occurrence on a plant the caller
//! can see that began in the last 30 days, or is still open, is a message (notices are not).
//! A message needs attention (is unread) while its occurrence is open and the caller has not
//! read it: reading it, or the devices recovering, resolves it, so the unread count is what is
//! wrong now and not yet seen. The store keeps only what the caller has read.

use axum::{
    Router,
    extract::{Path, State},
    routing::{get, post},
};
use domain::{DomainError, Lang};
use serde::Deserialize;
use serde_json::{Value, json};
use store::messages::{EventListRow, MessageRow};
use utoipa::IntoParams;

use crate::{
    AppState,
    envelope::{ApiResult, Data, Done, current_lang},
    events,
    extract::{Query, num},
    now_ms,
    session::CurrentUser,
    users::{create_at, path_id},
};

const MAX_PAGE: i64 = 100;
/// Messages are the occurrences of the last 30 days (and the open ones): a notification, not
/// the event history (the events screen has that), so a new account or a new share is not
/// greeted by years of events.
const MESSAGE_DAYS: i64 = 30;

fn since() -> i64 {
    now_ms() - MESSAGE_DAYS * 86_400_000
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/message/count", get(count))
        .route("/api/v1/messages", get(list))
        .route("/api/v1/messages/read", post(read_all))
        .route("/api/v1/message/{id}/read", post(read_one))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    #[serde(default, alias = "page", deserialize_with = "num::opt_i64")]
    pub page_number: Option<i64>,
    #[serde(default, alias = "limit", deserialize_with = "num::opt_i64")]
    pub page_size: Option<i64>,
    /// 0 unread (needs attention), 1 read or resolved; -1 any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub status: Option<i64>,
}

/// One message: the occurrence it comes from, a title (plant and device, `+N` for more
/// devices) and a one-line content in the caller's language; `status` 0 unread (open and not
/// read) / 1 read or resolved, `resolved` once every device recovered.
fn item(m: &MessageRow, members: &[EventListRow], lang: Lang) -> Value {
    let o = &m.occurrence;
    let event = events::occurrence_item(o, members, lang);
    let mut device = o.device_sn.clone().unwrap_or_else(|| o.code.clone());
    if o.devices > 1 {
        device = format!("{device} +{}", o.devices - 1);
    }
    let title = format!("{} {}", o.plant_name.as_deref().unwrap_or_default(), device);
    json!({
        "id": o.id,
        "title": title.trim(),
        "content": format!("{} {}", o.code, event["meaning"].as_str().unwrap_or_default()).trim(),
        "type": o.severity,
        "status": i64::from(!m.unread()),
        "resolved": o.closed_at.is_some(),
        "createAt": create_at(o.opened_at),
        "plantId": o.plant_id,
        "sn": o.device_sn,
        "event": event,
    })
}

/// How many messages need the caller's attention: a bare number.
#[utoipa::path(get, path = "/api/v1/message/count", tag = "messages", security(("bearer" = [])),
    responses((status = 200, description = "Envelope whose data is a bare number")))]
pub async fn count(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<i64>> {
    Ok(Data(
        app.store
            .unread_messages(me.actor.plant_visibility(), me.id())
            .await?,
    ))
}

/// The caller's messages, newest first (`pageSize`, `pageNumber`, `status`).
#[utoipa::path(get, path = "/api/v1/messages", tag = "messages", params(ListQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {total, pageSize, pageNumber, infos:[{id, title, content, type, status, createAt, plantId, sn, event}]}")))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Value>> {
    let limit = q.page_size.unwrap_or(10).clamp(1, MAX_PAGE);
    let page = q.page_number.unwrap_or(1).max(1);
    let unread = match q.status {
        Some(0) => Some(true),
        Some(1) => Some(false),
        _ => None,
    };
    let (rows, total) = app
        .store
        .messages(
            me.actor.plant_visibility(),
            me.id(),
            since(),
            unread,
            limit,
            (page - 1) * limit,
        )
        .await?;
    let ids: Vec<i64> = rows.iter().map(|m| m.occurrence.id).collect();
    let members = app.store.occurrence_events(&ids).await?;
    let lang = current_lang();
    let infos: Vec<Value> = rows.iter().map(|m| item(m, &members, lang)).collect();
    Ok(Data(
        json!({"total": total, "pageSize": limit, "pageNumber": page, "infos": infos}),
    ))
}

/// Marks one message as read (`id` the occurrence's, or any of its events'); 4 (`id`) when the
/// caller cannot see it.
#[utoipa::path(post, path = "/api/v1/message/{id}/read", tag = "messages", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope; 4")))]
pub async fn read_one(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    let occurrence = app
        .store
        .occurrence_visible(me.actor.plant_visibility(), me.id(), path_id(&id)?)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    app.store
        .mark_message_read(me.id(), occurrence.id, now_ms())
        .await?;
    Ok(Done)
}

/// Marks every message the caller has now as read.
#[utoipa::path(post, path = "/api/v1/messages/read", tag = "messages", security(("bearer" = [])),
    responses((status = 200, description = "Envelope")))]
pub async fn read_all(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Done> {
    app.store.mark_all_messages_read(me.id(), now_ms()).await?;
    Ok(Done)
}
