//! Store contract for the upgrade queue of a gateway: an upgrade through a busy gateway is
//! recorded `queued` without a command, its place in the queue is read with it, the oldest
//! is sent only once nothing runs there, and two starts or two turns at once never send a
//! gateway two upgrades.

use domain::ids::{FirmwareId, InverterTypeId, UserId};
use domain::user::UserKind;
use store::{
    Store,
    audit::NewAudit,
    commands::NewCommand,
    firmware::{FirmwareFields, FirmwareFile, FirmwareTarget, NewFirmware},
    log_pages::Author,
    testing::{TestResult, each_backend, new_user},
    upgrades::{NewUpgrade, UpgradeState},
};

type Error = Box<dyn std::error::Error>;

/// A user and a gateway firmware to point upgrades at.
async fn setup(s: &Store) -> Result<(UserId, FirmwareId), Error> {
    let user = s
        .create_user(&new_user("ann@example.com", UserKind::Owner))
        .await?;
    let firmware = s
        .insert_firmware(
            &NewFirmware {
                target: FirmwareTarget::Gateway,
                fields: FirmwareFields {
                    type_id: InverterTypeId(0),
                    name: "GW 2",
                    version: "2.0",
                    change_log: "",
                    change_log_en: "",
                    product_id: None,
                    hardware_version: "",
                    upgrade_mode: "iap",
                    firmware_type: "",
                    enabled: true,
                },
                file: FirmwareFile {
                    file_name: "gw2.bin",
                    stored_name: "gw2",
                    size: 10,
                },
                created_by: None,
                now: 1,
            },
            None,
        )
        .await?;
    Ok((user, firmware))
}

fn command<'a>(cid: &'a str, gateway: &'a str, device: &'a str, now: i64) -> NewCommand<'a> {
    NewCommand {
        correlation_id: cid,
        gateway_sn: gateway,
        device_sn: device,
        kind: "upgrade",
        params: "{}",
        now,
        deadline: now + 900_000,
    }
}

fn upgrade<'a>(
    gateway: &'a str,
    device: &'a str,
    firmware: FirmwareId,
    user: UserId,
    now: i64,
) -> NewUpgrade<'a> {
    NewUpgrade {
        batch_id: "b1",
        target: "inverter",
        device_sn: device,
        gateway_sn: gateway,
        firmware_id: firmware,
        version: "2.0",
        from_version: "1.0",
        cancellable: false,
        user_id: user,
        now,
    }
}

fn entry<'a>(target: &'a str, result: &'static str) -> NewAudit<'a> {
    NewAudit {
        by: Author {
            user_id: None,
            account: "system",
            actor_company_id: None,
            plant_id: None,
            plant_owner_id: None,
            plant_company_id: None,
        },
        action: "inverter.upgrade",
        target,
        detail: "{}",
        result,
        command_id: None,
        now: 1,
    }
}

/// Starts an upgrade of `device` through `gateway`, as a use case does.
async fn start(
    s: &Store,
    (user, fw): (UserId, FirmwareId),
    gateway: &str,
    device: &str,
    now: i64,
) -> Result<store::upgrades::StartedUpgrade, Error> {
    let cid = format!("c-{device}-{now}");
    Ok(s.start_upgrade(
        &command(&cid, gateway, device, now),
        &upgrade(gateway, device, fw, user, now),
        &entry(device, "sent"),
        &entry(device, "queued"),
    )
    .await?)
}

/// The results of the audit entries, oldest first.
async fn audit_results(s: &Store) -> Result<Vec<String>, Error> {
    let filter = store::audit::AuditFilter {
        limit: 100,
        ..Default::default()
    };
    let (rows, _) = s
        .audit_visible(domain::policy::PlantVisibility::All, UserId(0), &filter)
        .await?;
    Ok(rows.into_iter().rev().map(|r| r.result).collect())
}

