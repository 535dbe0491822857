//! What the alarm job reads and writes: who is to be told about which gateway gone silent or
//! fault occurrence, the alarms already mailed (quiet period, recoveries) and the job's cursor.
//!
//! Recipients are the users told of alarms (e-mails on with an address, or an enabled webhook
//! endpoint; an account in use) who own the plant or are staff of a company that serves it
//! (the company rule of `plants::VISIBLE`); shares and platform staff are not mailed. Every read is one statement
//! over the whole fleet, so 500 gateways falling silent at once cost the same few queries.

use domain::DeviceFamily;
use domain::ids::{AlarmCaseId, AlarmId, EventId, GatewayId, MailId, PlantId, UserId};

use crate::{Result, Store};

/// Alarms further back than this before the job first ran are history, not news: the first
/// start after an upgrade does not mail every gateway that has been gone for months.
pub const LOOKBACK_MS: i64 = 24 * 3600 * 1000;

/// `u` wants alarm e-mails.
const WANTS_MAIL: &str = "(u.notify_enabled AND u.notify_email <> '')";

/// `u` is told of alarms: by e-mail, by an enabled webhook endpoint of theirs, or by a push
/// subscription of a session still signed in.
const NOTIFIABLE: &str = "((u.notify_enabled AND u.notify_email <> '') OR EXISTS (SELECT 1 \
    FROM webhook_endpoints w WHERE w.user_id = u.id AND w.enabled) OR EXISTS (SELECT 1 \
    FROM push_subscriptions ps JOIN sessions ss ON ss.id = ps.session_id \
    AND ss.revoked_at IS NULL WHERE ps.user_id = u.id)) AND NOT u.disabled \
    AND u.deleted_at IS NULL";

/// User `u` is mailed about plant `p`: its owner, or staff of a company serving it.
pub(crate) fn recipient_of_plant() -> String {
    format!(
        "(p.owner_id = u.id OR (u.kind = 'company' AND u.company_id IS NOT NULL AND {}))",
        crate::plants::company_serves("u.company_id", "p.owner_id", "p.company_id")
    )
}

/// Who is mailed, in which language, and the plant an alarm is about.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct AlarmPlace {
    pub user_id: UserId,
    pub email: String,
    pub lang: String,
    pub user_name: String,
    pub plant_id: PlantId,
    pub plant_name: String,
    pub plant_type: i64,
    pub timezone: String,
    /// Whether they get e-mails (else only webhooks).
    pub wants_mail: bool,
    /// Their quiet hours (`users.quiet_*`).
    pub quiet_enabled: bool,
    pub quiet_from: i64,
    pub quiet_to: i64,
    pub quiet_zone: String,
}

const PLACE: &str = "u.id AS user_id, u.notify_email AS email, u.notify_lang AS lang, \
    COALESCE(NULLIF(u.nickname, ''), u.account) AS user_name, p.id AS plant_id, \
    p.name AS plant_name, CAST(p.plant_type AS BIGINT) AS plant_type, p.timezone, \
    (u.notify_enabled AND u.notify_email <> '') AS wants_mail, u.quiet_enabled, \
    CAST(u.quiet_from AS BIGINT) AS quiet_from, CAST(u.quiet_to AS BIGINT) AS quiet_to, \
    u.quiet_zone";

/// A silent gateway of a plant a recipient is told about, not yet mailed for this silence.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct SilentGateway {
    #[sqlx(flatten)]
    pub place: AlarmPlace,
    pub gateway_id: GatewayId,
    pub sn: String,
    /// Its last message: the silence began after it.
    pub last_online: i64,
    pub upload_cycle: i64,
    /// The recipient's offline delay.
    pub delay_minutes: i64,
}

/// An `event_code` case on a fault: the fault is mailed as a `fault` alarm already (the
/// engine writes the detail with serde_json, without spaces).
const FAULT_CASE: &str =
    "(c.kind = 'event_code' AND c.detail LIKE '%\"eventSeverity\":\"fault\"%')";

