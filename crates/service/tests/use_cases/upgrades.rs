//! Starting a firmware upgrade: the upgrade, its command and the inverter's Upgrading status
//! together or not at all, and the refusals before anything is written.

use domain::DeviceFamily;
use domain::ids::FirmwareId;
use domain::ids::HubEventId;
use std::time::Duration;

use crate::common::{Error, actor, audit_actions, failed_in_store, plant};
use devices::link::Dispatcher;
use domain::{
    Code,
    command::CommandKind,
    ids::UserId,
    plant::Status,
    policy::{Actor, PlantVisibility},
    user::BuiltinRole,
};
use rumqttc::{AsyncClient, EventLoop, MqttOptions};
use serde_json::json;
use service::{
    ServiceError,
    commands::{self, Order, Sender},
    energy_hub::dispatch,
    gateways,
    upgrades::{self, Device, Start},
};
use store::{
    Store,
    devices::DeviceListRow,
    firmware::{FirmwareFields, FirmwareFile, FirmwareTarget, NewFirmware},
    telemetry::GatewayStatusUpdate,
    testing::{TestResult, Write, each_backend},
};

pub(crate) const GATEWAY: &str = "GW-UPG-01";
const KEY: &str = "KEY12345";
pub(crate) const INVERTER: &str = "INV-UPG-01";
pub(crate) const TYPE: i64 = 94;

/// Ann's online gateway with a running inverter of type 94 behind it, a firmware enabled for
/// that type, and a dispatcher whose MQTT client queues what it publishes (no broker: the
/// event loop is kept, never polled).
pub(crate) struct Bench {
    pub ann: Actor,
    pub firmware: FirmwareId,
    pub dispatcher: Dispatcher,
    pub _queue: EventLoop,
}

pub(crate) async fn bench(s: &Store) -> Result<Bench, Error> {
    let ann = actor(s, "ann@example.com", BuiltinRole::PlantOwner).await?;
    let home = plant(s, &ann, "Ann home").await?;
    let gw = s.create_gateway(GATEWAY, KEY, "deye-hybrid-3ph", 1).await?;
    let to_plant = gateways::target_plant(s, &ann, home).await?;
    gateways::claim(s, &ann, GATEWAY, KEY, Some(&to_plant), 2).await?;
    s.upsert_device(
        INVERTER,
        gw,
        DeviceFamily::Inverter,
        TYPE,
        "",
        "SIM-94",
        None,
        3,
    )
    .await?;
    let online = GatewayStatusUpdate {
        online: true,
        ..GatewayStatusUpdate::default()
    };
    s.update_gateway_status(gw, &online, 4).await?;
    let title = s.insert_inverter_type(None, "Hybrid", &[], 5, None).await?;
    let label = s
        .insert_inverter_type(Some(title), "Hybrid 3ph", &[TYPE], 5, None)
        .await?;
    let firmware = s
        .insert_firmware(
            &NewFirmware {
                target: FirmwareTarget::Inverter,
                fields: FirmwareFields {
                    type_id: label,
                    name: "V2",
                    version: "V2_0",
                    change_log: "",
                    change_log_en: "",
                    product_id: None,
                    hardware_version: "",
                    upgrade_mode: "iap",
                    firmware_type: "",
                    enabled: true,
                },
                file: FirmwareFile {
                    file_name: "v2.bin",
                    stored_name: "v2",
                    size: 200_000,
                },
                created_by: None,
                now: 5,
            },
            None,
        )
        .await?;
    let (client, queue) = AsyncClient::new(MqttOptions::new("test", "127.0.0.1", 1), 16);
    Ok(Bench {
        ann,
        firmware,
        dispatcher: Dispatcher::new(s.clone(), client),
        _queue: queue,
    })
}

/// The inverter as the screens list it, reporting `status`.
pub(crate) async fn inverter(s: &Store, status: Status) -> Result<DeviceListRow, Error> {
    let mut row = s
        .device_visible(PlantVisibility::All, UserId(0), INVERTER)
        .await?
        .ok_or("inverter")?;
    row.status = status as i64;
    Ok(row)
}

pub(crate) fn start<'a>(
    device: &'a DeviceListRow,
    firm_id: FirmwareId,
    user: &'a Actor,
) -> Start<'a> {
    Start {
        batch_id: "b1",
        device: Device::Inverter(device),
        firm_id: Some(firm_id),
        force: false,
        actor: user,
        now: 10,
    }
}

