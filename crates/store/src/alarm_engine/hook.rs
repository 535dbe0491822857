//! The delivery hook: every case change (opened, escalated, acknowledged, closed) calls
//! [`on_case_change`] inside the transaction that makes the change, with the case as it is
//! after it. Deliveries (webhooks, e-mail) attach here: whatever they write (an outbox row)
//! commits or rolls back with the change itself, so a change is never delivered without being
//! made, nor made without its delivery queued. Today: a webhook delivery to every enabled
//! endpoint, whose filter lets the case through, of everyone told of the plant's alarms (its
//! owner and the staff of the companies serving it, as for the alarm e-mails), and a Web Push
//! message to their matching subscriptions when a case opens or escalates (docs/push.md).

use super::cases::CaseRow;

/// What happened to the case (the webhook payload's `event`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeEvent {
    Opened,
    /// Its severity rose (warning to alarm).
    Updated,
    Acknowledged,
    Closed,
}

impl ChangeEvent {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeEvent::Opened => "opened",
            ChangeEvent::Updated => "updated",
            ChangeEvent::Acknowledged => "acknowledged",
            ChangeEvent::Closed => "closed",
        }
    }
}

/// The open transaction of the change, on whichever backend runs.
pub enum CaseTx<'a> {
    Sqlite(&'a mut sqlx::SqliteConnection),
    Postgres(&'a mut sqlx::PgConnection),
}

impl<'a, 't> From<&'a mut sqlx::Transaction<'t, sqlx::Sqlite>> for CaseTx<'a> {
    fn from(tx: &'a mut sqlx::Transaction<'t, sqlx::Sqlite>) -> Self {
        CaseTx::Sqlite(tx)
    }
}

impl<'a, 't> From<&'a mut sqlx::Transaction<'t, sqlx::Postgres>> for CaseTx<'a> {
    fn from(tx: &'a mut sqlx::Transaction<'t, sqlx::Postgres>) -> Self {
        CaseTx::Postgres(tx)
    }
}

/// The titles of a case's deliveries, in each recipient's alarm language.
fn titles(case: &CaseRow) -> [String; 3] {
    use domain::{Lang, alarm_rules::Kind};
    let subject = if case.subject.is_empty() {
        &case.plant_name
    } else {
        &case.subject
    };
    let kind = Kind::parse(&case.kind);
    [Lang::En, Lang::Zh, Lang::Es].map(|lang| {
        let title = kind.map_or("Alarm", |k| k.title(lang));
        format!("{title}: {subject}")
    })
}

/// Queues the case's change for every recipient's matching endpoints (the statement is
/// `webhook_deliveries::ENQUEUE` with the recipients chosen by plant instead of one user).
fn enqueue_for_plant() -> String {
    format!(
        "INSERT INTO webhook_deliveries (endpoint_id, user_id, event, kind, severity, case_id, \
         plant_id, plant_name, device_sn, title, detail, at, link, next_at, created_at) \
         SELECT w.id, w.user_id, $1, $2, $3, $4, $5, $6, $7, \
         CASE u.notify_lang WHEN 'zh' THEN $9 WHEN 'es' THEN $10 ELSE $8 END, $11, $12, $13, \
         $14, $14 FROM webhook_endpoints w JOIN users u ON u.id = w.user_id \
         JOIN plants p ON p.id = $5 \
         WHERE {} AND w.enabled AND NOT u.disabled AND u.deleted_at IS NULL \
         AND (w.kinds = '' OR w.kinds LIKE '%,' || $2 || ',%') \
         AND ($3 = 'alarm' OR w.min_severity = 'warning')",
        crate::alarms::recipient_of_plant()
    )
}

/// Called once per case change, in the change's transaction; an error rolls the change back
/// (the engine tries again next tick).
pub async fn on_case_change(
    mut tx: CaseTx<'_>,
    event: ChangeEvent,
    case: &CaseRow,
) -> Result<(), sqlx::Error> {
    let [en, zh, es] = titles(case);
    // Relative: the sender puts the portal's public address in front (jobs::webhooks).
    let link = format!("/alarms?case={}", case.id);
    let at = match event {
        ChangeEvent::Opened => case.opened_at,
        ChangeEvent::Acknowledged => case.acknowledged_at.unwrap_or(case.seen_at),
        ChangeEvent::Closed => case.closed_at.unwrap_or(case.seen_at),
        ChangeEvent::Updated => case.seen_at,
    };
    let sql = enqueue_for_plant();
    let sql = match &tx {
        CaseTx::Sqlite(_) => crate::sql::for_sqlite(&sql).into_owned(),
        CaseTx::Postgres(_) => sql,
    };
    // The change's own time stands for "now": it is the tick's clock (tests run on theirs).
    macro_rules! bound {
        () => {
            sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
                .bind(event.as_str())
                .bind(&case.kind)
                .bind(&case.severity)
                .bind(case.id.0)
                .bind(case.plant_id)
                .bind(&case.plant_name)
                .bind(case.device_sn.as_deref())
                .bind(&en)
                .bind(&zh)
                .bind(&es)
                .bind(&case.detail)
                .bind(at)
                .bind(&link)
                .bind(at)
        };
    }
    match &mut tx {
        CaseTx::Sqlite(c) => bound!().execute(&mut **c).await?.rows_affected(),
        CaseTx::Postgres(c) => bound!().execute(&mut **c).await?.rows_affected(),
    };
    if matches!(event, ChangeEvent::Opened | ChangeEvent::Updated) {
        push(tx, case, &link, at).await?;
    }
    Ok(())
}

/// The texts of a case's push, in each language: `<kind>: <plant>` and `<severity>: <subject>`.
fn push_texts(case: &CaseRow) -> ([String; 3], [String; 3]) {
    use domain::{Lang, alarm_rules::Kind, push::texts, webhook::Severity};
    let severity = Severity::parse(&case.severity).unwrap_or(Severity::Warning);
    let kind = Kind::parse(&case.kind);
    let [en, zh, es] = [Lang::En, Lang::Zh, Lang::Es].map(|lang| {
        let what = kind.map_or("Alarm", |k| k.title(lang));
        texts(what, &case.plant_name, severity, &case.subject, lang)
    });
    ([en.0, zh.0, es.0], [en.1, zh.1, es.1])
}

/// Queues a push of an opened or escalated case for the matching subscriptions of everyone
/// told of the plant's alarms (docs/push.md); acknowledgements and closings are not pushed.
async fn push(tx: CaseTx<'_>, case: &CaseRow, link: &str, at: i64) -> Result<(), sqlx::Error> {
    let (titles, bodies) = push_texts(case);
    let sql = crate::push::enqueue_for_plant();
    let sql = match &tx {
        CaseTx::Sqlite(_) => crate::sql::for_sqlite(&sql).into_owned(),
        CaseTx::Postgres(_) => sql,
    };
    macro_rules! bound {
        () => {
            sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
                .bind(&case.kind)
                .bind(&case.severity)
                .bind(case.id.0)
                .bind(case.plant_id)
                .bind(&case.plant_name)
                .bind(&titles[0])
                .bind(&titles[1])
                .bind(&titles[2])
                .bind(&bodies[0])
                .bind(&bodies[1])
                .bind(&bodies[2])
                .bind(link)
                .bind(at)
                .bind(at)
        };
    }
    match tx {
        CaseTx::Sqlite(c) => bound!().execute(&mut *c).await?.rows_affected(),
        CaseTx::Postgres(c) => bound!().execute(&mut *c).await?.rows_affected(),
    };
    Ok(())
}
