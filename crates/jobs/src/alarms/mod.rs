//! The alarm job: e-mails owners and the staff of the companies serving a plant when a gateway
//! of the plant stays offline longer than their offline delay, when a fault occurrence opens,
//! when an alarm case of the alarm rules opens (docs/alarms.md), and when any of those mailed
//! alarms recovers. At most one e-mail per (recipient, plant, kind) per quiet period, kinds
//! being `offline`, `fault`, `case` and their recoveries; what is held
//! back by the quiet period is told after it if still true. Everything a recipient is due in
//! one tick is one e-mail (a digest), queued in the outbox for the mail worker in the same
//! transaction that records it as mailed, with a webhook delivery per alarm (`opened`) and
//! recovery (`closed`) for the recipient's endpoints (recipients may have webhooks only). A
//! case's webhooks are not queued here: the case queues them as it changes.
//!
//! Quiet hours (per user): while they hold, what a tick decides for the user is recorded and
//! its digest lines are kept (`alarm_held_lines`); the first tick after they end mails them,
//! with whatever is new, as one digest. So an alarm that opened and recovered during the quiet
//! hours is told, with its recovery, at their end. Webhook deliveries are queued at once and
//! the sender holds them until the hours end (`jobs::webhooks`).

pub mod digest;

use domain::ids::{AlarmId, PlantId, UserId};
use std::{
    collections::{BTreeMap, HashSet},
    time::Duration,
};

use devices::ingest::status::offline_after_ms;
use domain::{DeviceFamily, Lang};
use service::quiet_hours::Quiet as QuietHours;
use store::{
    Store,
    alarms::{AlarmPlace, AlarmRecord, LOOKBACK_MS, NewAlarm},
    outbox::NewMail,
    webhook_deliveries::{AlarmEvent, Titles},
};

use digest::{Digest, Line, plant_link};
use domain::time::now_ms;

/// Settled alarms are kept at least this long (longer when the quiet period is longer).
const KEEP_SETTLED_MS: i64 = 24 * 3600 * 1000;
/// Lines held for quiet hours are dropped after this long (hours that never end).
const HELD_KEEP_MS: i64 = 2 * 24 * 3600 * 1000;

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
    /// Recipients whose lines were held for their quiet hours.
    pub held: usize,
}

/// One recipient's share of a tick.
struct Due {
    place: AlarmPlace,
    /// Lines held during quiet hours that this digest tells (they come first).
    held: Digest,
    release_up_to: Option<i64>,
    digest: Digest,
    alarms: Vec<NewAlarm>,
    recoveries: Vec<AlarmId>,
}

impl Due {
    fn quiet(&self) -> QuietHours<'_> {
        QuietHours {
            enabled: self.place.quiet_enabled,
            from: self.place.quiet_from,
            to: self.place.quiet_to,
            zone: &self.place.quiet_zone,
        }
    }
}

/// A webhook event for a digest line, its texts owned.
struct LineEvent {
    plant: AlarmPlace,
    event: &'static str,
    kind: &'static str,
    sn: String,
    titles: [String; 3],
    detail: String,
    at: i64,
    link: String,
}

impl LineEvent {
    fn new(place: &AlarmPlace, line: &Line, public_url: &str) -> LineEvent {
        LineEvent {
            plant: place.clone(),
            event: if line.is_alarm() { "opened" } else { "closed" },
            kind: line.kind(),
            sn: line.sn().to_string(),
            titles: [Lang::En, Lang::Zh, Lang::Es].map(|l| line.title(l)),
            detail: line.detail().to_string(),
            at: line.at(),
            link: plant_link(public_url, place.plant_id, place.plant_type),
        }
    }

