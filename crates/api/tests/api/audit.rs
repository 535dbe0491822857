//! The audit log over HTTP: remote actions (a settings write, power on/off, a refused command)
//! each leave an entry with who, what, when and result, the entry follows its command to the
//! device's answer, and the log is read with its visibility rule (internal staff everything,
//! plant owners their plants' entries, anyone their own actions, strangers nothing) and its
//! filters. Every test runs on SQLite and, when configured, PostgreSQL.

use crate::common;
use crate::fake_gateway;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use std::time::Duration;

use common::{App, fixtures, spawn};
use domain::user::BuiltinRole;
use fake_gateway::{Mode, gateway, linked};
use serde_json::{Value, json};

const INV: &str = "INV-AUD01";

/// The entry, key by key with its JSON type.
#[track_caller]
fn assert_entry(e: &Value) {
    assert!(e["id"].is_i64(), "{e}");
    assert!(e["userId"].is_i64(), "{e}");
    assert!(e["account"].is_string(), "{e}");
    assert!(e["plantId"].is_i64(), "{e}");
    assert!(e["plantName"].is_string(), "{e}");
    assert!(e["action"].is_string(), "{e}");
    assert!(e["target"].is_string(), "{e}");
    assert!(e["detail"].is_object(), "{e}");
    assert!(e["result"].is_string(), "{e}");
    assert!(e["commandId"].is_i64() || e["commandId"].is_null(), "{e}");
    assert!(
        e["commandStatus"].is_string() || e["commandStatus"].is_null(),
        "{e}"
    );
    let at = e["createAt"].as_str().expect("createAt");
    assert!(at.ends_with("+00:00") && at.len() == 29, "{at}");
}

async fn list(app: &App, token: &str, query: &str) -> (i64, Vec<Value>) {
    let r = app
        .get(&format!("/api/v1/audit?{query}"), Some(token))
        .await;
    r.expect_code(0);
    let d = r.data();
    assert!(d["pageSize"].is_i64() && d["pageNumber"].is_i64(), "{d}");
    let infos = d["infos"].as_array().expect("infos").clone();
    for e in &infos {
        assert_entry(e);
    }
    (d["total"].as_i64().expect("total"), infos)
}

