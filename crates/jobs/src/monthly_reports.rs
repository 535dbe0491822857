//! The monthly report e-mail: checked every hour, it queues last month's report (the workbook
//! attached) for every subscription whose plant has entered a new month in its own time zone
//! and that was not sent for that month yet. A subscription made during a month first
//! receives that month's report, on the 1st of the next; a job that was down on the 1st
//! catches up on its next run. The subscriber must still see the plant. Every replica runs
//! it without a lease: the store queues one report per subscription and month, a second
//! replica's attempt queues nothing.

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use domain::Lang;
use service::{
    curves::{CurveCaches, PlantDevices},
    figures::FiguresConfig,
    local_time::zone,
    reports::{address, month_workbook},
};
use store::{Store, outbox::NewMail, reports::Subscription};

/// How often [`run`] looks for reports due.
pub const CHECK_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

type Error = Box<dyn std::error::Error + Send + Sync>;

/// The month before the one of `day`.
fn month_before(day: NaiveDate) -> (i32, u32) {
    if day.month() == 1 {
        (day.year() - 1, 12)
    } else {
        (day.year(), day.month() - 1)
    }
}

/// `YYYY-MM`, as subscriptions record the last month sent.
fn label((year, month): (i32, u32)) -> String {
    format!("{year:04}-{month:02}")
}

fn words(lang: Lang, plant: &str, month: &str) -> (String, String) {
    match lang {
        Lang::En => (
            format!("Monthly report {month}: {plant}"),
            format!(
                "Hello,\n\nattached is the report of {plant} for {month}: energy, income and events of the month.\n\nYou receive it because you subscribed to the plant's monthly report; switch it off on the plant's report page."
            ),
        ),
        Lang::Zh => (
            format!("{month} 月度报告：{plant}"),
            format!(
                "您好，\n\n附件是电站 {plant} {month} 的月度报告：本月的电量、收益和事件。\n\n您收到此邮件是因为您订阅了该电站的月度报告，可在电站报告页面取消订阅。"
            ),
        ),
        Lang::Es => (
            format!("Informe mensual {month}: {plant}"),
            format!(
                "Hola:\n\nse adjunta el informe de {plant} de {month}: energía, ingresos y eventos del mes.\n\nLo recibe porque se suscribió al informe mensual de la planta; puede desactivarlo en la página del informe."
            ),
        ),
    }
}

/// Queues one subscription's report when it is due; answers whether it did.
async fn one(
    store: &Store,
    (curves, figures): (&CurveCaches, &FiguresConfig),
    sub: &Subscription,
    now: DateTime<Utc>,
) -> Result<bool, Error> {
    let tz = zone(&sub.plant_timezone);
    let today = now.with_timezone(&tz).date_naive();
    let month = month_before(today);
    let label = label(month);
    let month_start = devices::history::day_bounds(tz, today.with_day(1).unwrap_or(today)).0;
    if sub.last_period.as_deref() >= Some(label.as_str()) || sub.created_at >= month_start {
        return Ok(false);
    }
    let Some(user) = store.user(sub.user_id).await? else {
        return Ok(false);
    };
    let Some(to) = address(&user).filter(|_| user.deleted_at.is_none() && !user.disabled) else {
        return Ok(false);
    };
    let actor = service::actors::actor_of(store, &user).await?;
    // A plant the subscriber no longer sees is not reported to them.
    let Ok((plant, _)) = service::plants::visible(store, &actor, sub.plant_id).await else {
        return Ok(false);
    };
    let lang = Lang::parse(&sub.lang).unwrap_or_default();
    let (subject, body) = words(lang, &plant.name, &label);
    let devices = store.plant_devices(plant.id).await?;
    let at = PlantDevices {
        plant: &plant,
        tz,
        devices: &devices,
    };
    let attachment =
        month_workbook(store, curves, &actor, at, (month.0, month.1, figures), lang).await?;
    let mail = NewMail {
        kind: "report".into(),
        recipient: to,
        subject,
        body,
        attachment: Some(attachment),
    };
    let queued = store
        .queue_report_mail(
            &mail,
            sub.user_id,
            sub.plant_id,
            &label,
            now.timestamp_millis(),
        )
        .await?;
    if queued.is_none() {
        // Another replica queued this month's report first.
        return Ok(false);
    }
    tracing::info!(plant = %sub.plant_id, user = %sub.user_id, month = %label, "monthly report queued");
    Ok(true)
}

/// Queues every report due at `now` (with the plant figures of `figures`); answers how many.
/// One subscription's failure is logged and does not stop the others (it is tried again on
/// the next run).
pub async fn send_due(
    store: &Store,
    figures: &FiguresConfig,
    now: DateTime<Utc>,
) -> store::Result<usize> {
    // A month report draws no day curves: nothing here is kept from one run to the next.
    let curves = CurveCaches::default();
    // No zone is more than 14 hours ahead of UTC: no plant's last month is later than this.
    let ahead = (now + Duration::hours(14)).date_naive();
    let latest = label(month_before(ahead));
    let mut queued = 0;
    for sub in store.report_subscriptions_due(&latest).await? {
        match one(store, (&curves, figures), &sub, now).await {
            Ok(true) => queued += 1,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(plant = %sub.plant_id, user = %sub.user_id, error = %e, "monthly report failed")
            }
        }
    }
    Ok(queued)
}

/// Queues the reports due every [`CHECK_EVERY`] (the first at once; the mail worker sends
/// them) until the process ends.
pub async fn run(store: Store, figures: FiguresConfig) {
    let mut tick = tokio::time::interval(CHECK_EVERY);
    loop {
        tick.tick().await;
        match send_due(&store, &figures, Utc::now()).await {
            Ok(n) if n > 0 => tracing::info!(queued = n, "monthly reports queued"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "monthly reports failed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
    }

    #[test]
    fn the_month_reported_is_the_one_before_across_the_new_year() {
        assert_eq!(label(month_before(day("2026-03-01"))), "2026-02");
        assert_eq!(label(month_before(day("2026-01-31"))), "2025-12");
    }

    #[test]
    fn the_mail_names_the_plant_and_month_in_the_subscribers_language() {
        let (subject, body) = words(Lang::Es, "Casa", "2026-02");
        assert_eq!(subject, "Informe mensual 2026-02: Casa");
        assert!(body.contains("Casa de 2026-02"));
        assert_eq!(words(Lang::Zh, "家", "2026-02").0, "2026-02 月度报告：家");
    }
}
