//! The OpenAPI document, generated from the handlers' annotations. A test compares it with the
//! committed `docs/openapi.json` so that every API change shows up in review.

use utoipa::{
    Modify, OpenApi,
    openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
};

use crate::debug;
use crate::inverters;
use crate::monitor;
use crate::{
    accounts, auth, company, dict, gateways, permissions, plants, protocols, system, users,
    versions,
};
use crate::{audit, commands, settings};
use crate::{batteries, meters, weather_stations};
use crate::{events, messages};
use crate::{firmware, upgrades};

#[derive(OpenApi)]
#[openapi(
    info(title = "Solar portal API", description = "Envelope {code, msg, data, success}; see docs/api.md"),
    modifiers(&Bearer),
    paths(
        auth::token, auth::token_encrypted, auth::public_key, auth::logout,
        accounts::get_code, accounts::check_code, accounts::check_account, accounts::signup,
        accounts::reset_password,
        users::me, users::update_profile, users::change_password, users::upload_avatar,
        users::personalized, users::set_personalized, users::notify, users::notify_code,
        users::set_notify,
        permissions::mine, permissions::company, permissions::customer,
        company::info, company::staff, company::staff_member, company::roles, company::check_role,
        company::create_role, company::role, company::update_role, company::delete_role,
        system::healthz, system::openapi_json, system::docs, system::ip,
        system::config,
        dict::currencies, dict::timezones, dict::plant_types, dict::protocols,
        plants::edit::create, plants::edit::detail, plants::edit::update, plants::edit::update_info,
        plants::edit::update_contacts, plants::edit::update_income,
        plants::list::list, plants::list::map, plants::list::filter, plants::list::overview_count,
        plants::list::user_count, plants::picture::upload,
        plants::sharing::share, plants::sharing::cancel_share, plants::sharing::share_users,
        plants::sharing::transfer, plants::sharing::delete,
        plants::offers::list, plants::offers::accept, plants::offers::decline,
        plants::offers::cancel,
        versions::timeline, versions::latest, versions::check, versions::list, versions::one,
        versions::save, versions::delete,
        protocols::list, protocols::one, protocols::check, protocols::save,
        gateways::registry::create, gateways::registry::check, gateways::registry::check_path,
        gateways::registry::delete, gateways::claim::check_one, gateways::claim::import_one,
        gateways::claim::bind_to_plant, gateways::batch::check, gateways::batch::import,
        gateways::list::list, gateways::list::count, gateways::list::detail, gateways::list::unbind,
        gateways::key::rotate,
        batteries::list::list, batteries::list::count, batteries::detail::info,
        batteries::detail::realtime, batteries::detail::day, batteries::stack::slaves,
        batteries::stack::delete,
        meters::list, meters::count, meters::realtime, meters::day, meters::month, meters::year,
        meters::total, meters::alias, meters::delete, meters::master,
        weather_stations::list, weather_stations::count, weather_stations::realtime,
        weather_stations::day, weather_stations::alias, weather_stations::delete,
        weather_stations::plant_realtime,
        gateways::download::download,
        gateways::actions::restart, gateways::actions::batch_restart,
        gateways::actions::batch_check, gateways::actions::replace,
        gateways::actions::update_protocol, gateways::actions::settings_switch,
        gateways::actions::debug, gateways::actions::debug_reply,
        debug::inverter_debug, debug::log::reply, debug::log::list,
        inverters::list::list, inverters::list::plant_list, inverters::list::count,
        inverters::list::detail, inverters::list::alias, inverters::list::delete,
        inverters::realtime::input, inverters::realtime::output, inverters::realtime::pv_iv_realtime,
        inverters::realtime::port, inverters::realtime::gen_realtime,
        inverters::series::curves::day, inverters::series::curves::input_day,
        inverters::series::curves::output_day, inverters::series::energy::month,
        inverters::series::energy::year, inverters::series::energy::total,
        inverters::series::port::port_day, inverters::series::port::port_energy,
        inverters::series::generator::gen_day, inverters::series::generator::gen_by_date,
        events::list::events, events::list::detail, events::list::device_events,
        events::list::device_realtime, events::list::battery_events, events::list::one_hour,
        events::counts::plant_events, events::counts::plant_count, events::counts::inverter_count,
        events::counts::overview_count, events::counts::user_count,
        events::workdata::inverter_events, events::workdata::battery_events,
        events::workdata::dynamic, events::workdata::inverter_events_download,
        events::workdata::battery_events_download, events::workdata::dynamic_download,
        messages::count, messages::list, messages::read_one, messages::read_all,
        monitor::flow::plant_flow, monitor::flow::inverter_flow, monitor::energy::realtime,
        monitor::energy::power, monitor::energy::energy, monitor::energy::generation_use,
        monitor::weather::check_device, monitor::weather::station_info,
        monitor::weather::station_products, monitor::weather::weather,
        monitor::download::generation, monitor::devices::plant_devices,
        firmware::save, firmware::list,
        upgrades::inverter::upgrade, upgrades::inverter::batch, upgrades::inverter::progress,
        upgrades::inverter::cancel, upgrades::gateway::upgrade, upgrades::gateway::batch,
        upgrades::gateway::progress, upgrades::batch_progress,
        audit::list, commands::status, commands::boot, commands::shutdown,
        settings::values::support, settings::values::read, settings::values::set,
        settings::profiles::params, settings::profiles::list, settings::profiles::save,
    )
)]
struct ApiDoc;

struct Bearer;

impl Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}

/// The document as pretty JSON (stable key order, so it can be committed and compared).
pub fn document() -> Result<String, serde_json::Error> {
    ApiDoc::openapi().to_pretty_json()
}
