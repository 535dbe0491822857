//! Ingest end to end on every backend: submissions in, committed rows and answers out.

use crate::ingest_common;

use chrono::{Duration as Days, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use devices::{
    Value,
    ingest::refresh_statuses,
    report::{DeviceEvent, GatewayStatus, Item, Submission, Telemetry},
};
use ingest_common::*;
use store::testing::{TestResult, each_backend};
use store::{events::EventFilter, telemetry::DayRange};
use tokio::sync::oneshot;

/// Milliseconds of `hh:mm` local time on `day` in `tz`.
fn local(tz: Tz, day: NaiveDate, hh: u32, mm: u32) -> Result<i64, String> {
    let naive = day.and_hms_opt(hh, mm, 0).ok_or("bad time")?;
    Ok(tz
        .from_local_datetime(&naive)
        .single()
        .ok_or("ambiguous time")?
        .timestamp_millis())
}

/// Yesterday and the day before in `tz`, so that every report time is in the past.
fn past_days(tz: Tz) -> (NaiveDate, NaiveDate) {
    let today = Utc::now().with_timezone(&tz).date_naive();
    (today - Days::days(2), today - Days::days(1))
}

#[tokio::test]
async fn duplicate_and_late_reports_do_not_count_twice() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        let plant = plant_with_gateway(&s, ann, "Europe/Madrid", "GW1").await?;
        let tz: Tz = "Europe/Madrid".parse()?;
        let (day, _) = past_days(tz);
        let (ingest, tx) = spawn(&s);
        let at = |h: u32| local(tz, day, h, 0);
        let inv = |pv: f64, imp: f64| {
            reading(
                "INV1",
                "inverter",
                &[
                    ("today_pv_energy", pv),
                    ("today_grid_import", imp),
                    ("pv1_power", 100.0),
                ],
            )
        };
        let meter = |imp: f64, exp: f64| {
            reading(
                "MET1",
                "meter",
                &[("import_energy", imp), ("export_energy", exp)],
            )
        };
        let bms = |c: f64| reading("BAT1", "battery", &[("total_charge_energy", c)]);
        telemetry(
            &tx,
            "GW1",
            at(8)?,
            vec![inv(1.0, 0.5), meter(100.0, 10.0), bms(50.0)],
        )
        .await?;
        telemetry(
            &tx,
            "GW1",
            at(12)?,
            vec![inv(6.0, 1.0), meter(101.0, 13.0), bms(53.0)],
        )
        .await?;
        // The same report again, and a late one from the morning.
        telemetry(
            &tx,
            "GW1",
            at(12)?,
            vec![inv(6.0, 1.0), meter(101.0, 13.0), bms(53.0)],
        )
        .await?;
        telemetry(
            &tx,
            "GW1",
            at(10)?,
            vec![inv(3.0, 0.7), meter(100.5, 11.0), bms(51.0)],
        )
        .await?;
        telemetry(
            &tx,
            "GW1",
            at(18)?,
            vec![inv(9.5, 2.0), meter(102.0, 15.0), bms(54.5)],
        )
        .await?;
        telemetry(
            &tx,
            "GW1",
            at(18)?,
            vec![inv(9.5, 2.0), meter(102.0, 15.0), bms(54.5)],
        )
        .await?;

        let inv_id = s.device_by_sn("INV1").await?.ok_or("no inverter")?.id;
        let met_id = s.device_by_sn("MET1").await?.ok_or("no meter")?.id;
        let bat_id = s.device_by_sn("BAT1").await?.ok_or("no battery")?.id;
        let d = DayRange::day(&day.format("%Y-%m-%d").to_string());
        let e = s.device_energy(inv_id, &d).await?;
        assert_eq!(kwh(&e, "pv"), 9.5);
        assert_eq!(kwh(&e, "grid_import"), 2.0);
        let m = s.device_energy(met_id, &d).await?;
        assert_eq!(kwh(&m, "grid_import"), 2.0);
        assert_eq!(kwh(&m, "grid_export"), 5.0);
        assert_eq!(kwh(&s.device_energy(bat_id, &d).await?, "charge"), 4.5);
        // The plant counts grid import once (the inverter's) and the BMS charge, which no
        // inverter reported.
        let p = s.plant_energy(plant, &d).await?;
        assert_eq!(kwh(&p, "pv"), 9.5);
        assert_eq!(kwh(&p, "grid_import"), 2.0);
        assert_eq!(kwh(&p, "grid_export"), 5.0);
        assert_eq!(kwh(&p, "charge"), 4.5);
        // Month, year and total are sums of days.
        let month = DayRange::month(chrono::Datelike::year(&day), chrono::Datelike::month(&day));
        assert_eq!(kwh(&s.plant_energy(plant, &month).await?, "pv"), 9.5);
        assert_eq!(
            kwh(&s.plant_energy(plant, &DayRange::total()).await?, "pv"),
            9.5
        );
        // Four distinct report times were stored once each.
        assert_eq!(s.samples(inv_id, 0, i64::MAX, 100).await?.len(), 4);
        // The newest report is the latest, in memory and in the store.
        let latest = ingest.latest(inv_id).await?.ok_or("no latest")?;
        assert_eq!(latest.ts, at(18)?);
        assert_eq!(
            latest.values()?.get("today_pv_energy"),
            Some(&Value::Number(9.5))
        );
        assert_eq!(s.latest_sample(inv_id).await?.ok_or("no row")?.ts, at(18)?);
        let dev = s.device_by_sn("INV1").await?.ok_or("gone")?;
        assert!(dev.online);
        assert_eq!(dev.plant_id, Some(plant));
        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_report_lands_on_the_plants_local_day() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        let (ingest, tx) = spawn(&s);
        for (tz_name, gsn, sn) in [
            ("Asia/Shanghai", "GWSH", "INVSH"),
            ("America/Los_Angeles", "GWLA", "INVLA"),
        ] {
            let plant = plant_with_gateway(&s, ann, tz_name, gsn).await?;
            let tz: Tz = tz_name.parse()?;
            let (day1, day2) = past_days(tz);
            let late = local(tz, day1, 23, 30)?;
            let early = local(tz, day2, 0, 30)?;
            telemetry(
                &tx,
                gsn,
                late,
                vec![reading(sn, "inverter", &[("today_pv_energy", 20.0)])],
            )
            .await?;
            telemetry(
                &tx,
                gsn,
                early,
                vec![reading(sn, "inverter", &[("today_pv_energy", 0.0)])],
            )
            .await?;
            let fmt = |d: NaiveDate| d.format("%Y-%m-%d").to_string();
            let first = s.plant_energy(plant, &DayRange::day(&fmt(day1))).await?;
            let second = s.plant_energy(plant, &DayRange::day(&fmt(day2))).await?;
            assert_eq!(kwh(&first, "pv"), 20.0, "{tz_name}");
            assert_eq!(kwh(&second, "pv"), 0.0, "{tz_name}");
            // (Beside it, the fixture's plant at 30° N 0° E may see the sun in this interval:
            // ingest's available hours, docs/figures.md.)
            assert_eq!(
                second.iter().filter(|t| t.metric == "pv").count(),
                1,
                "{tz_name}: the 00:30 report has its own day row"
            );
        }
        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}

