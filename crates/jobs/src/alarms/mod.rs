//! The alarm job: e-mails owners and the staff of the companies serving a plant when a gateway
//! of the plant stays offline longer than their offline delay, when a fault occurrence opens,
//! and when either of those mailed alarms recovers. At most one e-mail per (recipient, plant,
//! kind) per quiet period, kinds being `offline`, `fault` and their recoveries; what is held
//! back by the quiet period is told after it if still true. Everything a recipient is due in
//! one tick is one e-mail (a digest), queued in the outbox for the mail worker in the same
//! transaction that records it as mailed.

pub mod digest;

use domain::ids::{AlarmId, PlantId, UserId};
use std::{
    collections::{BTreeMap, HashSet},
    time::Duration,
};

use devices::ingest::status::offline_after_ms;
use domain::{DeviceFamily, Lang};
use store::{
    Store,
    alarms::{AlarmPlace, LOOKBACK_MS, NewAlarm},
    outbox::NewMail,
};

use digest::{Digest, Line};
use domain::time::now_ms;

/// Settled alarms are kept at least this long (longer when the quiet period is longer).
const KEEP_SETTLED_MS: i64 = 24 * 3600 * 1000;

/// How the job behaves.
#[derive(Debug, Clone)]
pub struct AlarmSettings {
    /// At most one e-mail per recipient, plant and kind in this long.
    pub quiet_ms: i64,
    /// Where the web app is reached, for the plant links.
    pub public_url: String,
}

/// What one tick did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tick {
    /// E-mails queued.
    pub mails: usize,
    pub alarms: usize,
    pub recoveries: usize,
}

/// One recipient's share of a tick.
#[derive(Default)]
struct Due {
    email: String,
    lang: String,
    name: String,
    digest: Digest,
    alarms: Vec<NewAlarm>,
    recoveries: Vec<AlarmId>,
}

/// (user, plant, kind) mailed within the quiet period: alarms, and recoveries.
struct Quiet {
    alarms: HashSet<(UserId, PlantId, String)>,
    recoveries: HashSet<(UserId, PlantId, String)>,
}

impl Quiet {
    async fn read(store: &Store, since: i64) -> store::Result<Quiet> {
        let mut q = Quiet {
            alarms: HashSet::new(),
            recoveries: HashSet::new(),
        };
        for r in store.recent_alarms(since).await? {
            let key = (r.user_id, r.plant_id, r.kind);
            if r.recovery_sent_at.is_some_and(|t| t > since) {
                q.recoveries.insert(key.clone());
            }
            if r.sent_at > since {
                q.alarms.insert(key);
            }
        }
        Ok(q)
    }

    fn holds(set: &HashSet<(UserId, PlantId, String)>, place: &AlarmPlace, kind: &str) -> bool {
        set.contains(&(place.user_id, place.plant_id, kind.to_string()))
    }
}

/// The recipient's share of the tick, started on first use.
fn entry<'a>(due: &'a mut BTreeMap<UserId, Due>, place: &AlarmPlace) -> &'a mut Due {
    due.entry(place.user_id).or_insert_with(|| Due {
        email: place.email.clone(),
        lang: place.lang.clone(),
        name: place.user_name.clone(),
        ..Due::default()
    })
}

/// The meaning of an event code in `lang`, empty when the catalogue does not know it.
fn meaning(family: Option<DeviceFamily>, code: &str, lang: &str) -> String {
    let lang = Lang::parse(lang).unwrap_or_default();
    service::event_catalogue::definition(family, code)
        .map(|d| d.meaning(lang).to_string())
        .unwrap_or_default()
}

