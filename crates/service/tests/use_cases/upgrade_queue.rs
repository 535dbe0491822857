//! The upgrade queue of a gateway: an upgrade behind a busy gateway waits without a command,
//! the next one is sent when the running one ends, each step's writes go together with its
//! audit entry or not at all, and a queued upgrade whose gateway or device went away fails
//! with the reason when its turn comes.

use domain::{
    DeviceFamily,
    ids::{DeviceId, UserId},
    plant::Status,
    policy::PlantVisibility,
};
use service::upgrades::{self, Started};
use store::{
    Store,
    devices::DeviceListRow,
    testing::{TestResult, each_backend},
};

use crate::common::{Error, fail_audit, failed_in_store};
use crate::upgrades::{GATEWAY, TYPE, bench, inverter, refused_with, start};

/// A second inverter behind the bench's gateway.
const SECOND: &str = "INV-UPG-02";

/// The second inverter, registered and reporting Normal, as the screens list it.
async fn second(s: &Store) -> Result<DeviceListRow, Error> {
    let gw = s.gateway_by_sn(GATEWAY).await?.ok_or("gateway")?;
    let id: DeviceId = s
        .upsert_device(
            SECOND,
            gw.id,
            DeviceFamily::Inverter,
            TYPE,
            "",
            "SIM-94",
            None,
            6,
        )
        .await?;
    s.apply_statuses(&[(id, Status::Normal as i64, true)], &[])
        .await?;
    Ok(s.device_visible(PlantVisibility::All, UserId(0), SECOND)
        .await?
        .ok_or("second")?)
}

/// Ends the running upgrade `first` as a device that failed it would.
async fn end(s: &Store, first: &Started) -> TestResult {
    let id = first.command_id.ok_or("first was sent")?;
    s.fail_command(id, "checksum mismatch", 20).await?;
    let cmd = s.command(id).await?.ok_or("command")?;
    devices::link::sync_upgrade(s, &cmd).await?;
    Ok(())
}

/// The results of the audit entries about `sn`, oldest first.
async fn results(s: &Store, sn: &str) -> Result<Vec<(String, String, String)>, Error> {
    let filter = store::audit::AuditFilter {
        limit: 100,
        ..Default::default()
    };
    let (rows, _) = s
        .audit_visible(PlantVisibility::All, UserId(0), &filter)
        .await?;
    Ok(rows
        .into_iter()
        .rev()
        .filter(|r| r.target == sn)
        .map(|r| (r.action, r.result, r.account))
        .collect())
}