/// An alarm case not yet mailed to the recipient.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct CaseOpened {
    #[sqlx(flatten)]
    pub place: AlarmPlace,
    pub case_id: AlarmCaseId,
    /// The rule kind (`domain::alarm_rules::Kind`).
    pub rule: String,
    /// What it is about: empty for the plant, a device SN, `SN/pv3` for a string, `SN/F13`
    /// for an event code.
    pub subject: String,
    pub opened_at: i64,
}

/// A fault occurrence (its first event) not yet mailed to the recipient.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct FaultOpened {
    #[sqlx(flatten)]
    pub place: AlarmPlace,
    pub occurrence_id: EventId,
    pub code: String,
    pub opened_at: i64,
    pub device_sn: Option<String>,
    #[sqlx(try_from = "crate::family::NullableFamily")]
    pub family: Option<DeviceFamily>,
}

/// A mailed alarm whose cause is over: the gateway was heard again, every device of the
/// occurrence recovered, the case closed.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Recovered {
    #[sqlx(flatten)]
    pub place: AlarmPlace,
    /// The `alarm_mails` row.
    pub alarm_id: AlarmId,
    /// `offline`, `fault` or `case`.
    pub kind: String,
    /// Gateway SN or device SN.
    pub sn: Option<String>,
    /// The fault's code (empty for a gateway; a case's rule kind).
    pub code: String,
    #[sqlx(try_from = "crate::family::NullableFamily")]
    pub family: Option<DeviceFamily>,
    /// When it recovered: the gateway's newest message, the occurrence's last recovery, the
    /// case's closing.
    pub at: i64,
}

/// An alarm mailed recently, for the quiet period.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct RecentAlarm {
    pub user_id: UserId,
    pub plant_id: PlantId,
    pub kind: String,
    pub sent_at: i64,
    pub recovery_sent_at: Option<i64>,
}

/// An alarm to record as mailed.
#[derive(Debug, Clone, PartialEq)]
pub struct NewAlarm {
    pub user_id: UserId,
    pub plant_id: PlantId,
    /// `offline`, `fault` or `case`.
    pub kind: &'static str,
    pub reference: i64,
    pub since: i64,
}

/// A digest line held during a recipient's quiet hours.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct HeldLine {
    #[sqlx(flatten)]
    pub place: AlarmPlace,
    pub id: i64,
    /// The line as JSON (the job's own format).
    pub line: String,
}

/// What one recipient's share of a tick records, in one transaction.
#[derive(Debug, Clone)]
pub struct AlarmRecord<'a> {
    pub user: UserId,
    pub alarms: &'a [NewAlarm],
    pub recoveries: &'a [AlarmId],
    /// The digest to queue now; `None` for a recipient without e-mails or in quiet hours.
    pub mail: Option<&'a crate::outbox::NewMail>,
    /// Digest lines to hold until the quiet hours end: (plant, line as JSON).
    pub hold: &'a [(PlantId, String)],
    /// Held lines up to this id are told by `mail`: they go.
    pub release_up_to: Option<i64>,
    /// The alarm events to tell the recipient's webhook endpoints of.
    pub webhooks: &'a [crate::webhook_deliveries::AlarmEvent<'a>],
}

/// Where the job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct AlarmCursor {
    pub watch_from: i64,
    pub last_event_id: EventId,
}

impl Store {
    /// The job's cursor; on the first call it starts watching at `now`, from the newest event.
    pub async fn alarm_cursor(&self, now: i64) -> Result<AlarmCursor> {
        exec!(
            self,
            "INSERT INTO alarm_cursor (id, watch_from, last_event_id) \
             SELECT 1, $1, COALESCE(MAX(id), 0) FROM events WHERE TRUE \
             ON CONFLICT (id) DO NOTHING",
            now
        )?;
        Ok(rows!(
            self,
            fetch_one,
            AlarmCursor,
            "SELECT watch_from, last_event_id FROM alarm_cursor WHERE id = 1"
        )?)
    }

