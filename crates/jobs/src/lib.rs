//! The portal's background jobs, each a module with its schedule and its own way of sharing
//! the work between replicas (several replicas may share one database):
//!
//! | job | schedule | between replicas |
//! |---|---|---|
//! | [`mail_queue`] | every `mail` (PORTAL_MAIL_INTERVAL_SECS) | each e-mail claimed for 5 min |
//! | [`alarms`] | every `alarms` (PORTAL_ALARM_INTERVAL_SECS) | one record per episode (unique) |
//! | [`webhooks`] | every 10 s; log pruned hourly | lease `store::leases::WEBHOOKS` |
//! | [`push`] | every 10 s; outbox pruned hourly | lease `store::leases::PUSH` |
//! | [`alarm_engine`] | every [`alarm_engine::EVERY`] (30 s) | lease `store::leases::ALARM_ENGINE`; one live case per key (unique) |
//! | [`monthly_reports`] | hourly | one report per subscription and month (unique) |
//! | [`dispatch`] | every `dr_tick` and at event boundaries | lease `store::leases::DISPATCH` |
//! | [`vtn_sync`] | every 5 s, each VTN connection every `pollSeconds`; at once on a webhook | lease `store::leases::VTN_SYNC`; each sync claimed |
//! | [`battery_health`] | every 15 min | lease `store::leases::BATTERY_HEALTH` |
//! | [`housekeeping`] | hourly (closed alarm cases in batches of [`housekeeping::CASE_BATCH`]) | none needed: deleting twice deletes nothing more |
//! | [`upgrade_queue`] | when an upgrade ends, and every 5 s | none needed: whose turn it is is decided in one transaction per gateway, under its lock |
//! | device statuses (`devices::ingest::status`) | the fastest gateway's cycle | none: idempotent |
//! | history upkeep (`devices::history`) | its `every` | none: idempotent |
//!
//! Layers: `portal` starts them with [`start`]; they call `service` (use cases, the mailer),
//! `devices` and `store`, never the HTTP layer (`api`).

pub mod alarm_engine;
pub mod alarms;
pub mod battery_health;
pub mod dispatch;
pub mod housekeeping;
pub mod mail_queue;
pub mod monthly_reports;
pub mod push;
pub mod upgrade_queue;
pub mod vtn_sync;
pub mod webhooks;

use std::{sync::Arc, time::Duration};

use service::{
    energy_hub::vtn::{Nudges, Ven},
    mailer::Mailer,
};
use store::Store;

/// What the jobs work with.
#[derive(Clone)]
pub struct Context {
    pub store: Store,
    pub mailer: Arc<Mailer>,
    /// Sends commands to devices through their gateways (the dispatch); `None` where the
    /// device link is not running (commands then fail as "connection failed").
    pub commands: Option<devices::link::Dispatcher>,
    /// What the VTN sync needs of this process (public URL, the credential key's directory).
    pub ven: Ven,
    /// The VTN connections a webhook's notification asked to sync now (the API hands them in).
    pub vtn_nudges: Nudges,
    /// The plant figures' settings (the CO2 factor) of the monthly report e-mails.
    pub figures: service::figures::FiguresConfig,
}

/// When the configurable jobs run.
#[derive(Debug, Clone)]
pub struct Schedule {
    pub mail: Duration,
    pub alarms: Duration,
    pub alarm_settings: alarms::AlarmSettings,
    /// How webhook deliveries are sent (`PORTAL_WEBHOOK_ALLOW_PRIVATE`).
    pub webhooks: service::webhooks::DeliverySettings,
    /// How Web Push messages are sent (`PORTAL_WEBHOOK_ALLOW_PRIVATE`, the VAPID subject).
    pub push: service::push::PushSettings,
    pub dr_tick: Duration,
    pub history: devices::history::HistoryOptions,
    /// What housekeeping keeps (closed alarm cases).
    pub keep: housekeeping::Keep,
}

/// Starts every job on the current runtime; they run until the process ends.
pub fn start(ctx: Context, schedule: Schedule) {
    // Where the credential key that seals stored secrets is read from (webhook secrets).
    service::sealing::use_data_dir(&ctx.ven.data_dir);
    let store = &ctx.store;
    tokio::spawn(housekeeping::run(store.clone(), schedule.keep));
    tokio::spawn(battery_health::run(store.clone()));
    tokio::spawn(devices::ingest::status::run_refresher(store.clone()));
    tokio::spawn(monthly_reports::run(store.clone(), ctx.figures));
    tokio::spawn(mail_queue::run(
        store.clone(),
        ctx.mailer.clone(),
        schedule.mail,
    ));
    tokio::spawn(webhooks::run(
        store.clone(),
        schedule.webhooks,
        schedule.alarm_settings.public_url.clone(),
        webhooks::EVERY,
    ));
    tokio::spawn(push::run(store.clone(), schedule.push.clone(), push::EVERY));
    tokio::spawn(alarms::run(
        store.clone(),
        schedule.alarm_settings,
        schedule.alarms,
    ));
    tokio::spawn(alarm_engine::run(store.clone(), alarm_engine::EVERY));
    tokio::spawn(devices::history::run(store.clone(), schedule.history));
    tokio::spawn(vtn_sync::run(
        store.clone(),
        ctx.ven.clone(),
        ctx.vtn_nudges.clone(),
        vtn_sync::TICK,
    ));
    tokio::spawn(upgrade_queue::run(ctx.clone(), upgrade_queue::EVERY));
    tokio::spawn(dispatch::run(ctx, schedule.dr_tick));
}
