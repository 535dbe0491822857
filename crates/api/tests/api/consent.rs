//! Consent to company relations through the router. A company's request to become an owner's
//! customer, or another company's principal, changes nothing until the one asked accepts;
//! declining, withdrawing and ending narrow access again; nobody answers someone else's
//! request (it looks missing). The shared-management read and the plant list's `share=1`.

use crate::common;

use common::{App, Resp, fixtures, spawn};
use domain::{ids::CompanyId, user::BuiltinRole};
use serde_json::json;

const MISSING: i64 = 987_654;

struct World {
    root: String,
    sun_admin: String,
    sun_staff: String,
    moon_admin: String,
    star_admin: String,
    ann: String,
    bob: String,
}

async fn world(app: &App) -> World {
    let (_, root) = app
        .signed_in("root@portal.example", BuiltinRole::InternalAdmin, None)
        .await;
    let sun = fixtures::add_company(app, &root, "Sun Co", "boss@sun.example").await;
    fixtures::add_company(app, &root, "Moon Co", "boss@moon.example").await;
    fixtures::add_company(app, &root, "Star Co", "boss@star.example").await;
    let (_, sun_staff) = app
        .signed_in(
            "staff@sun.example",
            BuiltinRole::CompanyStaff,
            Some(CompanyId(sun)),
        )
        .await;
    let (_, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    World {
        root,
        sun_admin: app
            .login("boss@sun.example", fixtures::COMPANY_ADMIN_PASSWORD)
            .await
            .access,
        sun_staff,
        moon_admin: app
            .login("boss@moon.example", fixtures::COMPANY_ADMIN_PASSWORD)
            .await
            .access,
        star_admin: app
            .login("boss@star.example", fixtures::COMPANY_ADMIN_PASSWORD)
            .await
            .access,
        ann,
        bob,
    }
}

/// Ann's plant with a gateway and an inverter: the plant's id.
async fn anns_plant(app: &App, w: &World) -> i64 {
    let plant = fixtures::plant(app, &w.ann, fixtures::madrid_plant("Ann roof", 1, 5)).await;
    let gw = fixtures::bound_gateway(app, &w.root, &w.ann, plant, "GWANN001").await;
    fixtures::inverter(app, gw, "INVANN01").await;
    plant
}

/// What Sun's staff and administrator reach of Ann's plant: the plant, gateway and inverter
/// codes, and whether the administrator reads the gateway's key.
async fn reach(app: &App, w: &World, plant: i64) -> (i64, i64, i64, bool) {
    let staff = Some(w.sun_staff.as_str());
    let p = app
        .get(&format!("/api/v1/plant/{plant}"), staff)
        .await
        .code();
    let g = app.get("/api/v1/gateway/GWANN001", staff).await.code();
    let i = app.get("/api/v1/inverter/INVANN01", staff).await.code();
    let admin = app
        .get("/api/v1/gateway/GWANN001", Some(&w.sun_admin))
        .await;
    let key = admin.code() == 0 && admin.data()["key"].as_str().is_some_and(|k| !k.is_empty());
    (p, g, i, key)
}

const HIDDEN: (i64, i64, i64, bool) = (700, 305, 600, false);
const SEEN: (i64, i64, i64, bool) = (0, 0, 0, true);

async fn offer(app: &App, w: &World, account: &str, message: &str) -> i64 {
    let r = app
        .post(
            "/api/v1/customer",
            json!({"account": account, "message": message}),
            Some(&w.sun_admin),
        )
        .await;
    r.expect_code(0);
    r.data().as_i64().expect("offer id")
}

async fn answer(app: &App, token: &str, offer: i64, how: &str) -> Resp {
    app.post(
        &format!("/api/v1/customer/offer/{offer}/{how}"),
        json!({}),
        Some(token),
    )
    .await
}

#[tokio::test]
async fn a_customer_request_shows_nothing_until_the_owner_accepts_and_ending_it_hides_again() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let plant = anns_plant(&app, &w).await;
        assert_eq!(reach(&app, &w, plant).await, HIDDEN, "[{b}] before");

        let id = offer(&app, &w, "ann@example.com", "Yearly checks").await;
        assert_eq!(reach(&app, &w, plant).await, HIDDEN, "[{b}] asked only");
        let list = app.get("/api/v1/plants", Some(&w.sun_staff)).await;
        assert_eq!(list.data()["total"], 0, "[{b}]");
        // The company lists it as pending, not as a customer.
        let made = app.get("/api/v1/customer/offers", Some(&w.sun_admin)).await;
        assert_eq!(made.data()[0]["id"].as_i64(), Some(id), "[{b}]");
        assert_eq!(made.data()[0]["status"], "pending", "[{b}]");
        let customers = app.get("/api/v1/customers", Some(&w.sun_admin)).await;
        assert_eq!(customers.data()["total"], 0, "[{b}]");

        // Ann sees who asks, the note and what its staff would be able to do.
        let asked = app
            .get("/api/v1/customer/offers/received", Some(&w.ann))
            .await;
        asked.expect_code(0);
        let o = &asked.data()[0];
        assert_eq!(o["companyName"], "Sun Co", "[{b}]");
        assert_eq!(o["message"], "Yearly checks", "[{b}]");
        let rights: Vec<&str> = o["rights"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["key"].as_str())
            .collect();
        for key in ["station.view", "gateway.key", "inverter.power"] {
            assert!(rights.contains(&key), "[{b}] {key} in {rights:?}");
        }
        assert!(!rights.contains(&"station.share"), "[{b}] {rights:?}");

        // Nobody but Ann answers it: Bob and the company's own admin find nothing.
        let missing = answer(&app, &w.bob, MISSING, "accept").await;
        missing.expect_code(4);
        for token in [&w.bob, &w.sun_admin, &w.star_admin] {
            let r = answer(&app, token, id, "accept").await;
            assert_eq!(r.json, missing.json, "[{b}]");
            let r = answer(&app, token, id, "decline").await;
            assert_eq!(r.json, missing.json, "[{b}]");
        }
        assert_eq!(reach(&app, &w, plant).await, HIDDEN, "[{b}] still asked");

        answer(&app, &w.ann, id, "accept").await.expect_code(0);
        assert_eq!(reach(&app, &w, plant).await, SEEN, "[{b}] accepted");
        answer(&app, &w.ann, id, "accept").await.expect_code(4);
        let customers = app.get("/api/v1/customers", Some(&w.sun_admin)).await;
        assert_eq!(customers.data()["total"], 1, "[{b}]");

        // Ann ends it: hidden again; someone else cannot end it.
        let shares = app.get("/api/v1/shares", Some(&w.ann)).await;
        let relation = shares.data()["companies"][0]["id"].as_i64().unwrap();
        let end = |token: String| {
            let app = &app;
            async move {
                app.post(
                    &format!("/api/v1/customer/relation/{relation}/end"),
                    json!({}),
                    Some(&token),
                )
                .await
            }
        };
        end(w.bob.clone()).await.expect_code(4);
        end(w.sun_admin.clone()).await.expect_code(4);
        assert_eq!(reach(&app, &w, plant).await, SEEN, "[{b}]");
        end(w.ann.clone()).await.expect_code(0);
        assert_eq!(reach(&app, &w, plant).await, HIDDEN, "[{b}] ended");
        let shares = app.get("/api/v1/shares", Some(&w.ann)).await;
        assert_eq!(shares.data()["companies"], json!([]), "[{b}]");

        let audit = |action: &'static str| {
            let app = &app;
            let root = w.root.clone();
            async move {
                app.get(&format!("/api/v1/audit?action={action}"), Some(&root))
                    .await
                    .data()["total"]
                    .as_i64()
            }
        };
        for action in ["customer.offer", "customer.accept", "customer.leave"] {
            assert_eq!(audit(action).await, Some(1), "[{b}] {action}");
        }
    }
}