    fn as_event(&self) -> AlarmEvent<'_> {
        AlarmEvent {
            event: self.event,
            kind: self.kind,
            // Both e-mail alarms stop the plant's data or production: alarms, not warnings.
            severity: "alarm",
            case_id: None,
            plant_id: self.plant.plant_id,
            plant_name: &self.plant.plant_name,
            device_sn: Some(&self.sn).filter(|s| !s.is_empty()).map(String::as_str),
            titles: Titles {
                en: &self.titles[0],
                zh: &self.titles[1],
                es: &self.titles[2],
            },
            detail: &self.detail,
            at: self.at,
            link: &self.link,
        }
    }
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
        place: place.clone(),
        held: Digest::default(),
        release_up_to: None,
        digest: Digest::default(),
        alarms: Vec::new(),
        recoveries: Vec::new(),
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

    // What quiet hours held, for the recipients whose hours are over.
    for h in store.held_alarm_lines().await? {
        let Ok(line) = serde_json::from_str::<Line>(&h.line) else {
            continue;
        };
        let d = entry(&mut due, &h.place);
        if !d.quiet().holds(now) {
            d.held.add(&h.place, line);
            d.release_up_to = Some(h.id);
        }
    }
    store.prune_held_alarm_lines(now - HELD_KEEP_MS).await?;

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

    for c in store.opened_cases(from).await? {
        if Quiet::holds(&quiet.alarms, &c.place, "case") {
            continue;
        }
        let d = entry(&mut due, &c.place);
        d.digest.add(
            &c.place,
            Line::CaseOpened {
                rule: c.rule.clone(),
                subject: c.subject.clone(),
                opened_at: c.opened_at,
            },
        );
        d.alarms.push(NewAlarm {
            user_id: c.place.user_id,
            plant_id: c.place.plant_id,
            kind: "case",
            reference: c.case_id.0,
            since: c.opened_at,
        });
    }

    for r in store.recovered_alarms().await? {
        if Quiet::holds(&quiet.recoveries, &r.place, &r.kind) {
            continue;
        }
        let sn = r.sn.clone().unwrap_or_default();
        let line = match r.kind.as_str() {
            "offline" => Line::Online { sn, at: r.at },
            "case" => Line::CaseClosed {
                rule: r.code.clone(),
                subject: sn,
                at: r.at,
            },
            _ => Line::FaultCleared {
                sn,
                meaning: meaning(r.family, &r.code, &r.place.lang),
                code: r.code.clone(),
                at: r.at,
            },
        };
        let d = entry(&mut due, &r.place);
        d.digest.add(&r.place, line);
        d.recoveries.push(r.alarm_id);
    }

    let mut done = Tick::default();
    for (user, d) in due {
        if d.digest.is_empty() && d.held.is_empty() {
            continue;
        }
        let events: Vec<LineEvent> = d
            .digest
            .plants
            .values()
            .flat_map(|p| {
                p.lines
                    .iter()
                    .filter(|l| !l.is_case())
                    .map(move |l| LineEvent::new(&p.place, l, &settings.public_url))
            })
            .collect();
        let webhooks: Vec<AlarmEvent<'_>> = events.iter().map(LineEvent::as_event).collect();
        let holding = d.place.wants_mail && d.quiet().holds(now);
        let hold: Vec<(PlantId, String)> = if holding {
            d.digest
                .plants
                .values()
                .flat_map(|p| p.lines.iter().map(move |l| (p.place.plant_id, l)))
                .filter_map(|(plant, l)| Some((plant, serde_json::to_string(l).ok()?)))
                .collect()
        } else {
            Vec::new()
        };
        let mail = (d.place.wants_mail && !holding).then(|| write_mail(&d, settings));
        let record = AlarmRecord {
            user,
            alarms: &d.alarms,
            recoveries: &d.recoveries,
            mail: mail.as_ref(),
            hold: &hold,
            release_up_to: d.release_up_to.filter(|_| mail.is_some()),
            webhooks: &webhooks,
        };
        match store.record_alarm_digest(&record, now).await {
            Ok(_) => {
                done.mails += usize::from(mail.is_some());
                done.held += usize::from(holding);
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

/// The recipient's digest: what quiet hours held first, then what is new.
fn write_mail(d: &Due, settings: &AlarmSettings) -> NewMail {
    let lang = Lang::parse(&d.place.lang).unwrap_or_default();
    let mut digest = d.held.clone();
    for p in d.digest.plants.values() {
        for line in &p.lines {
            digest.add(&p.place, line.clone());
        }
    }
    let (subject, body) = digest.write(
        lang,
        &d.place.user_name,
        &settings.public_url,
        settings.quiet_ms / 60_000,
    );
    NewMail {
        kind: "alarm".into(),
        recipient: d.place.email.clone(),
        subject,
        body,
        attachment: None,
    }
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
