//! The `api` crate's integration tests, one binary: a module per operation, the shared
//! fixtures beside them.
#![allow(
    clippy::disallowed_methods,
    reason = "tests seed and inspect rows through the store; the rule is for the HTTP handlers"
)]

mod abuse;
mod accounts;
mod agents;
mod alarm_engine;
mod alarm_mail;
mod audit;
mod auth;
mod bad_input;
mod batteries;
mod client_fields;
mod client_settings;
mod combiners;
mod comm_log;
mod common;
mod company_admin;
mod consent;
mod customer_types;
mod customers;
mod debug;
mod dr_dispatch;
mod energy_hub;
mod events;
mod fake_gateway;
mod figures;
mod figures_export;
mod files_database;
mod firmware_catalogue;
mod fleet;
mod gateway_actions;
mod gateway_key;
mod gateway_reads;
mod gateways;
mod headers;
mod hostile_sheets;
mod inverters;
mod limits;
mod manuals;
mod meters_weather;
mod metrics;
mod monitor_live;
mod monitor_plant;
mod oadr_vtn;
mod oadr_webhooks;
mod oadr_wire;
mod passwords;
mod permissions;
mod plant_offers;
mod plants;
mod plants_by_customer;
mod products;
mod protocol_preview;
mod protocols;
mod push;
mod realtime_hot;
mod report_peaks;
mod reports;
mod sessions;
mod settings;
mod settings_family;
mod settings_sim;
mod sn_oracle;
mod staff;
mod system;
mod system_gateways;
mod tenancy;
mod throttle;
mod upgrades;
mod users;
mod versions;
mod web;
mod webhooks;
