//! Messages: the caller's notifications. Each warning or fault occurrence on a plant the caller
//! can see that began in the last 30 days, or is still open, is a message.
//! A message needs attention (is unread) while its occurrence is open and the caller has not
//! read it: reading it, or the devices recovering, resolves it, so the unread count is what is
//! wrong now and not yet seen. The store keeps only what the caller has read.
//!
//! Notices (`store::notices`, such as "a firmware update is available") are messages beside
//! the events: `source` tells them apart, a notice has no `event`, and it is unread until read.

use axum::extract::{Path, State};
use domain::{DomainError, Lang};
use serde::{Deserialize, Serialize};
use store::{
    messages::{EventListRow, MessageFilter, MessageRow},
    notices::NoticeRow,
};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope, current_lang},
    events::{self, OccurrenceItem},
    extract::{Query, num},
    paging::Page,
    session::CurrentUser,
    users::{create_at, path_id},
};
use domain::time::now_ms;

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
    /// `event` or `notice`: one source only (absent, empty or -1: both); else 4 `source`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub source: Option<String>,
    /// `warning` or `fault` (events of that severity) or `notice` (notices only); absent,
    /// empty or -1: any; else 4 `type`.
    #[serde(default, rename = "type", deserialize_with = "num::opt_text")]
    #[param(rename = "type")]
    pub kind: Option<String>,
}

/// A filter's value, `None` for "any" (absent, empty or -1).
fn given(v: Option<&str>) -> Option<&str> {
    v.map(str::trim).filter(|v| !v.is_empty() && *v != "-1")
}

/// Which messages a listing takes: events (of one severity or any), notices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Scope {
    events: bool,
    notices: bool,
    severity: Option<&'static str>,
}

impl Scope {
    fn of(source: Option<&str>, kind: Option<&str>) -> Result<Scope, DomainError> {
        let mut scope = match given(source) {
            None => Scope {
                events: true,
                notices: true,
                severity: None,
            },
            Some("event") => Scope {
                events: true,
                notices: false,
                severity: None,
            },
            Some("notice") => Scope {
                events: false,
                notices: true,
                severity: None,
            },
            Some(_) => return Err(DomainError::invalid("source")),
        };
        match given(kind) {
            None => {}
            Some("notice") => scope.events = false,
            Some(k @ ("warning" | "fault")) => {
                scope.notices = false;
                scope.severity = Some(if k == "fault" { "fault" } else { "warning" });
            }
            Some(_) => return Err(DomainError::invalid("type")),
        }
        Ok(scope)
    }
}

/// Where a message comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MessageSource {
    /// An event occurrence on a plant the caller sees.
    Event,
    /// A notice to the caller (a firmware update is available).
    Notice,
}

/// One message: the occurrence it comes from (or a notice), a title (plant and device, `+N`
/// for more devices) and a one-line content in the caller's language.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    /// The occurrence's id, or the notice's (ids are per source).
    pub id: i64,
    pub source: MessageSource,
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
    /// null for a notice.
    pub event: Option<OccurrenceItem>,
    /// When it happened, for ordering events and notices together (not sent).
    #[serde(skip)]
    #[schema(ignore)]
    at: i64,
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
        id: o.id.0,
        source: MessageSource::Event,
        at: f.opened_at,
        title: title.trim().to_string(),
        content: format!("{} {}", f.code, meaning).trim().to_string(),
        kind: events::Severity::of(&f.severity),
        status: i64::from(!m.unread()),
        resolved: f.closed_at.is_some(),
        create_at: create_at(f.opened_at),
        plant_id: f.plant_id.map(|v| v.0),
        sn: f.device_sn.clone(),
        event: Some(event),
    }
}

/// A notice as a message, in the reader's language.
fn notice(n: &NoticeRow, lang: Lang) -> Message {
    let params: serde_json::Value = serde_json::from_str(&n.params).unwrap_or_default();
    let text = |k: &str| {
        params
            .get(k)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let mut label = text("label");
    if label.is_empty() && text("target") == "gateway" {
        label = match lang {
            Lang::En => "Gateway software",
            Lang::Zh => "网关软件",
            Lang::Es => "Software de pasarela",
        }
        .to_string();
    }
    let (version, file) = (text("version"), text("fileName"));
    let (title, content) = match lang {
        Lang::En => (
            "Firmware update available",
            format!("{label}: version {version} ({file})"),
        ),
        Lang::Zh => (
            "有可用的固件更新",
            format!("{label}：版本 {version}（{file}）"),
        ),
        Lang::Es => (
            "Actualización de firmware disponible",
            format!("{label}: versión {version} ({file})"),
        ),
    };
    Message {
        id: n.id.0,
        source: MessageSource::Notice,
        at: n.created_at,
        title: title.to_string(),
        content,
        kind: events::Severity::Info,
        status: i64::from(n.read_at.is_some()),
        resolved: false,
        create_at: create_at(n.created_at),
        plant_id: None,
        sn: None,
        event: None,
    }
}

/// How many messages need the caller's attention: a bare number.
#[utoipa::path(get, path = "/api/v1/message/count", tag = "messages", security(("bearer" = [])),
    responses((status = 200, description = "The number of unread messages", body = Envelope<i64>)))]
