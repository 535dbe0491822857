//! `GET /api/v1/fleet/summary`: the fleet dashboard over exactly the plants the plant list
//! shows with the same filters: a company's staff see their customers' and agents' plants and
//! never another company's; the filters narrow every figure; the period switches the ranking.

use crate::common;

use chrono::{Duration, Timelike};
use common::{App, fixtures, spawn};
use domain::{
    ids::{CompanyId, DeviceId, PlantId},
    user::BuiltinRole,
};
use serde_json::{Value, json};
use store::telemetry::TelemetryBatch;

async fn summary(app: &App, token: &str, query: &str) -> Value {
    let r = app
        .get(&format!("/api/v1/fleet/summary{query}"), Some(token))
        .await;
    r.expect_code(0);
    r.data().clone()
}

fn ranked_ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|y| y["plantId"].as_i64().expect("plantId"))
        .collect()
}

fn plant(name: &str, kind: i64, kwp: f64, lon: f64, lat: f64) -> Value {
    json!({"name": name, "type": kind, "currency": "EUR", "timezone": "Europe/Madrid",
        "lon": lon, "lat": lat, "totalPower": kwp})
}

/// An inverter behind a gateway bound to `plant` (by its owner `owner`): the inverter's id.
async fn inverter(app: &App, owner: &str, plant: i64, sn: &str) -> i64 {
    let gw = fixtures::bound_gateway(app, "", owner, plant, &format!("GW{sn}")).await;
    fixtures::inverter(app, gw, sn).await
}

/// Alpha (an installer) serves Ann (its customer: a roof and a barn, with inverters and energy)
/// and has Beta as its agent (Beta's field). Gamma and Bob, with a plant each, are nobody's.
struct Fleet {
    internal: String,
    alpha: String,
    beta: String,
    gamma: String,
    ann: String,
    ann_id: i64,
    bob: String,
    beta_company: CompanyId,
    roof: i64,
    barn: i64,
    field: i64,
    unrated: i64,
    gamma_plant: i64,
    roof_inv: i64,
    barn_inv: i64,
    gamma_inv: i64,
}

