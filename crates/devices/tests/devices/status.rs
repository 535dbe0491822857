//! Online, offline and stale on every backend (issue 13): a gateway that stops reporting turns
//! offline within three upload cycles, its devices and its plant with it, an upgrade shows only
//! while its gateway is there, and the next message brings the gateway back at once.

use crate::ingest_common;

use devices::{
    ingest::status::{offline_after_ms, refresh_period, refresh_statuses},
    report::{GatewayStatus, Item},
};
use ingest_common::*;
use store::testing::{TestResult, each_backend};

fn status(online: bool, cycle: i64) -> Item {
    Item::Status(GatewayStatus {
        v: 1,
        online,
        soft_ver: None,
        hard_ver: None,
        signal: None,
        comm_type: None,
        upload_cycle: Some(cycle),
    })
}

#[tokio::test]
async fn a_silent_gateway_its_devices_and_its_plant_go_offline_within_three_cycles() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        let plant = plant_with_gateway(&s, ann, "UTC", "GWQ").await?;
        let (ingest, tx) = spawn(&s);
        let cycle = 5;
        submit(&tx, "GWQ", status(true, cycle)).await??;
        let t0 = chrono::Utc::now().timestamp_millis();
        let inv = reading("INVQ", "inverter", &[("pv1_power", 900.0)]);
        let met = reading("METQ", "meter", &[("power", 100.0)]);
        telemetry(&tx, "GWQ", t0, vec![inv, met]).await?;
        // The link notes when the report arrived (`link::heard`).
        s.gateways_heard(&[("GWQ".into(), t0 + 5)]).await?;
        let heard = s.gateway_by_sn("GWQ").await?.ok_or("gw")?;
        let last = heard.last_online.ok_or("no last message time")?;
        assert_eq!(
            last,
            t0 + 5,
            "the last message time is the report's arrival"
        );

        refresh_statuses(&s, last + 1000).await?;
        let inv = s.device_by_sn("INVQ").await?.ok_or("inv")?;
        assert_eq!((inv.status, inv.online), (1, true));
        assert_eq!(s.plant_statuses().await?, vec![(plant, 1)]);

        // An upgrade runs on the inverter.
        s.set_device_upgrading(inv.id, true).await?;
        refresh_statuses(&s, last + 2000).await?;
        assert_eq!(s.plant_statuses().await?, vec![(plant, 4)]);

        // Silence: fresh up to two and a half cycles, offline after; the job that notices
        // runs every half cycle, so the screens show it within three cycles.
        let stale = offline_after_ms(cycle);
        assert!(stale + refresh_period(cycle).as_millis() as i64 <= 3 * cycle * 1000);
        let r = refresh_statuses(&s, last + stale).await?;
        assert_eq!(r.gateways_offline, 0);
        assert!(s.gateway_by_sn("GWQ").await?.ok_or("gw")?.online);
        let r = refresh_statuses(&s, last + stale + 1).await?;
        assert_eq!((r.gateways_offline, r.shortest_cycle_s), (1, cycle));
        let gw = s.gateway_by_sn("GWQ").await?.ok_or("gw")?;
        assert!(!gw.online);
        assert_eq!(gw.last_online, Some(last), "the last message time stays");
        for sn in ["INVQ", "METQ"] {
            let d = s.device_by_sn(sn).await?.ok_or("device")?;
            assert_eq!((sn, d.status, d.online), (sn, 0, false));
        }
        assert_eq!(
            s.plant_statuses().await?,
            vec![(plant, 0)],
            "a plant whose devices are all offline is offline, upgrade or not"
        );

        // The next message brings the gateway back; its devices follow with their data.
        // (After the job's "now", which this test moved ahead.)
        let t1 = last + stale + 2000;
        let inv = reading("INVQ", "inverter", &[("pv1_power", 950.0)]);
        telemetry(&tx, "GWQ", t1 - 1000, vec![inv]).await?;
        s.gateways_heard(&[("GWQ".into(), t1)]).await?;
        let gw = s.gateway_by_sn("GWQ").await?.ok_or("gw")?;
        assert!(gw.online);
        assert!(gw.last_online.is_some_and(|t| t >= t1));
        refresh_statuses(&s, t1 + 1000).await?;
        let inv = s.device_by_sn("INVQ").await?.ok_or("inv")?;
        assert_eq!((inv.status, inv.online), (4, true), "still upgrading");
        assert_eq!(s.plant_statuses().await?, vec![(plant, 4)]);

        // A last will takes the gateway offline at once; the job keeps its devices offline
        // although their data is still fresh.
        submit(&tx, "GWQ", status(false, cycle)).await??;
        refresh_statuses(&s, t1 + 2000).await?;
        let inv = s.device_by_sn("INVQ").await?.ok_or("inv")?;
        assert_eq!((inv.status, inv.online), (0, false));
        assert_eq!(s.plant_statuses().await?, vec![(plant, 0)]);

        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}