#[tokio::test]
async fn declined_and_withdrawn_requests_leave_nothing_and_bad_requests_change_nothing() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let plant = anns_plant(&app, &w).await;
        let t = Some(w.sun_admin.as_str());

        // Bad input and missing rights: nothing asked.
        let long = json!({"account": "ann@example.com", "message": "m".repeat(201)});
        let r = app.post("/api/v1/customer", long, t).await;
        r.expect_code(4);
        assert!(r.msg().contains("message"), "[{b}] {}", r.msg());
        app.post(
            "/api/v1/customer",
            json!({"account": "ann@example.com"}),
            Some(&w.sun_staff),
        )
        .await
        .expect_code(2);
        let received = app
            .get("/api/v1/customer/offers/received", Some(&w.ann))
            .await;
        assert_eq!(received.data(), &json!([]), "[{b}]");

        // Declined: gone for both, and the company may ask again.
        let id = offer(&app, &w, "ann@example.com", "").await;
        app.post("/api/v1/customer", json!({"account": "ann@example.com"}), t)
            .await
            .expect_code(207);
        answer(&app, &w.ann, id, "decline").await.expect_code(0);
        assert_eq!(reach(&app, &w, plant).await, HIDDEN, "[{b}] declined");
        let made = app.get("/api/v1/customer/offers", t).await;
        assert_eq!(made.data(), &json!([]), "[{b}]");
        answer(&app, &w.ann, id, "accept").await.expect_code(4);

        // Withdrawn: only by the company that asked (staff without customer.edit get 2, another
        // company finds nothing); the owner can no longer accept it.
        let id = offer(&app, &w, "ann@example.com", "again").await;
        let withdraw = |token: String, id: i64| {
            let app = &app;
            async move {
                app.post(
                    &format!("/api/v1/customer/offer/{id}/withdraw"),
                    json!({}),
                    Some(&token),
                )
                .await
            }
        };
        withdraw(w.sun_staff.clone(), id).await.expect_code(2);
        let theirs = withdraw(w.star_admin.clone(), id).await;
        let none = withdraw(w.star_admin.clone(), MISSING).await;
        theirs.expect_code(4);
        assert_eq!(theirs.json, none.json, "[{b}]");
        withdraw(w.sun_admin.clone(), id).await.expect_code(0);
        answer(&app, &w.ann, id, "accept").await.expect_code(4);
        assert_eq!(reach(&app, &w, plant).await, HIDDEN, "[{b}] withdrawn");
    }
}