async fn fleet(app: &App) -> Fleet {
    let a = app.company("Alpha Solar").await;
    let b = app.company("Beta Energy").await;
    let c = app.company("Gamma Power").await;
    let (_, internal) = app
        .signed_in("root@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    let (_, alpha) = app
        .signed_in("admin@alpha.example", BuiltinRole::CompanyAdmin, Some(a))
        .await;
    let (_, beta) = app
        .signed_in("admin@beta.example", BuiltinRole::CompanyAdmin, Some(b))
        .await;
    let (_, gamma) = app
        .signed_in("admin@gamma.example", BuiltinRole::CompanyAdmin, Some(c))
        .await;
    let (ann_id, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    app.store
        .create_agent(a, b, domain::time::now_ms())
        .await
        .expect("agent");
    fixtures::customer(app, &alpha, json!({"account": "ann@example.com"}), &ann).await;
    let roof = fixtures::plant(app, &ann, plant("Ann roof", 1, 5.0, -3.7, 40.4)).await;
    let barn = fixtures::plant(app, &ann, plant("Ann barn", 2, 10.0, -3.7, 40.4)).await;
    let unrated = fixtures::plant(app, &ann, plant("Ann unrated", 1, 0.0, -3.7, 40.4)).await;
    let field = fixtures::plant(app, &beta, plant("Beta field", 1, 50.0, -3.7, 40.4)).await;
    let gamma_plant = fixtures::plant(app, &gamma, plant("Gamma lake", 1, 8.0, -3.7, 40.4)).await;
    fixtures::plant(app, &bob, plant("Bob shed", 1, 3.0, -3.7, 40.4)).await;
    let roof_inv = inverter(app, &ann, roof, "INVROOF1").await;
    let barn_inv = inverter(app, &ann, barn, "INVBARN1").await;
    let gamma_inv = inverter(app, &gamma, gamma_plant, "INVGAMMA").await;

    // PV energy on the plants' own (Madrid) days: today, 3 days and 20 days ago.
    let today = service::local_time::today(service::local_time::zone("Europe/Madrid"));
    let day = |n: i64| (today - Duration::days(n)).format("%Y-%m-%d").to_string();
    let mut batch = TelemetryBatch::default();
    for (inv, plant, n, kwh) in [
        (roof_inv, roof, 0, 10.0),
        (barn_inv, barn, 0, 30.0),
        (roof_inv, roof, 3, 20.0),
        (barn_inv, barn, 3, 10.0),
        (roof_inv, roof, 20, 100.0),
        (gamma_inv, gamma_plant, 0, 500.0),
        // Beyond 30 days: in no period.
        (roof_inv, roof, 40, 1000.0),
    ] {
        batch
            .energy
            .push(fixtures::energy(inv, plant, day(n), "pv", kwh));
    }
    // A metric other than PV counts nowhere.
    batch
        .energy
        .push(fixtures::energy(barn_inv, barn, day(0), "load", 99.0));
    app.store
        .write_telemetry_batch(&batch)
        .await
        .expect("energy");
    Fleet {
        internal,
        alpha,
        beta,
        gamma,
        ann,
        ann_id: ann_id.0,
        bob,
        beta_company: b,
        roof,
        barn,
        field,
        unrated,
        gamma_plant,
        roof_inv,
        barn_inv,
        gamma_inv,
    }
}

#[tokio::test]
async fn an_installer_counts_its_customers_and_agents_plants_and_never_another_companys() {
    for app in spawn().await {
        let b = app.backend;
        let f = fleet(&app).await;
        let s = summary(&app, &f.alpha, "").await;
        assert_eq!(
            s["plants"]["total"], 4,
            "[{b}] roof, barn, unrated, field: {s}"
        );
        assert_eq!(s["plants"]["offline"], 4, "[{b}]");
        // The unrated plant and Beta's field have no gateway nor device.
        assert_eq!(s["plants"]["noDevices"], 2, "[{b}]");
        // Gamma's 500 kWh are not Alpha's.
        assert_eq!(s["energy"]["todayKwh"], 40.0, "[{b}]");
        assert_eq!(s["energy"]["capacityKwp"], 65.0, "[{b}]");
        assert_eq!(s["energy"]["powerW"], 0.0, "[{b}] no live data");
        assert_eq!(s["period"], "today", "[{b}]");
        assert!(fixtures::is_update_at(&s["updateAt"]), "[{b}]");

        let beta = summary(&app, &f.beta, "").await;
        assert_eq!(
            beta["plants"]["total"], 1,
            "[{b}] the agent sees its own only"
        );
        let gamma = summary(&app, &f.gamma, "").await;
        assert_eq!(gamma["plants"]["total"], 1, "[{b}]");
        assert_eq!(gamma["energy"]["todayKwh"], 500.0, "[{b}]");
        let ann = summary(&app, &f.ann, "").await;
        assert_eq!(ann["plants"]["total"], 3, "[{b}]");
        let bob = summary(&app, &f.bob, "").await;
        assert_eq!(bob["plants"]["total"], 1, "[{b}]");
        assert_eq!(bob["energy"]["todayKwh"], 0.0, "[{b}]");
        let all = summary(&app, &f.internal, "").await;
        assert_eq!(
            all["plants"]["total"], 6,
            "[{b}] internal staff see every plant"
        );
    }
}

#[tokio::test]
async fn the_plant_lists_filters_narrow_every_figure() {
    for app in spawn().await {
        let b = app.backend;
        let f = fleet(&app).await;
        let by_customer = summary(&app, &f.alpha, &format!("?customerId={}", f.ann_id)).await;
        assert_eq!(by_customer["plants"]["total"], 3, "[{b}]");
        assert_eq!(by_customer["energy"]["capacityKwp"], 15.0, "[{b}]");

        let by_agent = format!("?agentCompanyId={}", f.beta_company.0);
        let agent = summary(&app, &f.alpha, &by_agent).await;
        assert_eq!(agent["plants"]["total"], 1, "[{b}]");
        assert_eq!(ranked_ids(&agent["ranking"]["best"]), [f.field], "[{b}]");
        // Gamma may not narrow to Alpha's agent: nothing.
        let nosy = summary(&app, &f.gamma, &by_agent).await;
        assert_eq!(nosy["plants"]["total"], 0, "[{b}]");
        assert_eq!(nosy["energy"]["todayKwh"], 0.0, "[{b}]");

        let storage = summary(&app, &f.alpha, "?type=2").await;
        assert_eq!(storage["plants"]["total"], 1, "[{b}]");
        assert_eq!(storage["energy"]["todayKwh"], 30.0, "[{b}]");

        app.store
            .apply_statuses(&[], &[(PlantId(f.roof), 3), (PlantId(f.barn), 1)])
            .await
            .expect("statuses");
        let any = summary(&app, &f.alpha, "?status=-1&type=-1&customerId=-1").await;
        assert_eq!(any["plants"]["total"], 4, "[{b}] -1 is any");
        assert_eq!(any["plants"]["fault"], 1, "[{b}]");
        assert_eq!(any["plants"]["normal"], 1, "[{b}]");
        let faulty = summary(&app, &f.alpha, "?status=3").await;
        assert_eq!(faulty["plants"]["total"], 1, "[{b}]");
        assert_eq!(faulty["plants"]["fault"], 1, "[{b}]");
        assert_eq!(faulty["energy"]["todayKwh"], 10.0, "[{b}]");
        assert_eq!(ranked_ids(&faulty["ranking"]["best"]), [f.roof], "[{b}]");
    }
}

#[tokio::test]
async fn the_period_switches_the_ranking_by_specific_yield() {
    for app in spawn().await {
        let b = app.backend;
        let f = fleet(&app).await;
        let ranking = |s: &Value| s["ranking"].clone();

        let today = summary(&app, &f.alpha, "?period=today").await;
        let r = ranking(&today);
        // barn 30/10 = 3, roof 10/5 = 2, field 0/50 = 0; the unrated plant has no capacity.
        assert_eq!(
            ranked_ids(&r["best"]),
            [f.barn, f.roof, f.field],
            "[{b}] {r}"
        );
        assert_eq!(r["best"][0]["specificYield"], 3.0, "[{b}]");
        assert_eq!(
            r["worst"],
            json!([]),
            "[{b}] all ranked plants are among the best"
        );
        assert_eq!(
            (r["ranked"].clone(), r["unrated"].clone()),
            (json!(3), json!(1))
        );
        let unrated = &r["unratedInfos"][0];
        assert_eq!(unrated["plantId"], f.unrated, "[{b}]");
        assert_eq!(unrated["specificYield"], Value::Null, "[{b}] never 0");
        assert_eq!(unrated["capacityKwp"], Value::Null, "[{b}]");
        assert_eq!(r["median"], 2.0, "[{b}]");
        assert_eq!(
            r["lowBelow"],
            Value::Null,
            "[{b}] too few plants for outliers"
        );

        let week = summary(&app, &f.alpha, "?period=7d").await;
        assert_eq!(week["period"], "7d", "[{b}]");
        let r = ranking(&week);
        // roof 30/5 = 6, barn 40/10 = 4.
        assert_eq!(ranked_ids(&r["best"]), [f.roof, f.barn, f.field], "[{b}]");
        assert_eq!(r["best"][0]["energyKwh"], 30.0, "[{b}]");
        assert_eq!(week["energy"]["periodKwh"], 70.0, "[{b}]");
        assert_eq!(week["energy"]["todayKwh"], 40.0, "[{b}] today stays today");

        let month = summary(&app, &f.alpha, "?period=30d").await;
        let r = ranking(&month);
        assert_eq!(r["best"][0]["specificYield"], 26.0, "[{b}] roof 130/5");
        assert_eq!(month["energy"]["periodKwh"], 170.0, "[{b}]");

        for bad in ["?period=year", "?period=1"] {
            let r = app
                .get(&format!("/api/v1/fleet/summary{bad}"), Some(&f.alpha))
                .await;
            r.expect_code(4);
            assert!(r.msg().contains("period"), "[{b}] {}", r.msg());
        }
    }
}

#[tokio::test]
async fn open_warnings_and_faults_list_plants_faults_first_then_the_oldest() {
    for app in spawn().await {
        let b = app.backend;
        let f = fleet(&app).await;
        let t = domain::time::now_ms();
        let s = &app.store;
        let open = |dev: i64, plant: i64, code: &'static str, sev: &'static str, ago: i64| {
            s.open_event(DeviceId(dev), Some(PlantId(plant)), code, sev, t - ago)
        };
        assert!(
            open(f.barn_inv, f.barn, "W01", "warning", 3 * 3_600_000)
                .await
                .expect("e")
        );
        assert!(
            open(f.roof_inv, f.roof, "F01", "fault", 3_600_000)
                .await
                .expect("e")
        );
        assert!(
            open(f.roof_inv, f.roof, "W02", "warning", 7_200_000)
                .await
                .expect("e")
        );
        // A notice needs nobody; a closed fault is over.
        assert!(
            open(f.barn_inv, f.barn, "N01", "info", 60_000)
                .await
                .expect("e")
        );
        assert!(
            open(f.barn_inv, f.barn, "F09", "fault", 600_000)
                .await
                .expect("e")
        );
        assert!(
            s.close_event(DeviceId(f.barn_inv), "F09", t)
                .await
                .expect("e")
        );
        assert!(
            open(f.gamma_inv, f.gamma_plant, "F01", "fault", 60_000)
                .await
                .expect("e")
        );

        let a = summary(&app, &f.alpha, "").await["alarms"].clone();
        assert_eq!(a["plants"], 2, "[{b}] {a}");
        assert_eq!(
            (a["faults"].clone(), a["warnings"].clone()),
            (json!(1), json!(2))
        );
        let rows = a["infos"].as_array().expect("infos");
        assert_eq!(rows[0]["plantId"], f.roof, "[{b}] the fault first");
        assert_eq!(rows[0]["severity"], "fault", "[{b}]");
        assert_eq!(rows[0]["code"], "F01", "[{b}]");
        assert_eq!(
            (rows[0]["faults"].clone(), rows[0]["warnings"].clone()),
            (json!(1), json!(1))
        );
        assert!(fixtures::is_update_at(&rows[0]["since"]), "[{b}]");
        assert_eq!(rows[1]["plantId"], f.barn, "[{b}]");
        assert_eq!(rows[1]["severity"], "warning", "[{b}]");

        // Ann's view of her own plants is the same; Bob sees none of it.
        let ann = summary(&app, &f.ann, "").await;
        assert_eq!(ann["alarms"]["plants"], 2, "[{b}]");
        let bob = summary(&app, &f.bob, "").await;
        assert_eq!(bob["alarms"]["plants"], 0, "[{b}]");
        // Narrowed to the storage plants: the barn's warning only.
        let storage = summary(&app, &f.alpha, "?type=2").await;
        assert_eq!(storage["alarms"]["plants"], 1, "[{b}]");
        assert_eq!(storage["alarms"]["faults"], 0, "[{b}]");
    }
}

/// The longitude (east positive) where it is about solar noon at `now`.
fn noon_longitude(now: i64) -> f64 {
    let minutes = (now.rem_euclid(86_400_000) / 60_000) as f64;
    let lon = (720.0 - minutes) / 4.0;
    if lon < -180.0 { lon + 360.0 } else { lon }
}

#[tokio::test]
async fn plants_silent_in_daylight_are_listed_and_those_in_the_night_are_not() {
    for app in spawn().await {
        let b = app.backend;
        let (_, owner) = app
            .signed_in("sun@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let now = domain::time::now_ms();
        let noon = noon_longitude(now);
        let midnight = if noon > 0.0 {
            noon - 180.0
        } else {
            noon + 180.0
        };
        let sunny = fixtures::plant(&app, &owner, plant("Sunny silent", 1, 5.0, noon, 1.0)).await;
        let dark = fixtures::plant(&app, &owner, plant("Dark silent", 1, 5.0, midnight, 1.0));
        let dark = dark.await;
        let heard = fixtures::plant(&app, &owner, plant("Sunny heard", 1, 5.0, noon, 1.0)).await;
        let empty = fixtures::plant(&app, &owner, plant("Sunny empty", 1, 5.0, noon, 1.0)).await;
        let mut nowhere = plant("No location", 1, 5.0, 0.0, 0.0);
        nowhere["timezone"] = json!("UTC");
        let nowhere = fixtures::plant(&app, &owner, nowhere).await;
        fixtures::bound_gateway(&app, "", &owner, sunny, "GWSUNNY1").await;
        fixtures::bound_gateway(&app, "", &owner, dark, "GWDARK01").await;
        fixtures::bound_gateway(&app, "", &owner, nowhere, "GWNOWHR1").await;
        let gw = fixtures::bound_gateway(&app, "", &owner, heard, "GWHEARD1").await;
        let inv = fixtures::inverter(&app, gw, "INVHEARD").await;
        let mut batch = TelemetryBatch::default();
        batch.samples.push(fixtures::sample(
            inv,
            now - 60_000,
            &json!({"pv1_power": 1200.0}),
        ));
        app.store
            .write_telemetry_batch(&batch)
            .await
            .expect("sample");

        let s = summary(&app, &owner, "?silentMinutes=60").await["silent"].clone();
        assert_eq!(s["minutes"], 60, "[{b}]");
        let ids: Vec<i64> = s["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .map(|p| p["plantId"].as_i64().expect("id"))
            .collect();
        assert!(ids.contains(&sunny), "[{b}] {s}");
        assert!(!ids.contains(&dark), "[{b}] night there");
        assert!(!ids.contains(&heard), "[{b}] it reported a minute ago");
        assert!(
            !ids.contains(&empty),
            "[{b}] nothing bound: counted as without devices"
        );
        let row = s["infos"]
            .as_array()
            .and_then(|r| r.iter().find(|p| p["plantId"] == sunny))
            .expect("sunny");
        assert_eq!(row["daylightBy"], "sun", "[{b}]");
        assert_eq!(row["lastHeard"], Value::Null, "[{b}] never heard");
        assert!(
            row["sunElevation"].as_f64().is_some_and(|e| e > 50.0),
            "[{b}] {row}"
        );

        // Without a location, by the clock in the plant's zone (UTC here).
        let utc = chrono::Utc::now();
        let clock_day = |t: chrono::DateTime<chrono::Utc>| (7..19).contains(&t.hour());
        let by_clock = clock_day(utc) && clock_day(utc - Duration::minutes(60));
        assert_eq!(ids.contains(&nowhere), by_clock, "[{b}] at {utc}");
        if by_clock {
            let row = s["infos"]
                .as_array()
                .and_then(|r| r.iter().find(|p| p["plantId"] == nowhere))
                .expect("nowhere");
            assert_eq!(row["daylightBy"], "clock", "[{b}]");
            assert_eq!(row["sunElevation"], Value::Null, "[{b}]");
        }
        // The bound is kept within 10 to 360 minutes.
        let wide = summary(&app, &owner, "?silentMinutes=100000").await;
        assert_eq!(wide["silent"]["minutes"], 360, "[{b}]");
    }
}

#[tokio::test]
async fn the_dashboard_needs_the_plant_lists_key() {
    for app in spawn().await {
        let acme = app.company("Acme").await;
        let role = app
            .store
            .create_role(
                acme,
                "Gateways",
                &["gateway.view"],
                domain::time::now_ms(),
                None,
            )
            .await
            .expect("role");
        let (id, token) = app
            .signed_in("plain@example.com", BuiltinRole::CompanyStaff, Some(acme))
            .await;
        app.store.set_role(id, role).await.expect("set role");
        app.get("/api/v1/fleet/summary", Some(&token))
            .await
            .expect_code(2);
        app.get("/api/v1/fleet/summary", None).await.expect_401();
    }
}

#[tokio::test]
async fn a_summary_is_kept_a_few_seconds_per_reader_and_filters() {
    for app in spawn().await {
        let b = app.backend;
        let f = fleet(&app).await;
        let first = summary(&app, &f.alpha, "").await;
        assert_eq!(first["alarms"]["plants"], 0, "[{b}]");
        let t = domain::time::now_ms();
        app.store
            .open_event(
                DeviceId(f.roof_inv),
                Some(PlantId(f.roof)),
                "F01",
                "fault",
                t,
            )
            .await
            .expect("event");
        // The same reader and filters within 5 s: the summary read before, and when it was read.
        let again = summary(&app, &f.alpha, "").await;
        assert_eq!(again["alarms"]["plants"], 0, "[{b}]");
        assert_eq!(again["updateAt"], first["updateAt"], "[{b}]");
        // Another reader, or other filters, read anew.
        let ann = summary(&app, &f.ann, "").await;
        assert_eq!(ann["alarms"]["plants"], 1, "[{b}]");
        let faults = summary(&app, &f.alpha, "?type=1").await;
        assert_eq!(faults["alarms"]["plants"], 1, "[{b}]");
    }
}