/// The sweeper's rules for upgrades the portal no longer hears of: behind an offline gateway
/// after ten silent seconds, anywhere after a silent minute, a gateway's own after five.
#[tokio::test]
async fn upgrades_whose_device_stopped_answering_fail_by_the_sweepers_rules() -> TestResult {
    use devices::link::{
        GATEWAY_GONE, NO_PROGRESS, UPGRADE_GATEWAY_GONE_AFTER, UPGRADE_SILENCE,
        UPGRADE_SILENCE_GATEWAY, sweep_upgrades,
    };
    use store::commands::{CommandStatus, NewCommand};
    each_backend(|s| async move {
        let t0 = 1_700_000_000_000;
        for (sn, online) in [("GWON", true), ("GWOFF", false)] {
            let g = s.create_gateway(sn, "KEY", "", t0).await?;
            let update = store::telemetry::GatewayStatusUpdate {
                online,
                ..Default::default()
            };
            s.update_gateway_status(g, &update, t0).await?;
        }
        let command = |id: &'static str, gw: &'static str, dev: &'static str, kind| NewCommand {
            correlation_id: id,
            gateway_sn: gw,
            device_sn: dev,
            kind,
            params: "{}",
            now: t0,
            deadline: t0 + 15 * 60_000,
        };
        let behind_offline = s
            .insert_command(&command("c1", "GWOFF", "INV1", "upgrade"))
            .await?;
        let behind_online = s
            .insert_command(&command("c2", "GWON", "INV2", "upgrade"))
            .await?;
        let own = s
            .insert_command(&command("c3", "GWON", "GWON", "upgrade"))
            .await?;
        let other_kind = s
            .insert_command(&command("c4", "GWOFF", "INV1", "read_params"))
            .await?;
        let ms = |d: std::time::Duration| d.as_millis() as i64;
        let status = |id| {
            let s = s.clone();
            async move {
                let row = s.command(id).await?.ok_or("command")?;
                Ok::<_, Box<dyn std::error::Error>>((row.status(), row.result_msg))
            }
        };

        assert_eq!(
            sweep_upgrades(&s, t0 + ms(UPGRADE_GATEWAY_GONE_AFTER)).await?,
            0
        );
        assert_eq!(
            sweep_upgrades(&s, t0 + ms(UPGRADE_GATEWAY_GONE_AFTER) + 1).await?,
            1
        );
        assert_eq!(
            status(behind_offline).await?,
            (CommandStatus::Failed, GATEWAY_GONE.to_string())
        );
        assert_eq!(status(behind_online).await?.0, CommandStatus::Sent);
        assert_eq!(sweep_upgrades(&s, t0 + ms(UPGRADE_SILENCE) + 1).await?, 1);
        assert_eq!(
            status(behind_online).await?,
            (CommandStatus::Failed, NO_PROGRESS.to_string())
        );
        assert_eq!(
            status(own).await?.0,
            CommandStatus::Sent,
            "a gateway may reboot"
        );
        assert_eq!(
            sweep_upgrades(&s, t0 + ms(UPGRADE_SILENCE_GATEWAY) + 1).await?,
            1
        );
        assert_eq!(status(own).await?.0, CommandStatus::Failed);
        assert_eq!(
            status(other_kind).await?.0,
            CommandStatus::Sent,
            "upgrades only"
        );
        Ok(())
    })
    .await
}

/// The link writes what it heard once a second: a message heard before the gateway's last will
/// but written after it does not bring the gateway back; one heard after it does.
#[tokio::test]
async fn a_message_heard_before_the_last_will_does_not_undo_it() -> TestResult {
    use store::telemetry::GatewayStatusUpdate;
    each_backend(|s| async move {
        let g = s.create_gateway("GWW", "KEY", "", 1).await?;
        let status = |online| GatewayStatusUpdate {
            online,
            ..GatewayStatusUpdate::default()
        };
        s.update_gateway_status(g, &status(true), 1000).await?;
        s.gateways_heard(&[("GWW".into(), 2000)]).await?;
        let gw = s.gateway(g).await?.ok_or("gw")?;
        assert_eq!((gw.online, gw.last_online), (true, Some(2000)));
        s.update_gateway_status(g, &status(false), 3000).await?;
        s.gateways_heard(&[("GWW".into(), 2500)]).await?;
        let gw = s.gateway(g).await?.ok_or("gw")?;
        assert_eq!((gw.online, gw.last_online), (false, Some(2000)));
        s.gateways_heard(&[("GWW".into(), 3500)]).await?;
        let gw = s.gateway(g).await?.ok_or("gw")?;
        assert_eq!((gw.online, gw.last_online), (true, Some(3500)));
        // Older news never moves the time back.
        s.gateways_heard(&[("GWW".into(), 3400)]).await?;
        assert_eq!(s.gateway(g).await?.ok_or("gw")?.last_online, Some(3500));
        Ok(())
    })
    .await
}