    /// Moves the fault cursor to the newest event id seen by a tick.
    pub async fn set_alarm_cursor(&self, last_event_id: EventId) -> Result<()> {
        exec!(
            self,
            "UPDATE alarm_cursor SET last_event_id = $1 WHERE id = 1 AND last_event_id < $1",
            last_event_id
        )?;
        Ok(())
    }

    /// The newest event id.
    pub async fn newest_event_id(&self) -> Result<EventId> {
        Ok(scalar!(
            self,
            fetch_one,
            EventId,
            "SELECT CAST(COALESCE(MAX(id), 0) AS BIGINT) FROM events"
        )?)
    }

    /// Gateways marked offline whose silence began at or after `from` and is at least as old
    /// as the recipient's delay at `now` (the caller adds the time the gateway took to count
    /// as offline), per recipient, that were not mailed for this silence.
    pub async fn silent_gateways(&self, from: i64, now: i64) -> Result<Vec<SilentGateway>> {
        let sql = format!(
            "SELECT {PLACE}, g.id AS gateway_id, g.sn, g.last_online, \
             CAST(g.upload_cycle AS BIGINT) AS upload_cycle, \
             CAST(u.notify_offline_minutes AS BIGINT) AS delay_minutes \
             FROM users u JOIN plants p ON {} JOIN gateways g ON g.plant_id = p.id \
             WHERE {NOTIFIABLE} AND NOT g.online AND g.last_online IS NOT NULL \
             AND g.last_online >= $1 AND g.last_online + u.notify_offline_minutes * 60000 <= $2 \
             AND NOT EXISTS (SELECT 1 FROM alarm_mails a WHERE a.user_id = u.id \
                 AND a.kind = 'offline' AND a.reference = g.id AND a.since = g.last_online) \
             ORDER BY u.id, p.id, g.sn",
            recipient_of_plant()
        );
        Ok(rows!(self, fetch_all, SilentGateway, &sql, from, now)?)
    }

    /// Fault occurrences opened at or after `from` that are still open, or that began after
    /// event `after` (seen for the first time, even if already over), per recipient, not yet
    /// mailed to them.
    pub async fn opened_faults(&self, from: i64, after: EventId) -> Result<Vec<FaultOpened>> {
        let sql = format!(
            "SELECT {PLACE}, e.id AS occurrence_id, e.code, e.opened_at, d.sn AS device_sn, \
             d.family FROM events e JOIN plants p ON p.id = e.plant_id \
             JOIN users u ON {} LEFT JOIN devices d ON d.id = e.device_id \
             WHERE {NOTIFIABLE} AND e.occurrence_id = e.id AND e.severity = 'fault' \
             AND e.opened_at >= $1 \
             AND (e.id > $2 OR e.id IN (SELECT o.occurrence_id FROM events o \
                 WHERE o.closed_at IS NULL)) \
             AND NOT EXISTS (SELECT 1 FROM alarm_mails a WHERE a.user_id = u.id \
                 AND a.kind = 'fault' AND a.reference = e.id) \
             ORDER BY u.id, p.id, e.id",
            recipient_of_plant()
        );
        Ok(rows!(self, fetch_all, FaultOpened, &sql, from, after)?)
    }

