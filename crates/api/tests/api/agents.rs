//! Agents through the router: the checks (900, then 902 alike for every account that cannot be
//! an agent, 202, 903), asking and the other company accepting, listing, the picker list and
//! deleting; another company's agent answers like a missing one.

use crate::common;

use common::{App, fixtures, spawn};
use domain::{ids::CompanyId, user::BuiltinRole};
use serde_json::json;

struct World {
    root: String,
    sun: i64,
    sun_admin: String,
    sun_staff: String,
    moon: i64,
    star_admin: String,
    moon_admin: String,
    owner: String,
}

async fn world(app: &App) -> World {
    let (_, root) = app
        .signed_in("root@portal.example", BuiltinRole::InternalAdmin, None)
        .await;
    let sun = fixtures::add_company(app, &root, "Sun Co", "boss@sun.example").await;
    let moon = fixtures::add_company(app, &root, "Moon Co", "boss@moon.example").await;
    fixtures::add_company(app, &root, "Star Co", "boss@star.example").await;
    let (_, sun_staff) = app
        .signed_in(
            "staff@sun.example",
            BuiltinRole::CompanyStaff,
            Some(CompanyId(sun)),
        )
        .await;
    app.user(
        "staff@moon.example",
        "secret123",
        BuiltinRole::CompanyStaff,
        Some(CompanyId(moon)),
    )
    .await;
    let (_, owner) = app
        .signed_in("owner@example.com", BuiltinRole::PlantOwner, None)
        .await;
    World {
        root,
        sun,
        sun_admin: app
            .login("boss@sun.example", fixtures::COMPANY_ADMIN_PASSWORD)
            .await
            .access,
        sun_staff,
        moon,
        star_admin: app
            .login("boss@star.example", fixtures::COMPANY_ADMIN_PASSWORD)
            .await
            .access,
        moon_admin: app
            .login("boss@moon.example", fixtures::COMPANY_ADMIN_PASSWORD)
            .await
            .access,
        owner,
    }
}

#[tokio::test]
async fn agent_checks_answer_alike_for_every_account_that_cannot_be_an_agent() {
    for app in spawn().await {
        let w = world(&app).await;
        let t = Some(w.sun_admin.as_str());
        let check = |account: &'static str| {
            let app = &app;
            async move {
                app.get(&format!("/api/v1/agent/check?account={account}"), t)
                    .await
            }
        };
        // Missing, internal, staff and owner accounts all answer the same: nothing tells which
        // accounts exist or belong to the platform's staff.
        let alike = [
            "nobody@example.com",
            "root@portal.example",
            "staff@moon.example",
            "owner@example.com",
            "not-an-account",
        ];
        let first = check(alike[0]).await;
        first.expect_code(902);
        for account in &alike[1..] {
            let r = check(account).await;
            assert_eq!(r.json, first.json, "[{}] {account}", app.backend);
            let r = app
                .post("/api/v1/agent", json!({"account": account}), t)
                .await;
            assert_eq!(r.json, first.json, "[{}] offer {account}", app.backend);
        }
        check("boss@sun.example").await.expect_code(900);
        check("staff@sun.example").await.expect_code(900);
        check("boss@moon.example").await.expect_code(0);

        let r = app
            .post("/api/v1/agent", json!({"account": "boss@moon.example"}), t)
            .await;
        r.expect_code(0);
        // Asked and not answered yet: 202, and no agency.
        check("boss@moon.example").await.expect_code(202);
        app.post("/api/v1/agent", json!({"account": "boss@moon.example"}), t)
            .await
            .expect_code(202);
        assert_eq!(app.get("/api/v1/agents", t).await.data()["total"], 0);
        let offer = r.data().as_i64().unwrap();
        app.post(
            &format!("/api/v1/agent/offer/{offer}/accept"),
            json!({}),
            Some(&w.moon_admin),
        )
        .await
        .expect_code(0);
        check("boss@moon.example").await.expect_code(202);
        // Moon serves Sun now: Star cannot have it.
        let star = Some(w.star_admin.as_str());
        app.get("/api/v1/agent/check?account=boss@moon.example", star)
            .await
            .expect_code(903);
        app.post(
            "/api/v1/agent",
            json!({"account": "boss@moon.example"}),
            star,
        )
        .await
        .expect_code(903);
        let star_list = app.get("/api/v1/agents", star).await;
        assert_eq!(star_list.data()["total"], 0, "[{}]", app.backend);
    }
}

