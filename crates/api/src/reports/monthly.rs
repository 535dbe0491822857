//! The monthly report e-mail: checked every hour, it queues last month's report (the workbook
//! attached) for every subscription whose plant has entered a new month in its own time zone
//! and that was not sent for that month yet. A subscription made during a month first
//! receives that month's report, on the 1st of the next; a job that was down on the 1st
//! catches up on its next run. The subscriber must still see the plant.

use chrono::{DateTime, Datelike, Duration, Utc};
use domain::{
    Lang,
    ids::{PlantId, UserId},
};
use store::{outbox::NewMail, reports::Subscription};

use super::{build, period::Period, sheet, subscription::address};
use crate::{AppState, envelope::ApiResult, monitor::PlantCtx, readings};

/// How often the portal runs [`send_due`].
pub const CHECK_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

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
async fn one(app: &AppState, sub: &Subscription, now: DateTime<Utc>) -> ApiResult<bool> {
    let tz = readings::zone(&sub.plant_timezone);
    let today = now.with_timezone(&tz).date_naive();
    let period = Period::month_before(today);
    let label = period.label();
    let month_start = readings::day_bounds(tz, today.with_day(1).unwrap_or(today)).0;
    if sub.last_period.as_deref() >= Some(label.as_str()) || sub.created_at >= month_start {
        return Ok(false);
    }
    let store = &app.store;
    let Some(user) = store.user(UserId(sub.user_id)).await? else {
        return Ok(false);
    };
    let Some(to) = address(&user).filter(|_| user.deleted_at.is_none() && !user.disabled) else {
        return Ok(false);
    };
    let actor = service::actors::actor_of(store, &user).await?;
    // A plant the subscriber no longer sees is not reported to them.
    let Ok((plant, _)) = service::plants::visible(store, &actor, PlantId(sub.plant_id)).await
    else {
        return Ok(false);
    };
    let lang = Lang::parse(&sub.lang).unwrap_or_default();
    let ctx = PlantCtx {
        tz,
        devices: store.plant_devices(plant.id).await?,
        plant,
    };
    let report = build::build(app, &actor, &ctx, period, lang).await?;
    let bytes = crate::xlsx::workbook(&sheet::sheets(&report, lang))?;
    let (subject, body) = words(lang, &ctx.plant.name, &label);
    let mail = NewMail {
        kind: "report".into(),
        recipient: to,
        subject,
        body,
        attachment: Some((sheet::file_name(&report), bytes)),
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
    tracing::info!(plant = sub.plant_id, user = sub.user_id, month = %label, "monthly report queued");
    Ok(true)
}

/// Queues every report due at `now`; answers how many. One subscription's failure is logged
/// and does not stop the others (it is tried again on the next run).
pub async fn send_due(app: &AppState, now: DateTime<Utc>) -> ApiResult<usize> {
    // No zone is more than 14 hours ahead of UTC: no plant's last month is later than this.
    let ahead = (now + Duration::hours(14)).date_naive();
    let latest = Period::month_before(ahead).label();
    let mut queued = 0;
    for sub in app.store.report_subscriptions_due(&latest).await? {
        match one(app, &sub, now).await {
            Ok(true) => queued += 1,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(plant = sub.plant_id, user = sub.user_id, error = %e, "monthly report failed")
            }
        }
    }
    Ok(queued)
}