#[tokio::test]
async fn many_submissions_are_batched_and_all_answered_after_commit() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        plant_with_gateway(&s, ann, "UTC", "GWB").await?;
        let (ingest, tx) = spawn(&s);
        let base = Utc::now().timestamp_millis() - 3_600_000;
        let mut answers = Vec::new();
        for i in 0..400i64 {
            let (done, answer) = oneshot::channel();
            let values: Vec<(String, f64)> =
                (0..50).map(|k| (format!("v{k}"), (i + k) as f64)).collect();
            let pairs: Vec<(&str, f64)> = values.iter().map(|(k, v)| (k.as_str(), *v)).collect();
            let devices = vec![reading(&format!("D{}", i % 20), "inverter", &pairs)];
            tx.send(Submission {
                gateway_sn: "GWB".into(),
                item: Item::Telemetry(
                    Telemetry {
                        v: 1,
                        ts: base + i * 1000,
                        devices,
                    }
                    .into(),
                ),
                done,
            })
            .await?;
            answers.push(answer);
        }
        for a in answers {
            a.await??;
        }
        let mut rows = 0;
        for d in s
            .gateway_devices(s.gateway_by_sn("GWB").await?.ok_or("gw")?.id)
            .await?
        {
            rows += s.samples(d.id, 0, i64::MAX, 10_000).await?.len();
        }
        assert_eq!(rows, 400);
        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}

#[tokio::test]
async fn unknown_gateways_and_implausible_times_refuse_the_whole_message() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        plant_with_gateway(&s, ann, "UTC", "GWA").await?;
        let (ingest, tx) = spawn(&s);
        let now = Utc::now().timestamp_millis();
        let ok = || vec![reading("INVA", "inverter", &[("pv1_power", 1.0)])];
        assert!(telemetry(&tx, "NOPE", now, ok()).await.is_err());
        assert!(
            telemetry(&tx, "GWA", now + 11 * 60_000, ok())
                .await
                .is_err()
        );
        assert!(
            telemetry(&tx, "GWA", now - 400 * 86_400_000, ok())
                .await
                .is_err()
        );
        assert!(
            s.device_by_sn("INVA").await?.is_none(),
            "nothing stored from refused reports"
        );
        telemetry(&tx, "GWA", now, ok()).await?;
        assert!(s.device_by_sn("INVA").await?.is_some());
        let bad_status = Item::Status(GatewayStatus {
            v: 1,
            online: true,
            soft_ver: None,
            hard_ver: None,
            signal: None,
            comm_type: None,
            upload_cycle: None,
        });
        assert!(submit(&tx, "NOPE", bad_status).await?.is_err());
        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}