#[tokio::test]
async fn remote_actions_are_audited_and_read_by_who_may_see_them() {
    for app in spawn().await {
        common::settings_maps::writable_hybrids(&app).await;
        let admin = fixtures::admin(&app).await;
        let [ann, max, bob] = fixtures::owners(&app, ["ann", "max", "bob"]).await;
        let body = fixtures::madrid_plant("Ann audit plant", 2, 8);
        let plant = fixtures::plant(&app, &ann, body).await;
        let gw = fixtures::hybrid_gateway(&app, &admin, &ann, plant, "GW-AUD01").await;
        fixtures::share(&app, &ann, plant, &[("max@example.com", "maintainer")]).await;
        let inverter = app
            .store
            .upsert_device(
                INV,
                GatewayId(gw),
                DeviceFamily::Inverter,
                2,
                "deye-hybrid-1ph",
                "M",
                None,
                1,
            )
            .await
            .expect("device");
        let l = linked(app).await;
        let app = &l.app;
        let _gw = gateway(&l, "GW-AUD01", "KEY12345", Mode::Answer).await;
        fixtures::set_status(app, inverter.0, 1).await;

        // Ann changes a setting, Max switches the inverter off, then Ann tries to switch it
        // on while it is offline.
        let r = app
            .post(
                &format!("/api/v1/common/setting/{INV}/set"),
                json!({"sellTime1": "01:00", "mondayOn": false}),
                Some(&ann),
            )
            .await;
        let set_id = r.expect_code(0).data()["commandId"].as_i64().expect("id");
        let r = app
            .get(&format!("/api/v1/inverter/{INV}/shutdown"), Some(&max))
            .await;
        let off_id = r.expect_code(0).data()["id"].as_i64().expect("id");
        fixtures::set_status(app, inverter.0, 0).await;
        app.get(&format!("/api/v1/inverter/{INV}/boot"), Some(&ann))
            .await
            .expect_code(602);
        // Both commands reach their end.
        for id in [set_id, off_id] {
            let until = tokio::time::Instant::now() + Duration::from_secs(10);
            loop {
                let r = app.get(&format!("/api/v1/command/{id}"), Some(&ann)).await;
                if r.expect_code(0).data()["status"] == "succeeded" {
                    break;
                }
                assert!(
                    tokio::time::Instant::now() < until,
                    "command {id} not final"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }

        // The administrator reads everything, newest first.
        let (total, all) = list(app, &admin, "page=1&limit=10").await;
        assert_eq!(total, 3);
        let actions: Vec<&str> = all
            .iter()
            .map(|e| e["action"].as_str().expect("a"))
            .collect();
        assert_eq!(
            actions,
            ["inverter.boot", "inverter.shutdown", "setting.set"]
        );
        let boot = &all[0];
        assert_eq!(
            (
                &boot["account"],
                &boot["target"],
                &boot["result"],
                &boot["commandId"]
            ),
            (
                &json!("ann@example.com"),
                &json!(INV),
                &json!("refused"),
                &Value::Null
            )
        );
        assert_eq!(boot["detail"]["reason"], 602);
        assert_eq!(boot["plantId"], plant);
        assert_eq!(boot["plantName"], "Ann audit plant");
        let set = &all[2];
        assert_eq!(set["result"], "sent");
        assert_eq!(set["commandId"], set_id);
        assert_eq!(set["commandStatus"], "succeeded");
        assert_eq!(
            set["detail"]["params"],
            json!({"sellTime1": "01:00", "mondayOn": "false"})
        );
        assert_eq!(all[1]["account"], "max@example.com");
        assert_eq!(all[1]["commandStatus"], "succeeded");

        // The owner reads her plant's entries (the maintainer's too); the maintainer his own;
        // a stranger nothing.
        assert_eq!(list(app, &ann, "").await.0, 3);
        let (n, mine) = list(app, &max, "").await;
        assert_eq!(n, 1);
        assert_eq!(mine[0]["action"], "inverter.shutdown");
        assert_eq!(list(app, &bob, "").await.0, 0);

        // Filters (empty values mean "any").
        assert_eq!(
            list(app, &admin, "action=inverter.boot&target=&user=")
                .await
                .0,
            1
        );
        assert_eq!(list(app, &admin, "target=aud01").await.0, 3);
        assert_eq!(list(app, &admin, "user=MAX").await.0, 1);
        assert_eq!(list(app, &admin, &format!("plantId={plant}")).await.0, 3);
        assert_eq!(list(app, &admin, "plantId=999999").await.0, 0);
        let today = chrono::Utc::now().date_naive();
        let yesterday = today.pred_opt().expect("yesterday");
        assert_eq!(
            list(app, &admin, &format!("sdate={today}&edate={today}"))
                .await
                .0,
            3
        );
        assert_eq!(list(app, &admin, &format!("edate={yesterday}")).await.0, 0);
        let (total, page) = list(app, &admin, "page=2&limit=2").await;
        assert_eq!((total, page.len()), (3, 1));
        app.get("/api/v1/audit?sdate=22-01-2025", Some(&admin))
            .await
            .expect_code(4);
        app.get("/api/v1/audit", None).await.expect_401();
    }
}

#[tokio::test]
async fn company_staff_read_their_company_plants_entries_and_no_one_elses() {
    for app in spawn().await {
        let admin = fixtures::admin(&app).await;
        let acme = app.company("Acme Solar").await;
        let other = app.company("Other Solar").await;
        let (_, boss) = app
            .signed_in("boss@acme.example", BuiltinRole::CompanyAdmin, Some(acme))
            .await;
        let (_, staff) = app
            .signed_in("staff@acme.example", BuiltinRole::CompanyStaff, Some(acme))
            .await;
        let (_, rival) = app
            .signed_in(
                "rival@other.example",
                BuiltinRole::CompanyStaff,
                Some(other),
            )
            .await;
        // The company admin creates the plant (a company plant), with the gateway and inverter.
        let body = fixtures::madrid_plant("Acme roof", 2, 8);
        let plant = fixtures::plant(&app, &boss, body).await;
        let gw = fixtures::hybrid_gateway(&app, &admin, &boss, plant, "GW-AUD02").await;
        let inverter = app
            .store
            .upsert_device(
                "INV-AUD02",
                GatewayId(gw),
                DeviceFamily::Inverter,
                93,
                "deye-hybrid-3ph-lv",
                "M",
                None,
                1,
            )
            .await
            .expect("device");
        let l = linked(app).await;
        let app = &l.app;
        let _gw = gateway(&l, "GW-AUD02", "KEY12345", Mode::Answer).await;
        fixtures::set_status(app, inverter.0, 1).await;

        // Company staff may change settings (their role has the key) but not switch power.
        app.post(
            "/api/v1/common/setting/INV-AUD02/set",
            json!({"zeroExportPower": "50"}),
            Some(&staff),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/inverter/INV-AUD02/shutdown", Some(&staff))
            .await
            .expect_code(2);
        // Another company's staff do not see the inverter at all.
        app.post(
            "/api/v1/common/setting/INV-AUD02/set",
            json!({"zeroExportPower": "60"}),
            Some(&rival),
        )
        .await
        .expect_code(600);

        let (n, entries) = list(app, &boss, "").await;
        assert_eq!(n, 1, "the company admin reads the company plant's entry");
        assert_eq!(
            (&entries[0]["account"], &entries[0]["action"]),
            (&json!("staff@acme.example"), &json!("setting.set"))
        );
        assert_eq!(list(app, &staff, "").await.0, 1);
        assert_eq!(list(app, &rival, "").await.0, 0);
        assert_eq!(list(app, &admin, "").await.0, 1);
    }
}

/// Waits until command `id` succeeded.
async fn succeeded(app: &App, token: &str, id: i64) {
    let until = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let r = app.get(&format!("/api/v1/command/{id}"), Some(token)).await;
        if r.expect_code(0).data()["status"] == "succeeded" {
            return;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "command {id} not final"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_settings_write_records_each_value_before_and_after() {
    for app in spawn().await {
        let admin = fixtures::admin(&app).await;
        let [ann] = fixtures::owners(&app, ["ann"]).await;
        let body = fixtures::madrid_plant("Ann values plant", 2, 8);
        let plant = fixtures::plant(&app, &ann, body).await;
        let gw = fixtures::hybrid_gateway(&app, &admin, &ann, plant, "GW-AUD03").await;
        let inverter = app
            .store
            .upsert_device(
                "INV-AUD03",
                GatewayId(gw),
                DeviceFamily::Inverter,
                2,
                "deye-hybrid-1ph",
                "M",
                None,
                1,
            )
            .await
            .expect("device");
        let l = linked(app).await;
        let app = &l.app;
        let _gw = gateway(&l, "GW-AUD03", "KEY12345", Mode::Answer).await;
        fixtures::set_status(app, inverter.0, 1).await;
        let set = |body: Value| {
            let (app, ann) = (app, ann.clone());
            async move {
                app.post("/api/v1/common/setting/INV-AUD03/set", body, Some(&ann))
                    .await
            }
        };

        // From the defaults (what a read shows before anything was confirmed): 100 A, mode 2.
        let r = set(json!({"batteryMaxCurrentCharge": "120", "sysWorkMode": "0"})).await;
        succeeded(
            app,
            &ann,
            r.expect_code(0).data()["commandId"].as_i64().expect("id"),
        )
        .await;
        // Then from the confirmed 120 A to 80 A; the unchanged mode is not listed.
        let r = set(json!({"batteryMaxCurrentCharge": "80", "sysWorkMode": "0"})).await;
        succeeded(
            app,
            &ann,
            r.expect_code(0).data()["commandId"].as_i64().expect("id"),
        )
        .await;
        // Refused (offline): the entry still says what was asked.
        fixtures::set_status(app, inverter.0, 0).await;
        set(json!({"batteryMaxCurrentCharge": "90"}))
            .await
            .expect_code(602);

        let (total, entries) = list(app, &ann, "action=setting.set").await;
        assert_eq!(total, 3);
        let changes = |e: &Value| e["detail"]["changes"].clone();
        assert_eq!(
            changes(&entries[2]),
            json!([
                {"key": "batteryMaxCurrentCharge", "old": "100", "new": "120", "unit": "A"},
                {"key": "sysWorkMode", "old": "2", "new": "0", "unit": ""},
            ])
        );
        assert_eq!(
            changes(&entries[1]),
            json!([{"key": "batteryMaxCurrentCharge", "old": "120", "new": "80", "unit": "A"}])
        );
        assert_eq!(
            entries[1]["detail"]["params"],
            json!({"batteryMaxCurrentCharge": "80"})
        );
        assert_eq!(entries[0]["result"], "refused");
        assert_eq!(
            changes(&entries[0]),
            json!([{"key": "batteryMaxCurrentCharge", "old": "80", "new": "90", "unit": "A"}])
        );
        assert_eq!(entries[0]["plantName"], "Ann values plant");
    }
}