#[tokio::test]
async fn upgrades_through_a_busy_gateway_queue_in_order_and_go_one_at_a_time() -> TestResult {
    each_backend(|s| async move {
        let ids = setup(&s).await?;
        let first = start(&s, ids, "GW1", "INV1", 10).await?;
        let second = start(&s, ids, "GW1", "INV2", 11).await?;
        let third = start(&s, ids, "GW1", "INV3", 12).await?;
        let elsewhere = start(&s, ids, "GW2", "INV9", 13).await?;
        assert!(first.command_id.is_some() && elsewhere.command_id.is_some());
        assert_eq!((second.command_id, third.command_id), (None, None));
        let row = s.upgrade(second.upgrade_id).await?.ok_or("second")?;
        assert_eq!(row.state(), UpgradeState::Queued);
        assert_eq!(
            (row.queue_position, row.gateway_sn.as_str()),
            (Some(1), "GW1")
        );
        let row = s.upgrade(third.upgrade_id).await?.ok_or("third")?;
        assert_eq!(row.queue_position, Some(2));
        let running = s.upgrade(first.upgrade_id).await?.ok_or("first")?;
        assert_eq!(running.queue_position, None);
        assert_eq!(
            audit_results(&s).await?,
            ["sent", "queued", "queued", "sent"]
        );
        assert_eq!(
            s.batch_upgrades("b1")
                .await?
                .iter()
                .map(|u| u.queue_position)
                .collect::<Vec<_>>(),
            [None, Some(1), Some(2), None]
        );

        // Nothing is due while the first runs, and a turn out of order is refused.
        assert!(s.next_queued_upgrade("GW1").await?.is_none());
        assert!(s.gateways_with_upgrade_due().await?.is_empty());
        let cmd = command("c-early", "GW1", "INV2", 20);
        let early = s
            .begin_queued_upgrade(second.upgrade_id, "GW1", &cmd, &entry("INV2", "sent"), 20)
            .await?;
        assert_eq!(early, None);

        let first_cmd = first.command_id.ok_or("first command")?;
        s.fail_command(first_cmd, "broken", 30).await?;
        let cmd = s.command(first_cmd).await?.ok_or("command")?;
        assert!(cmd.status().is_final());
        let failed = store::upgrades::UpgradeUpdate {
            state: UpgradeState::Failed,
            progress: 10,
            message: "broken".into(),
            cancellable: false,
        };
        s.apply_upgrade_update(first_cmd, &failed, 30).await?;
        assert_eq!(s.gateways_with_upgrade_due().await?, ["GW1"]);
        let next = s.next_queued_upgrade("GW1").await?.ok_or("next")?;
        assert_eq!(next.id, second.upgrade_id);
        // The third may not jump the queue.
        let cmd = command("c-jump", "GW1", "INV3", 31);
        assert_eq!(
            s.begin_queued_upgrade(third.upgrade_id, "GW1", &cmd, &entry("INV3", "sent"), 31)
                .await?,
            None
        );
        let cmd = command("c-turn", "GW1", "INV2", 32);
        let sent = s
            .begin_queued_upgrade(second.upgrade_id, "GW1", &cmd, &entry("INV2", "sent"), 32)
            .await?
            .ok_or("sent")?;
        let row = s.upgrade(second.upgrade_id).await?.ok_or("second")?;
        assert_eq!(row.state(), UpgradeState::Sending);
        assert_eq!(
            (row.command_id, row.started_at, row.queue_position),
            (Some(sent), 32, None)
        );
        assert_eq!(
            s.upgrade(third.upgrade_id)
                .await?
                .ok_or("third")?
                .queue_position,
            Some(1)
        );
        assert!(s.gateways_with_upgrade_due().await?.is_empty());
        // A new start still queues behind the rest.
        let fourth = start(&s, ids, "GW1", "INV4", 40).await?;
        assert_eq!(
            s.upgrade(fourth.upgrade_id)
                .await?
                .ok_or("4th")?
                .queue_position,
            Some(2)
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_queued_upgrade_ends_cancelled_or_failed_only_while_it_waits() -> TestResult {
    each_backend(|s| async move {
        let ids = setup(&s).await?;
        let first = start(&s, ids, "GW1", "INV1", 10).await?;
        let second = start(&s, ids, "GW1", "INV2", 11).await?;
        let third = start(&s, ids, "GW1", "INV3", 12).await?;
        let cancel = entry("INV2", "succeeded");
        assert!(
            s.end_queued_upgrade(
                second.upgrade_id,
                UpgradeState::Cancelled,
                "",
                Some(&cancel),
                20
            )
            .await?
        );
        let row = s.upgrade(second.upgrade_id).await?.ok_or("second")?;
        assert_eq!(
            (row.state(), row.finished_at, row.queue_position),
            (UpgradeState::Cancelled, Some(20), None)
        );
        assert_eq!(
            s.upgrade(third.upgrade_id)
                .await?
                .ok_or("third")?
                .queue_position,
            Some(1),
            "the rest move up"
        );
        // Neither a running nor an ended upgrade leaves a queue.
        for id in [first.upgrade_id, second.upgrade_id] {
            assert!(
                !s.end_queued_upgrade(id, UpgradeState::Failed, "gone", None, 30)
                    .await?
            );
        }
        assert!(
            s.end_queued_upgrade(third.upgrade_id, UpgradeState::Failed, "gone", None, 30)
                .await?
        );
        let row = s.upgrade(third.upgrade_id).await?.ok_or("third")?;
        assert_eq!(
            (row.state(), row.message.as_str()),
            (UpgradeState::Failed, "gone")
        );
        assert_eq!(
            audit_results(&s).await?,
            ["sent", "queued", "queued", "succeeded"]
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn starts_and_turns_at_once_send_a_gateway_one_upgrade() -> TestResult {
    each_backend(|s| async move {
        let ids = setup(&s).await?;
        let mut starts = tokio::task::JoinSet::new();
        for i in 0..8 {
            let s = s.clone();
            starts.spawn(async move {
                start(&s, ids, "GW1", &format!("INV{i}"), 10)
                    .await
                    .map_err(|e| e.to_string())
            });
        }
        let started = starts.join_all().await;
        let sent = started
            .iter()
            .filter(|r| r.as_ref().is_ok_and(|u| u.command_id.is_some()))
            .count();
        assert_eq!(sent, 1, "{started:?}");
        let mut positions: Vec<i64> = s
            .batch_upgrades("b1")
            .await?
            .iter()
            .filter_map(|u| u.queue_position)
            .collect();
        positions.sort_unstable();
        assert_eq!(positions, (1..=7).collect::<Vec<_>>());

        // The running one ends; several replicas try every queued one at once.
        let running = s
            .batch_upgrades("b1")
            .await?
            .into_iter()
            .find(|u| u.command_id.is_some())
            .ok_or("running")?;
        let cmd_id = running.command_id.ok_or("command")?;
        let done = store::upgrades::UpgradeUpdate {
            state: UpgradeState::Successful,
            progress: 100,
            message: String::new(),
            cancellable: false,
        };
        s.apply_upgrade_update(cmd_id, &done, 20).await?;
        let queued = s.batch_upgrades("b1").await?;
        let mut turns = tokio::task::JoinSet::new();
        for u in queued.iter().filter(|u| u.state() == UpgradeState::Queued) {
            for k in 0..2 {
                let s = s.clone();
                let (id, device) = (u.id, u.device_sn.clone());
                turns.spawn(async move {
                    let cid = format!("turn-{}-{k}", id.0);
                    let cmd = command(&cid, "GW1", &device, 21);
                    s.begin_queued_upgrade(id, "GW1", &cmd, &entry(&device, "sent"), 21)
                        .await
                        .map_err(|e| e.to_string())
                });
            }
        }
        let results = turns.join_all().await;
        let began = results.iter().filter(|r| matches!(r, Ok(Some(_)))).count();
        assert_eq!(began, 1, "{results:?}");
        let running: Vec<_> = s
            .batch_upgrades("b1")
            .await?
            .into_iter()
            .filter(|u| u.state().is_running())
            .collect();
        assert_eq!(running.len(), 1);
        let oldest_queued = queued
            .iter()
            .filter(|u| u.state() == UpgradeState::Queued)
            .map(|u| u.id)
            .min();
        assert_eq!(
            Some(running[0].id),
            oldest_queued,
            "first come, first served"
        );
        Ok(())
    })
    .await
}
