//! The use cases on every backend (SQLite, and PostgreSQL when `PORTAL_TEST_DATABASE_URL` is
//! set): each writes all of its rows or, when the database fails half way (a trigger injects
//! the failure), none of them.

mod common;
mod companies;
mod devices;
mod energy_hub;
mod firmware;
mod gateway_registry;
mod gateways;
mod inbox;
mod inverter_types;
mod plant_edit;
mod plant_offers;
mod plants;
mod predictions;
mod products;
mod protocols;
mod relations;
mod sessions;
mod setting_profiles;
mod sign_up;
mod upgrade_queue;
mod upgrades;
mod users;
mod versions;
mod webhooks;
