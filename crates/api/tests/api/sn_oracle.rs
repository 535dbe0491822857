//! Another tenant's gateway answers exactly like a missing one (issue 12, finding 3): in a
//! single action, in batches of up to 100 SNs, and in the audit entries the caller reads back,
//! which never name a plant the caller cannot see.

use crate::common;

use common::{App, fixtures, spawn};
use serde_json::{Value, json};

/// Ann's plant "Ann secret roof" holds GW-ANN001..GW-ANN050; Bob is a stranger with a plant of
/// his own and gateway GW-BOB001 on it.
struct FiftyGateways {
    ann: String,
    bob: String,
    ann_sns: Vec<String>,
}

async fn fifty_gateways(app: &App) -> FiftyGateways {
    let admin = fixtures::admin(app).await;
    let [ann, bob] = fixtures::owners(app, ["ann", "bob"]).await;
    let ann_plant =
        fixtures::plant(app, &ann, fixtures::madrid_plant("Ann secret roof", 1, 5)).await;
    let bob_plant = fixtures::plant(app, &bob, fixtures::madrid_plant("Bob roof", 1, 5)).await;
    let ann_sns: Vec<String> = (1..=50).map(|i| format!("GW-ANN{i:03}")).collect();
    for sn in &ann_sns {
        fixtures::register_hybrid_gateway(app, &admin, sn).await;
        fixtures::bind_gateway(app, &ann, ann_plant, sn).await;
    }
    fixtures::register_hybrid_gateway(app, &admin, "GW-BOB001").await;
    fixtures::bind_gateway(app, &bob, bob_plant, "GW-BOB001").await;
    FiftyGateways { ann, bob, ann_sns }
}

/// A batch item without its SN: what a caller could compare between SNs.
fn without_sn(item: &Value) -> Value {
    let mut item = item.clone();
    if let Some(map) = item.as_object_mut() {
        map.remove("sn");
    }
    item
}

#[tokio::test]
async fn another_tenants_gateways_answer_like_missing_ones_in_batches_of_100() {
    for app in spawn().await {
        let c = fifty_gateways(&app).await;
        let missing: Vec<String> = (1..=50).map(|i| format!("GW-NONE{i:03}")).collect();
        let sns: Vec<&String> = c
            .ann_sns
            .iter()
            .zip(&missing)
            .flat_map(|(a, m)| [a, m])
            .collect();
        assert_eq!(sns.len(), 100);

        for action in ["restart", "upgrade"] {
            let r = app
                .post(
                    "/api/v1/gateways/batch/check",
                    json!({"sns": sns, "action": action}),
                    Some(&c.bob),
                )
                .await;
            r.expect_code(0);
            let items = r.data()["items"].as_array().cloned().unwrap_or_default();
            assert_eq!(items.len(), 100);
            let first = without_sn(&items[0]);
            assert_eq!(first["code"], 305, "{first}");
            for item in &items {
                assert_eq!(without_sn(item), first, "every SN answers alike: {item}");
            }
        }

        let r = app
            .post("/api/v1/batch/restart", json!({"sns": sns}), Some(&c.bob))
            .await;
        r.expect_code(0);
        let items = r.data()["items"].as_array().cloned().unwrap_or_default();
        let first = without_sn(&items[0]);
        assert!(items.iter().all(|i| without_sn(i) == first), "{}", r.text());

        let r = app
            .post(
                "/api/v1/batch/upgrade",
                json!({"ids": sns, "firmId": 1}),
                Some(&c.bob),
            )
            .await;
        r.expect_code(0);
        let results = r.data()["results"].as_array().cloned().unwrap_or_default();
        let first = without_sn(&results[0]);
        assert_eq!(first["code"], 305, "{first}");
        assert!(
            results.iter().all(|i| without_sn(i) == first),
            "{}",
            r.text()
        );

        // What the refusals left in Bob's audit log names no plant, and reads the same for
        // Ann's SNs and the missing ones.
        let r = app.get("/api/v1/audit?limit=100", Some(&c.bob)).await;
        r.expect_code(0);
        assert!(!r.text().contains("Ann secret roof"), "{}", r.text());
        let infos = r.data()["infos"].as_array().cloned().unwrap_or_default();
        assert_eq!(infos.len(), 100, "one refused restart per SN");
        for e in &infos {
            assert!(e["plantId"].is_null() && e["plantName"].is_null(), "{e}");
            assert_eq!(e["result"], "refused");
            assert_eq!(e["detail"]["reason"], 305);
        }
        // Ann's log has none of Bob's attempts: they were never filed under her plant.
        let r = app.get("/api/v1/audit?limit=100", Some(&c.ann)).await;
        assert_eq!(r.data()["total"], 0, "{}", r.text());
    }
}

#[tokio::test]
async fn one_action_on_another_tenants_gateway_answers_and_logs_like_a_missing_one() {
    for app in spawn().await {
        let c = fifty_gateways(&app).await;
        let theirs = app
            .post("/api/v1/gateway/GW-ANN001/restart", json!({}), Some(&c.bob))
            .await;
        let nobodys = app
            .post(
                "/api/v1/gateway/GW-NONE001/restart",
                json!({}),
                Some(&c.bob),
            )
            .await;
        assert_eq!(
            without_sn(&theirs.data()["items"][0]),
            without_sn(&nobodys.data()["items"][0])
        );
        for path in ["/api/v1/gateway/GW-ANN001", "/api/v1/gateway/GW-NONE001"] {
            let r = app.get(path, Some(&c.bob)).await;
            r.expect_code(305);
            assert_eq!(r.msg(), "Gateway does not exist");
        }
        let r = app.get("/api/v1/audit", Some(&c.bob)).await;
        let infos = r.data()["infos"].as_array().cloned().unwrap_or_default();
        assert_eq!(infos.len(), 2);
        let strip = |e: &Value| {
            let mut e = e.clone();
            for k in ["id", "target", "createAt"] {
                e.as_object_mut().map(|m| m.remove(k));
            }
            e
        };
        assert_eq!(strip(&infos[0]), strip(&infos[1]), "{}", r.text());
        // Bob's own gateway is his to act on: refusals there still file under his plant.
        let r = app
            .post("/api/v1/gateway/GW-BOB001/restart", json!({}), Some(&c.bob))
            .await;
        r.expect_code(0);
        let r = app
            .get("/api/v1/audit?target=GW-BOB001", Some(&c.bob))
            .await;
        assert_eq!(
            r.data()["infos"][0]["plantName"],
            "Bob roof",
            "{}",
            r.text()
        );
    }
}