pub(crate) fn refused_with<T: std::fmt::Debug>(r: &service::Result<T>, code: Code) -> bool {
    matches!(r, Err(ServiceError::Refused(e)) if e.code == code)
}

#[tokio::test]
async fn an_upgrade_records_its_command_and_shows_the_inverter_upgrading() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let inv = inverter(&s, Status::Normal).await?;
        let started =
            upgrades::start(&s, Some(&b.dispatcher), start(&inv, b.firmware, &b.ann)).await?;
        assert_eq!(started.upgrade.state.as_str(), "sending");
        assert_eq!(started.upgrade.command_id, started.command_id);
        assert_eq!(started.params["version"], "V2_0");
        let cmd = s
            .command(started.command_id.ok_or("sent")?)
            .await?
            .ok_or("command")?;
        assert_eq!(
            (cmd.kind.as_str(), cmd.device_sn.as_str()),
            ("upgrade", INVERTER)
        );
        let device = s.device_by_sn(INVERTER).await?.ok_or("device")?;
        assert_eq!(device.status, Status::Upgrading as i64);
        // A second start while the first runs is refused and writes nothing.
        let again = upgrades::start(&s, Some(&b.dispatcher), start(&inv, b.firmware, &b.ann)).await;
        assert!(refused_with(&again, Code::DeviceUpgrading), "{again:?}");
        assert_eq!(
            s.latest_upgrade(INVERTER).await?.map(|u| u.id),
            Some(started.upgrade.id)
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_upgrade_that_fails_half_way_leaves_no_command_behind() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let inv = inverter(&s, Status::Normal).await?;
        s.fail_writes_for_tests("upgrades", Write::Insert).await?;
        let failed =
            upgrades::start(&s, Some(&b.dispatcher), start(&inv, b.firmware, &b.ann)).await;
        assert!(failed_in_store(&failed), "{failed:?}");
        assert!(!s.has_open_command(INVERTER, "upgrade", 10).await?);
        assert!(s.latest_upgrade(INVERTER).await?.is_none());
        let device = s.device_by_sn(INVERTER).await?.ok_or("device")?;
        assert_ne!(device.status, Status::Upgrading as i64);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn refusals_come_before_anything_is_written() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let running = inverter(&s, Status::Normal).await?;
        let offline = inverter(&s, Status::Offline).await?;
        let go = |device, firm_id, dispatcher| {
            let s = s.clone();
            let ann = b.ann.clone();
            async move { upgrades::start(&s, dispatcher, start(device, firm_id, &ann)).await }
        };
        let other_firmware = go(&running, FirmwareId(b.firmware.0 + 1), Some(&b.dispatcher)).await;
        assert!(refused_with(&other_firmware, Code::InvalidParameter));
        let asleep = go(&offline, b.firmware, Some(&b.dispatcher)).await;
        assert!(refused_with(&asleep, Code::DeviceOffline), "{asleep:?}");
        let no_link = go(&running, b.firmware, None).await;
        assert!(
            refused_with(&no_link, Code::ConnectionFailed),
            "{no_link:?}"
        );
        assert!(s.latest_upgrade(INVERTER).await?.is_none());
        assert!(!s.has_open_command(INVERTER, "upgrade", 10).await?);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_upgrade_whose_command_cannot_be_published_ends_failed_with_it() -> TestResult {
    each_backend(|s| async move {
        let Bench {
            ann,
            firmware,
            dispatcher,
            _queue,
        } = bench(&s).await?;
        // Without its event loop the client can queue nothing: every publish fails.
        drop(_queue);
        let inv = inverter(&s, Status::Normal).await?;
        let failed = upgrades::start(&s, Some(&dispatcher), start(&inv, firmware, &ann)).await;
        assert!(refused_with(&failed, Code::CommandFailed), "{failed:?}");
        let upgrade = s.latest_upgrade(INVERTER).await?.ok_or("upgrade")?;
        assert_eq!(upgrade.state.as_str(), "failed");
        assert!(!s.has_open_command(INVERTER, "upgrade", 10).await?);
        let device = s.device_by_sn(INVERTER).await?.ok_or("device")?;
        assert_ne!(device.status, Status::Upgrading as i64);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_upgrade_whose_audit_entry_fails_leaves_nothing_behind() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let inv = inverter(&s, Status::Normal).await?;
        s.fail_writes_for_tests("audit_log", Write::Insert).await?;
        let failed =
            upgrades::start(&s, Some(&b.dispatcher), start(&inv, b.firmware, &b.ann)).await;
        assert!(failed_in_store(&failed), "{failed:?}");
        assert!(s.latest_upgrade(INVERTER).await?.is_none());
        assert!(!s.has_open_command(INVERTER, "upgrade", 10).await?);
        let device = s.device_by_sn(INVERTER).await?.ok_or("device")?;
        assert_ne!(device.status, Status::Upgrading as i64);
        Ok(())
    })
    .await
}

fn power_on() -> Order<'static> {
    Order {
        action: "inverter.boot",
        kind: CommandKind::PowerOn,
        params: json!({}),
        timeout: Duration::from_secs(30),
        note: json!({"why": "test"}),
    }
}