#[tokio::test]
async fn statuses_events_and_status_words_drive_device_and_plant_status() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        let plant = plant_with_gateway(&s, ann, "UTC", "GWS").await?;
        let (ingest, tx) = spawn(&s);
        let now = Utc::now().timestamp_millis();
        let status = GatewayStatus {
            v: 1,
            online: true,
            soft_ver: Some("1.2.3".into()),
            hard_ver: Some("H1".into()),
            signal: Some(-70),
            comm_type: Some("wifi".into()),
            upload_cycle: Some(60),
        };
        submit(&tx, "GWS", Item::Status(status)).await??;
        let gw = s.gateway_by_sn("GWS").await?.ok_or("gw")?;
        assert!(gw.online);
        assert_eq!(
            (gw.soft_ver.as_str(), gw.signal, gw.upload_cycle),
            ("1.2.3", Some(-70), 60)
        );

        // A fault bit (F33, AC over-current) opens a fault event; the plant turns Fault.
        let words = |f3: f64| {
            reading(
                "INVS",
                "inverter",
                &[
                    ("fault_word_1", 0.0),
                    ("fault_word_2", 0.0),
                    ("fault_word_3", f3),
                    ("fault_word_4", 0.0),
                    ("warning_word", 0.0),
                ],
            )
        };
        telemetry(
            &tx,
            "GWS",
            now - 60_000,
            vec![words(1.0), reading("METS", "meter", &[("power", 1.0)])],
        )
        .await?;
        let inv = s.device_by_sn("INVS").await?.ok_or("inv")?;
        let open = |device| EventFilter {
            device: Some(device),
            open_only: true,
            limit: 10,
            ..EventFilter::default()
        };
        let (events, _) = s.events(&open(inv.id)).await?;
        assert_eq!(
            events
                .iter()
                .map(|e| (e.code.as_str(), e.severity.as_str()))
                .collect::<Vec<_>>(),
            vec![("F33", "fault")]
        );
        refresh_statuses(&s, now).await?;
        assert_eq!(s.device_by_sn("INVS").await?.ok_or("inv")?.status, 3);
        assert_eq!(s.plant_statuses().await?, vec![(plant, 3)]);

        // The bit clears: the event closes. A meter event message opens a warning.
        telemetry(&tx, "GWS", now - 30_000, vec![words(0.0)]).await?;
        assert!(s.events(&open(inv.id)).await?.0.is_empty());
        let met = s.device_by_sn("METS").await?.ok_or("met")?;
        let ev = |action: &str| {
            Item::Event(DeviceEvent {
                v: 1,
                ts: now - 20_000,
                sn: "METS".into(),
                code: "M02".into(),
                action: action.into(),
            })
        };
        submit(&tx, "GWS", ev("open")).await??;
        submit(&tx, "GWS", ev("open")).await??;
        assert_eq!(
            s.events(&open(met.id)).await?.0.len(),
            1,
            "one open event per code"
        );
        refresh_statuses(&s, now).await?;
        assert_eq!(s.plant_statuses().await?, vec![(plant, 2)]);
        submit(&tx, "GWS", ev("close")).await??;
        let (all, total) = s
            .events(&EventFilter {
                plant: Some(plant),
                limit: 10,
                ..EventFilter::default()
            })
            .await?;
        assert_eq!(total, 2);
        assert!(all.iter().all(|e| e.closed_at.is_some()));

        // Upgrading shows over everything; silence (here 16 minutes) turns devices offline.
        s.set_device_upgrading(inv.id, true).await?;
        refresh_statuses(&s, now).await?;
        assert_eq!(s.plant_statuses().await?, vec![(plant, 4)]);
        s.set_device_upgrading(inv.id, false).await?;
        refresh_statuses(&s, now + 16 * 60_000).await?;
        let inv = s.device_by_sn("INVS").await?.ok_or("inv")?;
        assert_eq!((inv.status, inv.online), (0, false));
        assert_eq!(s.plant_statuses().await?, vec![(plant, 0)]);

        // The last will takes the gateway and its devices offline.
        let offline = GatewayStatus {
            v: 1,
            online: false,
            soft_ver: None,
            hard_ver: None,
            signal: None,
            comm_type: None,
            upload_cycle: None,
        };
        submit(&tx, "GWS", Item::Status(offline)).await??;
        let gw = s.gateway_by_sn("GWS").await?.ok_or("gw")?;
        assert!(!gw.online);
        assert_eq!(
            gw.soft_ver, "1.2.3",
            "an offline message keeps what it does not say"
        );
        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}
