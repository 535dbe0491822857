//! Messages: the caller's notifications. Each warning or fault occurrence on a plant the caller
//! can see that began in the last 30 days, or is still open, is a message (notices are not).
//! A message needs attention (is unread) while its occurrence is open and the caller has not
//! read it: reading it, or the devices recovering, resolves it, so the unread count is what is
//! wrong now and not yet seen. The store keeps only what the caller has read.

use axum::extract::{Path, State};
use domain::{DomainError, Lang};
use serde::{Deserialize, Serialize};
use store::messages::{EventListRow, MessageRow};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope, current_lang},
    events::{self, OccurrenceItem},
    extract::{Query, num},
    now_ms,
    paging::Page,
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

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(count))
        .routes(routes!(list))
        .routes(routes!(read_all))
        .routes(routes!(read_one))
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
/// devices) and a one-line content in the caller's language.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    /// The occurrence's id.
    pub id: i64,
    pub title: String,
    /// The code and its meaning.
    pub content: String,
    #[serde(rename = "type")]
    pub kind: events::Severity,
    /// 0 unread (open and not read), 1 read or resolved.
    pub status: i64,
    /// Every device recovered.
    pub resolved: bool,
    pub create_at: String,
    pub plant_id: Option<i64>,
    pub sn: Option<String>,
    pub event: OccurrenceItem,
}

fn item(m: &MessageRow, members: &[EventListRow], lang: Lang) -> Message {
    let o = &m.occurrence;
    let f = &o.facts;
    let event = events::occurrence_item(o, members, lang);
    let mut device = f.device_sn.clone().unwrap_or_else(|| f.code.clone());
    if o.devices > 1 {
        device = format!("{device} +{}", o.devices - 1);
    }
    let title = format!("{} {}", f.plant_name.as_deref().unwrap_or_default(), device);
    let meaning = event.common.meaning.as_deref().unwrap_or_default();
    Message {
        id: o.id,
        title: title.trim().to_string(),
        content: format!("{} {}", f.code, meaning).trim().to_string(),
        kind: events::Severity::of(&f.severity),
        status: i64::from(!m.unread()),
        resolved: f.closed_at.is_some(),
        create_at: create_at(f.opened_at),
        plant_id: f.plant_id,
        sn: f.device_sn.clone(),
        event,
    }
}

/// How many messages need the caller's attention: a bare number.
#[utoipa::path(get, path = "/api/v1/message/count", tag = "messages", security(("bearer" = [])),
    responses((status = 200, description = "The number of unread messages", body = Envelope<i64>)))]
pub async fn count(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<i64>> {
    Ok(Data(
        app.store
            .unread_messages(me.actor.plant_visibility(), me.id())
            .await?,
    ))
}

/// The caller's messages, newest first (`pageSize`, `pageNumber`, `status`).
#[utoipa::path(get, path = "/api/v1/messages", tag = "messages", params(ListQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of messages", body = Envelope<Page<Message>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Page<Message>>> {
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
    Ok(Data(Page {
        page_size: limit,
        page_number: page,
        total,
        infos: rows.iter().map(|m| item(m, &members, lang)).collect(),
    }))
}

/// Marks one message as read (`id` the occurrence's, or any of its events'); 4 (`id`) when the
/// caller cannot see it.
#[utoipa::path(post, path = "/api/v1/message/{id}/read", tag = "messages", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope; 4", body = Ack)))]
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
    responses((status = 200, description = "Envelope", body = Ack)))]
pub async fn read_all(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Done> {
    app.store.mark_all_messages_read(me.id(), now_ms()).await?;
    Ok(Done)
}