#[tokio::test]
async fn agent_checks_are_limited_per_caller() {
    for app in spawn().await {
        let w = world(&app).await;
        let t = Some(w.sun_admin.as_str());
        let mut codes = Vec::new();
        for i in 0..62 {
            let r = app
                .get(
                    &format!("/api/v1/agent/check?account=probe{i}@example.com"),
                    t,
                )
                .await;
            codes.push(r.code());
        }
        assert!(codes[..60].iter().all(|c| *c == 902), "[{}]", app.backend);
        assert_eq!(&codes[60..], &[7, 7], "[{}]", app.backend);
        // Another caller has a limit of their own.
        app.get(
            "/api/v1/agent/check?account=x@example.com",
            Some(&w.star_admin),
        )
        .await
        .expect_code(902);
    }
}

#[tokio::test]
async fn agents_are_listed_picked_and_deleted_only_by_their_company() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = Some(w.sun_admin.as_str());
        let id =
            common::fixtures::agent(&app, &w.sun_admin, "boss@moon.example", &w.moon_admin).await;

        let page = app.get("/api/v1/agents?page=1&limit=10&name=MOON", t).await;
        page.expect_code(0);
        assert_eq!(page.data()["total"], 1, "[{b}]");
        let a = &page.data()["infos"][0];
        assert_eq!(a["id"].as_i64(), Some(id), "[{b}]");
        assert_eq!(a["companyId"].as_i64(), Some(w.moon), "[{b}]");
        assert_eq!(a["companyName"], "Moon Co", "[{b}]");
        assert_eq!(a["adminAccount"], "boss@moon.example", "[{b}]");
        assert_eq!(a["contactName"], "Ann", "[{b}]");
        assert_eq!(
            (a["plants"].as_i64(), a["gateways"].as_i64()),
            (Some(0), Some(0)),
            "[{b}]"
        );
        let none = app.get("/api/v1/agents?name=star", t).await;
        assert_eq!(none.data()["total"], 0, "[{b}]");
        let picker = app.get("/api/v1/agents/list", t).await;
        picker.expect_code(0);
        assert_eq!(
            picker.data(),
            &json!([{"companyId": w.moon, "companyName": "Moon Co"}]),
            "[{b}]"
        );
        // Staff without company.agent and owners are refused.
        for token in [&w.sun_staff, &w.owner] {
            let t = Some(token.as_str());
            app.get("/api/v1/agents", t).await.expect_code(2);
            app.get("/api/v1/agents/list", t).await.expect_code(2);
            app.get("/api/v1/agent/check?account=boss@moon.example", t)
                .await
                .expect_code(2);
            app.post("/api/v1/agent", json!({"account": "boss@star.example"}), t)
                .await
                .expect_code(2);
            app.post(&format!("/api/v1/agent/{id}/delete"), json!({}), t)
                .await
                .expect_code(2);
        }
        // Another company's agent answers like a missing one and stays.
        let star = Some(w.star_admin.as_str());
        let other = app
            .post(&format!("/api/v1/agent/{id}/delete"), json!({}), star)
            .await;
        let missing = app
            .post("/api/v1/agent/987654/delete", json!({}), star)
            .await;
        other.expect_code(4);
        assert_eq!(other.json, missing.json, "[{b}]");
        assert_eq!(
            app.get("/api/v1/agents", t).await.data()["total"],
            1,
            "[{b}]"
        );

        // Internal administrators see any company's agents.
        let root = Some(w.root.as_str());
        let theirs = app
            .get(&format!("/api/v1/agents?companyId={}", w.sun), root)
            .await;
        assert_eq!(theirs.data()["total"], 1, "[{b}]");

        app.post(&format!("/api/v1/agent/{id}/delete"), json!({}), t)
            .await
            .expect_code(0);
        assert_eq!(
            app.get("/api/v1/agents", t).await.data()["total"],
            0,
            "[{b}]"
        );
        let audit = app.get("/api/v1/audit?action=agent.delete", root).await;
        assert_eq!(
            audit.data()["infos"].as_array().map(Vec::len),
            Some(1),
            "[{b}]"
        );
        let audit = app.get("/api/v1/audit?action=agent.accept", root).await;
        assert_eq!(
            audit.data()["infos"].as_array().map(Vec::len),
            Some(1),
            "[{b}]"
        );
    }
}
