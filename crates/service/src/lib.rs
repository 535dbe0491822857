//! The portal's use cases, one function each: given the acting user (`domain::policy::Actor`),
//! a use case applies the rules of `domain` (who may do what, which states allow what) and
//! writes everything it changes through one store function, inside one transaction, so a
//! failure half way leaves nothing half made (no plant without its tariff, no gateway bound
//! twice).
//!
//! Layers, each calling only the ones below it:
//!
//! ```text
//! portal (binary: config, serve, demo)  ->  api (HTTP: extract, call a use case, answer)
//!   ->  service (use cases, this crate)  ->  devices (device link) / store (SQL)  ->  domain
//! ```
//!
//! HTTP types never reach this crate: the API translates a request into a use case's input,
//! and the demo and the benchmark call the same functions directly.

pub mod actors;
pub mod agency;
pub mod agent_filter;
pub mod alarm_engine;
pub mod audit;
pub mod battery_health;
pub mod codes;
pub mod commands;
pub mod companies;
pub mod consent;
pub mod curves;
pub mod customer_types;
pub mod customers;
pub mod debug_log;
pub mod devices;
pub mod energy_hub;
mod error;
pub mod event_catalogue;
pub mod figures;
pub mod files;
pub mod firmware;
pub mod fleet;
pub mod gateways;
pub mod inbox;
pub mod local_time;
pub mod login_guard;
pub mod mailer;
pub mod manuals;
pub mod owners;
pub mod passwords;
pub mod plants;
pub mod predictions;
pub mod products;
pub mod protocols;
pub mod push;
pub mod quiet_hours;
pub mod readings;
pub mod reports;
pub mod roles;
pub mod sealing;
pub mod secrets;
pub mod sessions;
pub mod setting_offers;
pub mod settings;
pub mod sign_up;
pub mod staff;
pub mod tokens;
pub mod upgrades;
pub mod users;
pub mod versions;
pub mod webhooks;
pub mod xlsx;

pub use error::{Result, ServiceError};