#[tokio::test]
async fn an_agent_request_needs_the_other_companys_acceptance_and_either_side_ends_it() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let moon_plant = fixtures::plant(
            &app,
            &w.moon_admin,
            fixtures::madrid_plant("Moon field", 1, 50),
        )
        .await;
        let sees = |token: String| {
            let app = &app;
            async move {
                app.get(&format!("/api/v1/plant/{moon_plant}"), Some(&token))
                    .await
                    .code()
            }
        };
        let r = app
            .post(
                "/api/v1/agent",
                json!({"account": "boss@moon.example", "message": "Distribute for us"}),
                Some(&w.sun_admin),
            )
            .await;
        r.expect_code(0);
        let id = r.data().as_i64().unwrap();
        assert_eq!(sees(w.sun_staff.clone()).await, 700, "[{b}] asked only");
        assert_eq!(
            app.get("/api/v1/agents", Some(&w.sun_admin)).await.data()["total"],
            0,
            "[{b}]"
        );

        // Moon sees the request with Sun's rights; Sun sees it as made.
        let offers = app.get("/api/v1/agent/offers", Some(&w.moon_admin)).await;
        offers.expect_code(0);
        assert_eq!(
            offers.data()["received"][0]["companyName"],
            "Sun Co",
            "[{b}]"
        );
        assert_eq!(offers.data()["received"][0]["message"], "Distribute for us");
        let made = app.get("/api/v1/agent/offers", Some(&w.sun_admin)).await;
        assert_eq!(made.data()["made"][0]["id"].as_i64(), Some(id), "[{b}]");

        // Only Moon's administrator answers: Sun itself and Star find nothing.
        let answer = |token: String, how: &'static str, id: i64| {
            let app = &app;
            async move {
                app.post(
                    &format!("/api/v1/agent/offer/{id}/{how}"),
                    json!({}),
                    Some(&token),
                )
                .await
            }
        };
        let missing = answer(w.star_admin.clone(), "accept", MISSING).await;
        missing.expect_code(4);
        for token in [&w.star_admin, &w.sun_admin] {
            let r = answer(token.clone(), "accept", id).await;
            assert_eq!(r.json, missing.json, "[{b}]");
        }
        let r = answer(w.star_admin.clone(), "decline", id).await;
        assert_eq!(r.json, missing.json, "[{b}]");
        // Internal staff do not answer for a company.
        answer(w.root.clone(), "accept", id).await.expect_code(2);

        // Declined: nothing; asked again and accepted: Sun's staff see Moon's plant.
        answer(w.moon_admin.clone(), "decline", id)
            .await
            .expect_code(0);
        assert_eq!(sees(w.sun_staff.clone()).await, 700, "[{b}] declined");
        let again = app
            .post(
                "/api/v1/agent",
                json!({"account": "boss@moon.example"}),
                Some(&w.sun_admin),
            )
            .await;
        let again = again.data().as_i64().unwrap();
        answer(w.moon_admin.clone(), "accept", again)
            .await
            .expect_code(0);
        assert_eq!(sees(w.sun_staff.clone()).await, 0, "[{b}] accepted");
        let principal = app
            .get("/api/v1/agent/principal", Some(&w.moon_admin))
            .await;
        assert_eq!(principal.data()["companyName"], "Sun Co", "[{b}]");

        // Moon leaves: hidden again.
        app.post(
            "/api/v1/agent/principal/leave",
            json!({}),
            Some(&w.star_admin),
        )
        .await
        .expect_code(4);
        app.post(
            "/api/v1/agent/principal/leave",
            json!({}),
            Some(&w.moon_admin),
        )
        .await
        .expect_code(0);
        assert_eq!(sees(w.sun_staff.clone()).await, 700, "[{b}] left");
        let principal = app
            .get("/api/v1/agent/principal", Some(&w.moon_admin))
            .await;
        assert!(principal.data().is_null(), "[{b}]");

        // Withdrawn by Sun: Moon can no longer accept it.
        let third = app
            .post(
                "/api/v1/agent",
                json!({"account": "boss@moon.example"}),
                Some(&w.sun_admin),
            )
            .await;
        let third = third.data().as_i64().unwrap();
        answer(w.moon_admin.clone(), "withdraw", third)
            .await
            .expect_code(4);
        answer(w.sun_admin.clone(), "withdraw", third)
            .await
            .expect_code(0);
        answer(w.moon_admin.clone(), "accept", third)
            .await
            .expect_code(4);
        assert_eq!(sees(w.sun_staff.clone()).await, 700, "[{b}] withdrawn");
    }
}