    /// Mailed alarms that are over and whose recovery was not mailed yet, for recipients who
    /// still get e-mails and still see the plant.
    pub async fn recovered_alarms(&self) -> Result<Vec<Recovered>> {
        let recipient = recipient_of_plant();
        let offline = format!(
            "SELECT {PLACE}, a.id AS alarm_id, a.kind, g.sn, '' AS code, \
             CAST(NULL AS TEXT) AS family, g.last_online AS at \
             FROM alarm_mails a JOIN users u ON u.id = a.user_id \
             JOIN plants p ON p.id = a.plant_id JOIN gateways g ON g.id = a.reference \
             WHERE NOT a.done AND a.kind = 'offline' AND g.plant_id = a.plant_id \
             AND g.last_online > a.since AND {NOTIFIABLE} AND {recipient} ORDER BY a.id"
        );
        let mut out = rows!(self, fetch_all, Recovered, &offline)?;
        let fault = format!(
            "SELECT {PLACE}, a.id AS alarm_id, a.kind, d.sn, e.code, d.family, \
             CAST((SELECT MAX(o.closed_at) FROM events o WHERE o.occurrence_id = a.reference) \
                 AS BIGINT) AS at \
             FROM alarm_mails a JOIN users u ON u.id = a.user_id \
             JOIN plants p ON p.id = a.plant_id JOIN events e ON e.id = a.reference \
             LEFT JOIN devices d ON d.id = e.device_id \
             WHERE NOT a.done AND a.kind = 'fault' AND NOT EXISTS (SELECT 1 FROM events o \
                 WHERE o.occurrence_id = a.reference AND o.closed_at IS NULL) \
             AND {NOTIFIABLE} AND {recipient} ORDER BY a.id"
        );
        out.extend(rows!(self, fetch_all, Recovered, &fault)?);
        // A case's rule kind travels as its `code`.
        let case = format!(
            "SELECT {PLACE}, a.id AS alarm_id, a.kind, c.subject AS sn, c.kind AS code, \
             CAST(NULL AS TEXT) AS family, c.closed_at AS at \
             FROM alarm_mails a JOIN users u ON u.id = a.user_id \
             JOIN plants p ON p.id = a.plant_id JOIN alarm_cases c ON c.id = a.reference \
             WHERE NOT a.done AND a.kind = 'case' AND c.closed_at IS NOT NULL \
             AND {WANTS_MAIL} AND NOT u.disabled AND u.deleted_at IS NULL AND {recipient} \
             ORDER BY a.id"
        );
        out.extend(rows!(self, fetch_all, Recovered, &case)?);
        Ok(out)
    }

    /// Alarm cases (docs/alarms.md) opened at or after `from` and still open, per recipient
    /// who gets e-mails, not yet mailed to them. Their webhooks are queued by the case itself
    /// (`alarm_engine::hook`), so only e-mail recipients are read here.
    pub async fn opened_cases(&self, from: i64) -> Result<Vec<CaseOpened>> {
        let sql = format!(
            "SELECT {PLACE}, c.id AS case_id, c.kind AS rule, c.subject, c.opened_at \
             FROM alarm_cases c JOIN plants p ON p.id = c.plant_id JOIN users u ON {} \
             WHERE {WANTS_MAIL} AND NOT u.disabled AND u.deleted_at IS NULL \
             AND c.closed_at IS NULL AND c.opened_at >= $1 AND NOT {FAULT_CASE} \
             AND NOT EXISTS (SELECT 1 FROM alarm_mails a WHERE a.user_id = u.id \
                 AND a.kind = 'case' AND a.reference = c.id) \
             ORDER BY u.id, p.id, c.id",
            recipient_of_plant()
        );
        Ok(rows!(self, fetch_all, CaseOpened, &sql, from)?)
    }

    /// Alarms or recoveries mailed after `since`, for the quiet period.
    pub async fn recent_alarms(&self, since: i64) -> Result<Vec<RecentAlarm>> {
        Ok(rows!(
            self,
            fetch_all,
            RecentAlarm,
            "SELECT user_id, plant_id, kind, sent_at, recovery_sent_at FROM alarm_mails \
             WHERE sent_at > $1 OR recovery_sent_at > $1",
            since
        )?)
    }

