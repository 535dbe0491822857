//! Types and rules shared by every layer: the error catalogue, languages, typed ids,
//! validation of user input, the permission catalogue and the access policy.

pub mod account;
pub mod alarm_rules;
pub mod audit_action;
pub mod battery_health;
pub mod clear_sky;
pub mod codes;
pub mod combiner;
pub mod command;
pub mod common_password;
pub mod company;
pub mod currency;
pub mod customer;
pub mod device;
pub mod device_family;
pub mod energy_hub;
pub mod error;
pub mod firmware;
pub mod gateway_action;
pub mod gateway_key;
pub mod ids;
pub mod income;
pub mod inverter_type;
pub mod kpi;
pub mod lang;
pub mod login_guard;
pub mod manual;
pub mod permissions;
pub mod plant;
pub mod policy;
pub mod product;
pub mod push;
pub mod settings;
pub mod sun;
pub mod time;
pub mod user;
pub mod webhook;

pub use device_family::DeviceFamily;
pub use error::{Code, DomainError};
pub use lang::Lang;
