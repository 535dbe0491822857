//! Predicted generation (what a plant is expected to produce, per month or per day) and the
//! monthly report e-mail subscriptions. Predictions are written in one transaction per import,
//! so a spreadsheet lands whole or not at all.

use crate::{Result, Store};
use domain::ids::{MailId, PlantId, UserId};

/// One expected figure: a whole month when `day` is 0, else one day.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Prediction {
    pub plant_id: PlantId,
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub kwh: f64,
}

/// A user's monthly report subscription, with what the job needs to send it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Subscription {
    pub user_id: UserId,
    pub plant_id: PlantId,
    /// `en`, `zh` or `es`: the language the user subscribed in.
    pub lang: String,
    pub created_at: i64,
    /// The last month queued, `YYYY-MM`.
    pub last_period: Option<String>,
    pub plant_timezone: String,
}

impl Store {
    /// Inserts or replaces every prediction in one transaction.
    pub async fn upsert_predictions(&self, rows: &[Prediction], now: i64) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            for p in rows {
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO predicted_generation (plant_id, year, month, day, kwh, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $6) \
                     ON CONFLICT (plant_id, year, month, day) \
                     DO UPDATE SET kwh = excluded.kwh, updated_at = excluded.updated_at",
                    p.plant_id,
                    p.year,
                    p.month,
                    p.day,
                    p.kwh,
                    now
                )?;
            }
        });
        Ok(())
    }

    /// A plant's predictions of one year, by month then day (month rows first).
    pub async fn plant_predictions(&self, plant: PlantId, year: i64) -> Result<Vec<Prediction>> {
        Ok(rows!(
            self,
            fetch_all,
            Prediction,
            "SELECT plant_id, year, month, day, kwh FROM predicted_generation \
             WHERE plant_id = $1 AND year = $2 ORDER BY month, day",
            plant,
            year
        )?)
    }

    /// The user's subscription to the plant's monthly report, if any.
    pub async fn report_subscription(
        &self,
        user: UserId,
        plant: PlantId,
    ) -> Result<Option<Subscription>> {
        Ok(rows!(
            self,
            fetch_optional,
            Subscription,
            "SELECT s.user_id, s.plant_id, s.lang, s.created_at, s.last_period, \
             p.timezone AS plant_timezone FROM report_subscriptions s \
             JOIN plants p ON p.id = s.plant_id WHERE s.user_id = $1 AND s.plant_id = $2",
            user,
            plant
        )?)
    }

    /// Subscribes (keeping the sent month of an existing subscription) or unsubscribes.
    pub async fn set_report_subscription(
        &self,
        user: UserId,
        plant: PlantId,
        enabled: bool,
        lang: &str,
        now: i64,
    ) -> Result<()> {
        if enabled {
            exec!(
                self,
                "INSERT INTO report_subscriptions (user_id, plant_id, lang, created_at) \
                 VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (user_id, plant_id) DO UPDATE SET lang = excluded.lang",
                user,
                plant,
                lang,
                now
            )?;
        } else {
            exec!(
                self,
                "DELETE FROM report_subscriptions WHERE user_id = $1 AND plant_id = $2",
                user,
                plant
            )?;
        }
        Ok(())
    }

    /// Every subscription not yet sent for `period` (`YYYY-MM`); the job checks each plant's
    /// own calendar before sending.
    pub async fn report_subscriptions_due(&self, period: &str) -> Result<Vec<Subscription>> {
        Ok(rows!(
            self,
            fetch_all,
            Subscription,
            "SELECT s.user_id, s.plant_id, s.lang, s.created_at, s.last_period, \
             p.timezone AS plant_timezone FROM report_subscriptions s \
             JOIN plants p ON p.id = s.plant_id \
             WHERE s.last_period IS NULL OR s.last_period < $1 ORDER BY s.plant_id, s.user_id",
            period
        )?)
    }
}

impl Store {
    /// Queues a report e-mail and records its month on the subscription, in one transaction:
    /// a month is queued once even when the job stops between the two, and once when several
    /// replicas run the job together (the month is claimed first, by a conditional update;
    /// the one that finds it taken queues nothing and gets `None`).
    pub async fn queue_report_mail(
        &self,
        mail: &crate::outbox::NewMail,
        user: UserId,
        plant: PlantId,
        period: &str,
        now: i64,
    ) -> Result<Option<MailId>> {
        let (name, bytes) = match &mail.attachment {
            Some((name, bytes)) => (Some(name.as_str()), Some(bytes.as_slice())),
            None => (None, None),
        };
        Ok(in_tx!(self, |tx, sqlite| {
            let claimed = tx_exec!(
                tx,
                sqlite,
                "UPDATE report_subscriptions SET last_period = $3 \
                 WHERE user_id = $1 AND plant_id = $2 \
                 AND (last_period IS NULL OR last_period < $3)",
                user,
                plant,
                period
            )?;
            if claimed == 0 {
                None
            } else {
                Some(tx_scalar!(
                    tx,
                    sqlite,
                    MailId,
                    "INSERT INTO outbox (channel, recipient, subject, body, created_at, queued, \
                     kind, next_attempt_at, attachment_name, attachment) \
                     VALUES ('email', $1, $2, $3, $4, TRUE, $5, $4, $6, $7) RETURNING id",
                    &mail.recipient,
                    &mail.subject,
                    &mail.body,
                    now,
                    &mail.kind,
                    name,
                    bytes
                )?)
            }
        }))
    }
}