    /// Records one recipient's share of a tick in one transaction: the alarms it tells, the
    /// recoveries it tells, the e-mail queued for the mail worker (or the lines held for the end
    /// of quiet hours) and the webhook deliveries. Two jobs racing over the same alarm (two
    /// replicas) collide on the alarm's unique episode and only one records it.
    pub async fn record_alarm_digest(
        &self,
        r: &AlarmRecord<'_>,
        now: i64,
    ) -> Result<Option<MailId>> {
        Ok(in_tx!(self, |tx, sqlite| {
            for a in r.alarms {
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO alarm_mails (user_id, plant_id, kind, reference, since, sent_at) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    a.user_id,
                    a.plant_id,
                    a.kind,
                    a.reference,
                    a.since,
                    now
                )?;
            }
            for id in r.recoveries {
                tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE alarm_mails SET recovery_sent_at = $2, done = TRUE WHERE id = $1",
                    id,
                    now
                )?;
            }
            for (plant, line) in r.hold {
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO alarm_held_lines (user_id, plant_id, line, created_at) \
                     VALUES ($1, $2, $3, $4)",
                    r.user,
                    plant,
                    line,
                    now
                )?;
            }
            if let Some(last) = r.release_up_to {
                tx_exec!(
                    tx,
                    sqlite,
                    "DELETE FROM alarm_held_lines WHERE user_id = $1 AND id <= $2",
                    r.user,
                    last
                )?;
            }
            for e in r.webhooks {
                enqueue_webhooks_in_tx!(tx, sqlite, e, [r.user].iter(), now);
                // An alarm that begins is pushed too (recoveries are not: docs/push.md).
                if e.event == "opened" {
                    let push = crate::push::AlarmPush::of(e);
                    enqueue_push_in_tx!(tx, sqlite, &push.event(), r.user, now);
                }
            }
            match r.mail {
                Some(mail) => {
                    let (name, bytes) = crate::outbox::attachment_parts(mail);
                    Some(tx_scalar!(
                        tx,
                        sqlite,
                        MailId,
                        crate::outbox::QUEUE_MAIL,
                        &mail.recipient,
                        &mail.subject,
                        &mail.body,
                        now,
                        &mail.kind,
                        name,
                        bytes
                    )?)
                }
                None => None,
            }
        }))
    }

    /// Every line held for quiet hours, oldest first, with its recipient and plant as they
    /// are now (recipients who stopped e-mails are left out: their lines are pruned).
    pub async fn held_alarm_lines(&self) -> Result<Vec<HeldLine>> {
        let sql = format!(
            "SELECT {PLACE}, h.id, h.line FROM alarm_held_lines h \
             JOIN users u ON u.id = h.user_id JOIN plants p ON p.id = h.plant_id \
             WHERE {WANTS_MAIL} AND NOT u.disabled AND u.deleted_at IS NULL ORDER BY h.id"
        );
        Ok(rows!(self, fetch_all, HeldLine, &sql)?)
    }

    /// Forgets held lines from before `before` (their recipient stopped e-mails, or the quiet
    /// hours never ended: a whole-day setting).
    pub async fn prune_held_alarm_lines(&self, before: i64) -> Result<u64> {
        Ok(exec!(
            self,
            "DELETE FROM alarm_held_lines WHERE created_at < $1",
            before
        )?)
    }

    /// Forgets settled alarms whose last e-mail went before `before`: past the quiet period
    /// they decide nothing (their gateway was heard again, their occurrence ended and the
    /// cursor passed it), and the table stays the size of what is still open.
    pub async fn prune_alarm_mails(&self, before: i64) -> Result<u64> {
        Ok(exec!(
            self,
            "DELETE FROM alarm_mails WHERE done AND COALESCE(recovery_sent_at, sent_at) < $1",
            before
        )?)
    }

    /// Settles mailed gateway alarms whose gateway left the plant (or was deleted): no
    /// recovery will be mailed for them.
    pub async fn settle_orphan_alarms(&self) -> Result<u64> {
        Ok(exec!(
            self,
            "UPDATE alarm_mails SET done = TRUE WHERE NOT done AND ((kind = 'offline' \
             AND NOT EXISTS (SELECT 1 FROM gateways g WHERE g.id = alarm_mails.reference \
                 AND g.plant_id = alarm_mails.plant_id)) OR (kind = 'case' \
             AND NOT EXISTS (SELECT 1 FROM alarm_cases c WHERE c.id = alarm_mails.reference)))"
        )?)
    }
}
