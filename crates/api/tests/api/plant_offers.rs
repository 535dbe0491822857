//! Nobody gets a company's plant in their account without consent (issue 12, finding 11):
//! company staff put a plant straight into a customer's account; anyone else is offered it and
//! accepts (becoming the company's customer) or declines, and the maker may withdraw it.

use crate::common;

use common::{App, fixtures, spawn};
use domain::user::BuiltinRole;
use serde_json::{Value, json};

const PW: &str = "secret12";

fn depot(name: &str, owner: &str) -> Value {
    json!({"name": name, "timezone": "UTC", "lon": 1, "lat": 2, "owner": owner, "totalPower": 8,
           "charges": [{"type": 1, "price": 0.2}]})
}

async fn create(app: &App, token: &str, body: Value) -> i64 {
    let r = app.post("/api/v1/plant", body, Some(token)).await;
    r.expect_code(0);
    r.data()
        .as_i64()
        .unwrap_or_else(|| panic!("no id in {}", r.text()))
}

async fn plant_ids(app: &App, token: &str) -> Vec<i64> {
    let r = app
        .get("/api/v1/plants?page=1&limit=100", Some(token))
        .await;
    r.data()["infos"]
        .as_array()
        .map(|a| a.iter().filter_map(|p| p["id"].as_i64()).collect())
        .unwrap_or_default()
}

async fn offers(app: &App, token: &str) -> Vec<Value> {
    let r = app.get("/api/v1/plant/offers", Some(token)).await;
    r.expect_code(0);
    r.data().as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn company_staff_offer_plants_to_non_customers_who_accept_or_decline() {
    for app in spawn().await {
        let acme = app.company("Acme Solar").await;
        for account in ["ann@example.com", "eve@example.com"] {
            app.user(account, PW, BuiltinRole::PlantOwner, None).await;
        }
        app.user("staff@acme.com", PW, BuiltinRole::CompanyStaff, Some(acme))
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let eve = app.login("eve@example.com", PW).await.access;
        let staff = app.login("staff@acme.com", PW).await.access;

        // Ann is nobody's customer: the plant stays with the staff member, offered to her.
        let roof = create(&app, &staff, depot("Ann roof", "ann@example.com")).await;
        assert!(
            plant_ids(&app, &ann).await.is_empty(),
            "not hers before she accepts"
        );
        app.get(&format!("/api/v1/plant/{roof}"), Some(&ann))
            .await
            .expect_code(700);
        let detail = app
            .get(&format!("/api/v1/plant/{roof}"), Some(&staff))
            .await;
        assert_eq!(detail.data()["offer"]["account"], "ann@example.com");
        assert_eq!(detail.data()["master"]["account"], "staff@acme.com");
        assert_eq!(detail.data()["charges"].as_array().map(Vec::len), Some(1));
        let list = app
            .get("/api/v1/plants?page=1&limit=10", Some(&staff))
            .await;
        assert_eq!(list.data()["infos"][0]["offered"], true);

        let mine = offers(&app, &ann).await;
        assert_eq!(mine.len(), 1);
        assert_eq!(mine[0]["plantId"], roof);
        assert_eq!(mine[0]["companyName"], "Acme Solar");
        assert_eq!(mine[0]["offeredBy"], "staff@acme.com");
        assert!(offers(&app, &eve).await.is_empty());

        // Only Ann may answer it; declined, it stays with its maker.
        let accept = format!("/api/v1/plant/{roof}/offer/accept");
        app.post(&accept, json!({}), Some(&eve))
            .await
            .expect_code(700);
        app.post(
            &format!("/api/v1/plant/{roof}/offer/decline"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        app.post(&accept, json!({}), Some(&ann))
            .await
            .expect_code(700);
        assert!(offers(&app, &ann).await.is_empty());
        assert_eq!(plant_ids(&app, &staff).await, vec![roof]);

        // Accepted, the plant is hers (still the company's to manage) and she is Acme's
        // customer: the next plant goes straight into her account.
        let shed = create(&app, &staff, depot("Ann shed", "ann@example.com")).await;
        app.post(
            &format!("/api/v1/plant/{shed}/offer/accept"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        let detail = app.get(&format!("/api/v1/plant/{shed}"), Some(&ann)).await;
        assert_eq!(detail.data()["master"]["account"], "ann@example.com");
        assert!(detail.data()["offer"].is_null());
        assert!(
            plant_ids(&app, &staff).await.contains(&shed),
            "the company keeps it"
        );
        let barn = create(&app, &staff, depot("Ann barn", "ann@example.com")).await;
        assert!(offers(&app, &ann).await.is_empty());
        assert!(plant_ids(&app, &ann).await.contains(&barn));

        // The maker may withdraw an offer; Eve then has nothing to accept.
        let hut = create(&app, &staff, depot("Eve hut", "eve@example.com")).await;
        assert_eq!(offers(&app, &eve).await.len(), 1);
        app.post(
            &format!("/api/v1/plant/{hut}/offer/cancel"),
            json!({}),
            Some(&staff),
        )
        .await
        .expect_code(0);
        assert!(offers(&app, &eve).await.is_empty());
        app.post(
            &format!("/api/v1/plant/{hut}/offer/accept"),
            json!({}),
            Some(&eve),
        )
        .await
        .expect_code(700);
    }
}

#[tokio::test]
async fn owners_create_only_for_themselves_and_plants_go_only_to_owner_accounts() {
    for app in spawn().await {
        let acme = app.company("Acme Solar").await;
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("bob@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("staff@acme.com", PW, BuiltinRole::CompanyStaff, Some(acme))
            .await;
        app.user("boss@acme.com", PW, BuiltinRole::CompanyAdmin, Some(acme))
            .await;
        let bob = app.login("bob@example.com", PW).await.access;
        let staff = app.login("staff@acme.com", PW).await.access;
        let admin = fixtures::admin(&app).await;

        let r = app
            .post(
                "/api/v1/plant",
                depot("Bob for Ann", "ann@example.com"),
                Some(&bob),
            )
            .await;
        r.expect_code(2);
        let r = app
            .post(
                "/api/v1/plant",
                depot("For the boss", "boss@acme.com"),
                Some(&staff),
            )
            .await;
        r.expect_code(4);
        let r = app
            .post(
                "/api/v1/plant",
                depot("For a ghost", "ghost@example.com"),
                Some(&staff),
            )
            .await;
        r.expect_code(105);
        // Platform staff act for owners directly.
        let id = create(
            &app,
            &admin,
            depot("Ann by the platform", "ann@example.com"),
        )
        .await;
        let ann = app.login("ann@example.com", PW).await.access;
        assert!(plant_ids(&app, &ann).await.contains(&id));
    }
}
