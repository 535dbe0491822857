//! The plant list narrowed to one customer (`customerId`, an owner's user id): exactly that
//! account's plants, and never more than the caller may see anyway.

use crate::common;

use common::{App, Resp, fixtures, spawn};
use domain::user::BuiltinRole;
use serde_json::json;

const MISSING: i64 = 987_654;

async fn plants(app: &App, query: String, token: Option<&str>) -> Resp {
    app.get(&format!("/api/v1/plants{query}"), token).await
}

fn ids(list: &Resp) -> Vec<i64> {
    list.data()["infos"]
        .as_array()
        .expect("infos")
        .iter()
        .map(|i| i["id"].as_i64().expect("id"))
        .collect()
}

fn markers(list: &Resp) -> usize {
    list.data().as_array().map_or(0, Vec::len)
}

/// Asked by the company and accepted by the owner (`owner`, their token).
async fn add_customer(app: &App, admin: &str, account: &str, owner: &str) {
    fixtures::customer(app, admin, json!({"account": account}), owner).await;
}

#[tokio::test]
async fn staff_narrowing_to_a_customer_see_exactly_their_plants_and_to_a_stranger_nothing() {
    for app in spawn().await {
        let b = app.backend;
        let alpha = app.company("Alpha Solar").await;
        let (_, admin) = app
            .signed_in(
                "admin@alpha.example",
                BuiltinRole::CompanyAdmin,
                Some(alpha),
            )
            .await;
        let (_, staff) = app
            .signed_in(
                "staff@alpha.example",
                BuiltinRole::CompanyStaff,
                Some(alpha),
            )
            .await;
        let (ann, ann_token) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (carol, carol_token) = app
            .signed_in("carol@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (dan, dan_token) = app
            .signed_in("dan@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let roof = fixtures::plant(&app, &ann_token, fixtures::madrid_plant("Ann roof", 1, 5));
        let ann_roof = roof.await;
        let barn = fixtures::plant(&app, &ann_token, fixtures::madrid_plant("Ann barn", 1, 8));
        let ann_barn = barn.await;
        let shed = fixtures::madrid_plant("Carol shed", 1, 3);
        let carols = fixtures::plant(&app, &carol_token, shed).await;
        fixtures::plant(&app, &dan_token, fixtures::madrid_plant("Dan farm", 1, 4)).await;
        add_customer(&app, &admin, "ann@example.com", &ann_token).await;
        add_customer(&app, &admin, "carol@example.com", &carol_token).await;
        let staff = Some(staff.as_str());

        assert_eq!(plants(&app, String::new(), staff).await.data()["total"], 3);
        let any = plants(&app, "?customerId=-1".into(), staff).await;
        assert_eq!(any.data()["total"], 3, "[{b}] -1 is any");
        let anns = plants(&app, format!("?customerId={}", ann.0), staff).await;
        assert_eq!(ids(&anns), [ann_barn, ann_roof], "[{b}]");
        assert_eq!(anns.data()["total"], 2, "[{b}]");
        let q = format!("?customerId={}&name=shed", carol.0);
        assert_eq!(ids(&plants(&app, q, staff).await), [carols], "[{b}]");
        let map = format!("/api/v1/plants/map?customerId={}", ann.0);
        assert_eq!(markers(&app.get(&map, staff).await), 2, "[{b}]");

        // Dan is no customer of Alpha: narrowing to him never widens what its staff see.
        let dans = plants(&app, format!("?customerId={}", dan.0), staff).await;
        assert_eq!(dans.data()["total"], 0, "[{b}]");
        assert!(ids(&dans).is_empty(), "[{b}]");
        let map = format!("/api/v1/plants/map?customerId={}", dan.0);
        assert_eq!(markers(&app.get(&map, staff).await), 0, "[{b}]");
        let missing = plants(&app, format!("?customerId={MISSING}"), staff).await;
        assert_eq!(missing.data()["total"], 0, "[{b}]");
        // Nor another owner's: Dan asking for Ann's plants gets an empty page.
        let q = format!("?customerId={}", ann.0);
        let nosy = plants(&app, q, Some(&dan_token)).await;
        assert_eq!(nosy.data()["total"], 0, "[{b}]");
    }
}