#[tokio::test]
async fn an_upgrade_behind_a_busy_gateway_waits_and_goes_when_the_running_one_ends() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let (one, two) = (inverter(&s, Status::Normal).await?, second(&s).await?);
        let link = Some(&b.dispatcher);
        let first = upgrades::start(&s, link, start(&one, b.firmware, &b.ann)).await?;
        assert_eq!(first.upgrade.state.as_str(), "sending");
        let queued = upgrades::start(&s, link, start(&two, b.firmware, &b.ann)).await?;
        assert_eq!(queued.upgrade.state.as_str(), "queued");
        assert_eq!(
            (queued.command_id, queued.upgrade.queue_position),
            (None, Some(1))
        );
        assert_eq!(queued.upgrade.gateway_sn, GATEWAY);
        assert!(!s.has_open_command(SECOND, "upgrade", 10).await?);
        let waiting = s.device_by_sn(SECOND).await?.ok_or("device")?;
        assert_eq!(waiting.status, Status::Normal as i64, "not Upgrading yet");
        // A queued one counts as an upgrade in progress: no second start of the device.
        let again = upgrades::start(&s, link, start(&two, b.firmware, &b.ann)).await;
        assert!(
            refused_with(&again, domain::Code::DeviceUpgrading),
            "{again:?}"
        );
        // Not its turn while the first runs.
        assert!(upgrades::start_next(&s, link, GATEWAY, 15).await?.is_none());

        end(&s, &first).await?;
        let sent = upgrades::start_next(&s, link, GATEWAY, 30)
            .await?
            .ok_or("the second is sent")?;
        assert_eq!(sent.upgrade.id, queued.upgrade.id);
        assert_eq!(
            (sent.upgrade.state.as_str(), sent.upgrade.started_at),
            ("sending", 30)
        );
        assert_eq!(sent.upgrade.queue_position, None);
        let cmd = s
            .command(sent.command_id.ok_or("command")?)
            .await?
            .ok_or("command row")?;
        assert_eq!(
            (cmd.device_sn.as_str(), cmd.kind.as_str()),
            (SECOND, "upgrade")
        );
        let flashing = s.device_by_sn(SECOND).await?.ok_or("device")?;
        assert_eq!(flashing.status, Status::Upgrading as i64);
        assert!(upgrades::start_next(&s, link, GATEWAY, 31).await?.is_none());
        let entries = results(&s, SECOND).await?;
        let expected = [
            ("inverter.upgrade", "queued", "ann@example.com"),
            ("inverter.upgrade", "refused", "ann@example.com"),
            ("inverter.upgrade", "sent", "system"),
        ];
        assert_eq!(
            entries
                .iter()
                .map(|(a, r, by)| (a.as_str(), r.as_str(), by.as_str()))
                .collect::<Vec<_>>(),
            expected
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_queued_start_whose_audit_entry_fails_leaves_nothing_behind() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let (one, two) = (inverter(&s, Status::Normal).await?, second(&s).await?);
        let link = Some(&b.dispatcher);
        upgrades::start(&s, link, start(&one, b.firmware, &b.ann)).await?;
        fail_audit(&s).await?;
        let failed = upgrades::start(&s, link, start(&two, b.firmware, &b.ann)).await;
        assert!(failed_in_store(&failed), "{failed:?}");
        assert!(s.latest_upgrade(SECOND).await?.is_none());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_turn_whose_audit_entry_fails_sends_nothing_and_the_upgrade_stays_queued() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let (one, two) = (inverter(&s, Status::Normal).await?, second(&s).await?);
        let link = Some(&b.dispatcher);
        let first = upgrades::start(&s, link, start(&one, b.firmware, &b.ann)).await?;
        upgrades::start(&s, link, start(&two, b.firmware, &b.ann)).await?;
        end(&s, &first).await?;
        fail_audit(&s).await?;
        let failed = upgrades::start_next(&s, link, GATEWAY, 30).await;
        assert!(failed_in_store(&failed), "{failed:?}");
        let waiting = s.latest_upgrade(SECOND).await?.ok_or("upgrade")?;
        assert_eq!(
            (waiting.state.as_str(), waiting.command_id),
            ("queued", None)
        );
        assert!(!s.has_open_command(SECOND, "upgrade", 30).await?);
        let device = s.device_by_sn(SECOND).await?.ok_or("device")?;
        assert_ne!(device.status, Status::Upgrading as i64);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_cancel_of_a_queued_upgrade_goes_with_its_entry_or_not_at_all() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let (one, two) = (inverter(&s, Status::Normal).await?, second(&s).await?);
        let link = Some(&b.dispatcher);
        let first = upgrades::start(&s, link, start(&one, b.firmware, &b.ann)).await?;
        let queued = upgrades::start(&s, link, start(&two, b.firmware, &b.ann)).await?;
        let cancelled = upgrades::cancel_queued(&s, &b.ann, &queued.upgrade, 12).await?;
        assert_eq!(
            (cancelled.state.as_str(), cancelled.finished_at),
            ("cancelled", Some(12))
        );
        // Out of the queue: nothing is sent when the first ends.
        end(&s, &first).await?;
        assert!(upgrades::start_next(&s, link, GATEWAY, 30).await?.is_none());
        assert!(!s.has_open_command(SECOND, "upgrade", 30).await?);

        let again = upgrades::start(&s, link, start(&one, b.firmware, &b.ann)).await?;
        let queued = upgrades::start(&s, link, start(&two, b.firmware, &b.ann)).await?;
        assert!(again.command_id.is_some() && queued.command_id.is_none());
        fail_audit(&s).await?;
        let failed = upgrades::cancel_queued(&s, &b.ann, &queued.upgrade, 40).await;
        assert!(failed_in_store(&failed), "{failed:?}");
        let still = s.upgrade(queued.upgrade.id).await?.ok_or("upgrade")?;
        assert_eq!(still.state.as_str(), "queued");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_queued_upgrade_whose_device_went_away_fails_with_the_reason() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let (one, two) = (inverter(&s, Status::Normal).await?, second(&s).await?);
        let link = Some(&b.dispatcher);
        let first = upgrades::start(&s, link, start(&one, b.firmware, &b.ann)).await?;
        let queued = upgrades::start(&s, link, start(&two, b.firmware, &b.ann)).await?;
        s.delete_device(two.id).await?;
        end(&s, &first).await?;
        assert!(upgrades::start_next(&s, link, GATEWAY, 30).await?.is_none());
        let gone = s.upgrade(queued.upgrade.id).await?.ok_or("upgrade")?;
        assert_eq!(
            (gone.state.as_str(), gone.message.as_str()),
            ("failed", upgrades::DEVICE_GONE)
        );
        assert_eq!(gone.finished_at, Some(30));
        let entries = results(&s, SECOND).await?;
        assert_eq!(
            entries.last().map(|(_, r, by)| (r.as_str(), by.as_str())),
            Some(("refused", "system"))
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_queued_upgrade_whose_gateway_was_deleted_fails_with_the_reason() -> TestResult {
    each_backend(|s| async move {
        let b = bench(&s).await?;
        let (one, two) = (inverter(&s, Status::Normal).await?, second(&s).await?);
        let link = Some(&b.dispatcher);
        let first = upgrades::start(&s, link, start(&one, b.firmware, &b.ann)).await?;
        let queued = upgrades::start(&s, link, start(&two, b.firmware, &b.ann)).await?;
        let gw = s.gateway_by_sn(GATEWAY).await?.ok_or("gateway")?;
        assert!(s.unbind_gateway(gw.id, 20, None).await?);
        assert!(s.delete_gateway(gw.id, None).await?);
        end(&s, &first).await?;
        assert!(upgrades::start_next(&s, link, GATEWAY, 30).await?.is_none());
        let orphan = s.upgrade(queued.upgrade.id).await?.ok_or("upgrade")?;
        assert_eq!(
            (orphan.state.as_str(), orphan.message.as_str()),
            ("failed", upgrades::GATEWAY_DELETED)
        );
        assert!(s.gateways_with_upgrade_due().await?.is_empty());
        Ok(())
    })
    .await
}