#[tokio::test]
async fn shared_management_lists_shares_both_ways_and_the_plant_list_narrows_to_shared() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let anns = fixtures::plant(&app, &w.ann, fixtures::madrid_plant("Ann roof", 1, 5)).await;
        let bobs = fixtures::plant(&app, &w.bob, fixtures::madrid_plant("Bob barn", 1, 5)).await;
        fixtures::share(&app, &w.bob, bobs, &[("ann@example.com", "maintainer")]).await;

        let shares = app.get("/api/v1/shares", Some(&w.ann)).await;
        shares.expect_code(0);
        let d = shares.data();
        assert_eq!(d["given"], json!([]), "[{b}]");
        assert_eq!(d["received"][0]["plantId"].as_i64(), Some(bobs), "[{b}]");
        assert_eq!(d["received"][0]["account"], "bob@example.com", "[{b}]");
        assert_eq!(d["received"][0]["role"], "maintainer", "[{b}]");
        let bob_view = app.get("/api/v1/shares", Some(&w.bob)).await;
        assert_eq!(bob_view.data()["given"][0]["account"], "ann@example.com");
        // Owners have no agent part.
        assert_eq!(d["agents"], json!([]), "[{b}]");
        assert!(d["principal"].is_null(), "[{b}]");

        let ids = |r: &Resp| -> Vec<i64> {
            r.data()["infos"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|p| p["id"].as_i64())
                .collect()
        };
        let all = app.get("/api/v1/plants", Some(&w.ann)).await;
        let mut seen = ids(&all);
        seen.sort();
        assert_eq!(seen, [anns, bobs], "[{b}]");
        for q in ["share=1", "share=true", "share=1&page=1&limit=10"] {
            let r = app.get(&format!("/api/v1/plants?{q}"), Some(&w.ann)).await;
            assert_eq!(ids(&r), [bobs], "[{b}] {q}");
            assert_eq!(r.data()["total"], 1, "[{b}] {q}");
        }
        for q in ["share=", "share=0", "share&lan=en", "share=yes"] {
            let r = app.get(&format!("/api/v1/plants?{q}"), Some(&w.ann)).await;
            r.expect_code(0);
            assert_eq!(r.data()["total"], 2, "[{b}] {q}");
        }
        // Bob owns his plant: it is not "shared with" him.
        let r = app.get("/api/v1/plants?share=1", Some(&w.bob)).await;
        assert_eq!(r.data()["total"], 0, "[{b}]");

        // A company administrator sees the agency part.
        let d = app.get("/api/v1/shares", Some(&w.sun_admin)).await;
        d.expect_code(0);
        assert_eq!(d.data()["mayEditAgents"], true, "[{b}]");
    }
}
