//! Messages: the caller's notifications. Each warning or fault event of the last 30 days on a
//! plant the caller can see is a message; the store keeps only what the caller has read, so the unread count goes
//! down as messages are read and new events raise it again.

use axum::{
    Router,
    extract::{Path, State},
    routing::{get, post},
};
use domain::DomainError;
use serde::Deserialize;
use serde_json::{Value, json};
use store::messages::MessageRow;
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
/// Messages are the events of the last 30 days: a notification, not the event history (the
/// events screen has that), so a new account or a new share is not greeted by years of events.
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
    /// 0 unread, 1 read; -1 any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub status: Option<i64>,
}

/// One message: the event it comes from, a title and a one-line content in the caller's
/// language, and `status` 0 unread / 1 read.
fn item(m: &MessageRow) -> Value {
    let lang = current_lang();
    let event = events::item(&m.event, lang);
    let device = m
        .event
        .device_sn
        .clone()
        .unwrap_or_else(|| m.event.code.clone());
    let title = format!(
        "{} {}",
        m.event.plant_name.as_deref().unwrap_or_default(),
        device
    );
    json!({
        "id": m.event.id,
        "title": title.trim(),
        "content": format!("{} {}", m.event.code, event["meaning"].as_str().unwrap_or_default()).trim(),
        "type": m.event.severity,
        "status": i64::from(m.read),
        "createAt": create_at(m.event.opened_at),
        "plantId": m.event.plant_id,
        "sn": m.event.device_sn,
        "event": event,
    })
}

/// How many messages the caller has not read: a bare number.
#[utoipa::path(get, path = "/api/v1/message/count", tag = "messages", security(("bearer" = [])),
    responses((status = 200, description = "Envelope whose data is a bare number")))]
pub async fn count(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<i64>> {
    Ok(Data(
        app.store
            .unread_messages(me.actor.plant_visibility(), me.id(), since())
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
    let infos: Vec<Value> = rows.iter().map(item).collect();
    Ok(Data(
        json!({"total": total, "pageSize": limit, "pageNumber": page, "infos": infos}),
    ))
}

/// Marks one message as read; 4 (`id`) when the caller cannot see it.
#[utoipa::path(post, path = "/api/v1/message/{id}/read", tag = "messages", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope; 4")))]
pub async fn read_one(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    let id = path_id(&id)?;
    app.store
        .event_visible(me.actor.plant_visibility(), me.id(), id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    app.store.mark_message_read(me.id(), id, now_ms()).await?;
    Ok(Done)
}

/// Marks every message the caller has now as read.
#[utoipa::path(post, path = "/api/v1/messages/read", tag = "messages", security(("bearer" = [])),
    responses((status = 200, description = "Envelope")))]
pub async fn read_all(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Done> {
    app.store.mark_all_messages_read(me.id(), now_ms()).await?;
    Ok(Done)
}