pub async fn count(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<i64>> {
    let events = app
        .store
        .unread_messages(me.actor.plant_visibility(), me.id())
        .await?;
    Ok(Data(events + app.store.unread_notices(me.id()).await?))
}

/// The caller's messages, newest first (`pageSize`, `pageNumber`, `status`, `source`,
/// `type`).
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
    let scope = Scope::of(q.source.as_deref(), q.kind.as_deref())?;
    let offset = (page - 1) * limit;
    // Events and notices are merged newest first: each source gives its first
    // `offset + limit`, and the page is cut from their merge.
    let (notices, notice_total) = if scope.notices {
        app.store.notices(me.id(), unread, offset + limit).await?
    } else {
        (Vec::new(), 0)
    };
    let (event_limit, event_offset) = if notices.is_empty() {
        (limit, offset)
    } else {
        (offset + limit, 0)
    };
    let filter = MessageFilter {
        since: since(),
        unread,
        severity: scope.severity,
        limit: event_limit,
        offset: event_offset,
    };
    let (rows, total) = if scope.events {
        app.store
            .messages_filtered(me.actor.plant_visibility(), me.id(), &filter)
            .await?
    } else {
        (Vec::new(), 0)
    };
    let ids: Vec<_> = rows.iter().map(|m| m.occurrence.id).collect();
    let members = app.store.occurrence_events(&ids).await?;
    let lang = current_lang();
    let mut infos: Vec<Message> = rows.iter().map(|m| item(m, &members, lang)).collect();
    if !notices.is_empty() {
        infos.extend(notices.iter().map(|n| notice(n, lang)));
        // Stable: events keep their order among themselves.
        infos.sort_by_key(|m| std::cmp::Reverse(m.at));
        infos = infos
            .into_iter()
            .skip(usize::try_from(offset).unwrap_or(0))
            .take(usize::try_from(limit).unwrap_or(0))
            .collect();
    }
    Ok(Data(Page {
        page_size: limit,
        page_number: page,
        total: total + notice_total,
        infos,
    }))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ReadQuery {
    /// `event` (default) or `notice`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub source: Option<String>,
}

/// Marks one message as read (`id` the occurrence's, or any of its events'; with
/// `source=notice` a notice's); 4 (`id`) when the caller cannot see it.
#[utoipa::path(post, path = "/api/v1/message/{id}/read", tag = "messages", params(("id" = i64, Path), ReadQuery),
    security(("bearer" = [])), responses((status = 200, description = "Envelope; 4", body = Ack)))]
pub async fn read_one(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<ReadQuery>,
) -> ApiResult<Done> {
    let (store, actor, now) = (&app.store, &me.actor, now_ms());
    match q.source.as_deref() {
        None | Some("" | "event") => {
            service::inbox::read_message(store, actor, path_id(&id)?, now).await?
        }
        Some("notice") => service::inbox::read_notice(store, actor, path_id(&id)?, now).await?,
        Some(_) => return Err(DomainError::invalid("source").into()),
    }
    Ok(Done)
}

/// Marks every message the caller has now as read.
#[utoipa::path(post, path = "/api/v1/messages/read", tag = "messages", security(("bearer" = [])),
    responses((status = 200, description = "Envelope", body = Ack)))]
pub async fn read_all(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Done> {
    service::inbox::read_all(&app.store, &me.actor, now_ms()).await?;
    Ok(Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_and_type_pick_events_of_a_severity_or_notices() {
        let scope = |s: Option<&str>, t: Option<&str>| Scope::of(s, t).ok();
        let both = Scope {
            events: true,
            notices: true,
            severity: None,
        };
        assert_eq!(scope(None, None), Some(both));
        assert_eq!(scope(Some("-1"), Some("")), Some(both));
        assert_eq!(
            scope(None, Some("fault")),
            Some(Scope {
                events: true,
                notices: false,
                severity: Some("fault"),
            })
        );
        assert_eq!(
            scope(None, Some("notice")).map(|s| (s.events, s.notices)),
            Some((false, true))
        );
        assert_eq!(
            scope(Some("notice"), Some("warning")).map(|s| (s.events, s.notices)),
            Some((false, false))
        );
        assert!(scope(Some("mail"), None).is_none());
        assert!(scope(None, Some("info")).is_none());
    }
}