/// One pass at `now`: reads what is due, queues one e-mail per recipient.
pub async fn tick(store: &Store, settings: &AlarmSettings, now: i64) -> store::Result<Tick> {
    let cursor = store.alarm_cursor(now).await?;
    // Read first: an event committed during the pass is looked at again next time.
    let newest_event = store.newest_event_id().await?;
    let from = cursor.watch_from - LOOKBACK_MS;
    let quiet = Quiet::read(store, now - settings.quiet_ms).await?;
    store.settle_orphan_alarms().await?;
    store
        .prune_alarm_mails(now - settings.quiet_ms.max(KEEP_SETTLED_MS))
        .await?;
    let mut due: BTreeMap<UserId, Due> = BTreeMap::new();

    for g in store.silent_gateways(from, now).await? {
        // Offline once the status rule says so, then the recipient's delay on top.
        let offline_at = g.last_online + offline_after_ms(g.upload_cycle);
        if now < offline_at + g.delay_minutes * 60_000
            || Quiet::holds(&quiet.alarms, &g.place, "offline")
        {
            continue;
        }
        let d = entry(&mut due, &g.place);
        d.digest.add(
            &g.place,
            Line::Offline {
                sn: g.sn.clone(),
                last_message: g.last_online,
            },
        );
        d.alarms.push(NewAlarm {
            user_id: g.place.user_id,
            plant_id: g.place.plant_id,
            kind: "offline",
            reference: g.gateway_id.0,
            since: g.last_online,
        });
    }

    for f in store.opened_faults(from, cursor.last_event_id).await? {
        if Quiet::holds(&quiet.alarms, &f.place, "fault") {
            continue;
        }
        let d = entry(&mut due, &f.place);
        d.digest.add(
            &f.place,
            Line::Fault {
                sn: f.device_sn.clone().unwrap_or_default(),
                meaning: meaning(f.family, &f.code, &f.place.lang),
                code: f.code.clone(),
                opened_at: f.opened_at,
            },
        );
        d.alarms.push(NewAlarm {
            user_id: f.place.user_id,
            plant_id: f.place.plant_id,
            kind: "fault",
            reference: f.occurrence_id.0,
            since: f.opened_at,
        });
    }

    for r in store.recovered_alarms().await? {
        if Quiet::holds(&quiet.recoveries, &r.place, &r.kind) {
            continue;
        }
        let sn = r.sn.clone().unwrap_or_default();
        let line = if r.kind == "offline" {
            Line::Online { sn, at: r.at }
        } else {
            Line::FaultCleared {
                sn,
                meaning: meaning(r.family, &r.code, &r.place.lang),
                code: r.code.clone(),
                at: r.at,
            }
        };
        let d = entry(&mut due, &r.place);
        d.digest.add(&r.place, line);
        d.recoveries.push(r.alarm_id);
    }

    let mut done = Tick::default();
    let quiet_minutes = settings.quiet_ms / 60_000;
    for (user, d) in due {
        let lang = Lang::parse(&d.lang).unwrap_or_default();
        let (subject, body) = d
            .digest
            .write(lang, &d.name, &settings.public_url, quiet_minutes);
        let mail = NewMail {
            kind: "alarm".into(),
            recipient: d.email.clone(),
            subject,
            body,
            attachment: None,
        };
        match store
            .record_alarm_digest(&d.alarms, &d.recoveries, &mail, now)
            .await
        {
            Ok(_) => {
                done.mails += 1;
                done.alarms += d.alarms.len();
                done.recoveries += d.recoveries.len();
            }
            // Another replica mailed these first (the unique episode refused the second
            // record), or the database failed: nothing was queued, the next tick looks again.
            Err(e) => tracing::warn!(%user, %e, "alarm e-mail not queued"),
        }
    }
    store.set_alarm_cursor(newest_event).await?;
    if done.mails > 0 {
        tracing::info!(
            mails = done.mails,
            alarms = done.alarms,
            recoveries = done.recoveries,
            "alarm e-mails queued"
        );
    }
    Ok(done)
}

/// Runs the job every `period` until the process ends.
pub async fn run(store: Store, settings: AlarmSettings, period: Duration) {
    let mut every = tokio::time::interval(period);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if let Err(e) = tick(&store, &settings, now_ms()).await {
            tracing::warn!(%e, "alarm job failed");
        }
    }
}