#[tokio::test]
async fn a_command_is_recorded_with_its_audit_entry() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let running = inverter(&s, Status::Normal).await?;
        let id = commands::send_order_to_device(
            &s,
            Some(&b.dispatcher),
            Sender::Actor(&b.ann),
            (&running).into(),
            &power_on(),
            10,
        )
        .await?;
        assert!(s.has_open_command(INVERTER, "power_on", 10).await?);
        assert_eq!(audit_actions(&s).await?, ["inverter.boot"]);
        let filter = store::audit::AuditFilter {
            limit: 1,
            ..Default::default()
        };
        let (rows, _) = s
            .audit_visible(PlantVisibility::All, UserId(0), &filter)
            .await?;
        let entry = rows.first().ok_or("entry")?;
        assert_eq!(
            (entry.command_id, entry.result.as_str()),
            (Some(id), "sent")
        );
        assert!(entry.plant_id.is_some(), "filed under the inverter's plant");
        let detail: serde_json::Value = serde_json::from_str(&entry.detail)?;
        assert_eq!(
            (detail["commandId"].as_i64(), detail["why"].as_str()),
            (Some(id.0), Some("test"))
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_command_whose_audit_entry_fails_is_not_sent() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let running = inverter(&s, Status::Normal).await?;
        s.fail_writes_for_tests("audit_log", Write::Insert).await?;
        let failed = commands::send_order_to_device(
            &s,
            Some(&b.dispatcher),
            Sender::Actor(&b.ann),
            (&running).into(),
            &power_on(),
            10,
        )
        .await;
        assert!(failed_in_store(&failed), "{failed:?}");
        assert!(!s.has_open_command(INVERTER, "power_on", 10).await?);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_dispatch_is_sent_as_the_system_under_the_inverters_plant() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let mut dev = s.dispatch_device(INVERTER).await?.ok_or("inverter")?;
        dev.status = Status::Normal as i64;
        assert!(dev.plant_id.is_some());
        let params = serde_json::Map::from_iter([("sysWorkMode".to_string(), json!("0"))]);
        let link = Some(&b.dispatcher);
        let (apply, restore) = ("energyhub.dispatch", "energyhub.restore");
        let id = dispatch::set_params(
            &s,
            link,
            &dev,
            apply,
            Some(HubEventId(7)),
            params.clone(),
            10,
        )
        .await?;
        dev.status = Status::Offline as i64;
        let offline =
            dispatch::set_params(&s, link, &dev, restore, Some(HubEventId(7)), params, 11).await;
        assert!(refused_with(&offline, Code::DeviceOffline), "{offline:?}");
        assert!(s.has_open_command(INVERTER, "set_params", 10).await?);
        let filter = store::audit::AuditFilter {
            limit: 2,
            ..Default::default()
        };
        let (rows, _) = s
            .audit_visible(PlantVisibility::All, UserId(0), &filter)
            .await?;
        let [refused, sent] = rows.as_slice() else {
            return Err(format!("{rows:?}").into());
        };
        for (entry, action, result) in [(sent, apply, "sent"), (refused, restore, "refused")] {
            assert_eq!(
                (entry.action.as_str(), entry.result.as_str()),
                (action, result)
            );
            assert_eq!((entry.account.as_str(), entry.user_id), ("system", None));
            assert_eq!(
                entry.plant_id, dev.plant_id,
                "filed under the inverter's plant"
            );
            let detail: serde_json::Value = serde_json::from_str(&entry.detail)?;
            assert_eq!(detail["event"], 7);
        }
        assert_eq!(sent.command_id, Some(id));
        Ok(())
    })
    .await
}
