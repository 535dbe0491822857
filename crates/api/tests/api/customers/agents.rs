//! Agents' plants, visible to their principals and filtered by agent.

use super::*;
use domain::DeviceFamily;
use domain::ids::GatewayId;

#[tokio::test]
async fn agents_plants_are_the_principals_to_see_and_to_filter_by() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        // Beta is Alpha's agent; Gamma is nobody's.
        app.store
            .create_agent(w.a, w.b, domain::time::now_ms())
            .await
            .expect("agent");
        let c = app.company("Gamma Power").await;
        let (_, admin_c) = app
            .signed_in("admin@gamma.example", BuiltinRole::CompanyAdmin, Some(c))
            .await;
        let beta_plant = fixtures::plant(
            &app,
            &w.admin_b,
            fixtures::madrid_plant("Beta field", 1, 50),
        )
        .await;
        let gamma_plant =
            fixtures::plant(&app, &admin_c, fixtures::madrid_plant("Gamma lake", 1, 50)).await;
        let own_plant =
            fixtures::plant(&app, &w.admin_a, fixtures::madrid_plant("Alpha hq", 1, 10)).await;
        let gateway =
            fixtures::bound_gateway(&app, &w.internal, &w.admin_b, beta_plant, "GWBETA01").await;
        app.store
            .upsert_device(
                "INVBETA1",
                GatewayId(gateway),
                DeviceFamily::Inverter,
                1,
                "p",
                "m",
                None,
                domain::time::now_ms(),
            )
            .await
            .expect("device");
        let staff = Some(w.staff_a.as_str());

        let all = app.get("/api/v1/plants", staff).await;
        let mut seen = ids(&all);
        seen.sort();
        assert_eq!(
            seen,
            [beta_plant, own_plant],
            "[{b}] own and the agent's, not Gamma's"
        );
        app.get(&format!("/api/v1/plant/{beta_plant}"), staff)
            .await
            .expect_code(0);
        app.get(&format!("/api/v1/plant/{gamma_plant}"), staff)
            .await
            .expect_code(700);
        // The agent does not see the principal's plants.
        let agent = app.get("/api/v1/plants", Some(&w.admin_b)).await;
        assert_eq!(ids(&agent), [beta_plant], "[{b}]");

        let q = |list: &str, company: i64| {
            format!("/api/v1/{list}?page=1&limit=10&agentCompanyId={company}")
        };
        for (list, rows) in [("plants", 1), ("gateways", 1), ("inverters", 1)] {
            let r = app.get(&q(list, w.b.0), staff).await;
            r.expect_code(0);
            assert_eq!(r.data()["total"], rows, "[{b}] {list} of the agent");
            for (token, company, why) in [
                (staff, c.0, "not an agent of Alpha"),
                (staff, w.a.0, "Alpha itself is not its agent"),
                (Some(w.ann_token.as_str()), w.b.0, "an owner has no agents"),
                (Some(w.admin_b.as_str()), w.b.0, "Beta is not its own agent"),
            ] {
                let r = app.get(&q(list, company), token).await;
                r.expect_code(0);
                assert_eq!(r.data()["total"], 0, "[{b}] {list}: {why}");
                assert_eq!(r.data()["infos"], json!([]), "[{b}] {list}: {why}");
            }
            let r = app.get(&q(list, -1), staff).await;
            assert!(r.data()["total"].as_i64() >= Some(rows), "[{b}] {list} -1");
            // Internal administrators narrow to any company.
            let r = app.get(&q(list, w.b.0), Some(&w.internal)).await;
            assert_eq!(r.data()["total"], rows, "[{b}] {list} internal");
        }
        let r = app.get(&q("plants", c.0), Some(&w.internal)).await;
        assert_eq!(ids(&r), [gamma_plant], "[{b}]");
        let r = app.get(&q("plants/map", w.b.0), staff).await;
        assert_eq!(r.data().as_array().map(Vec::len), Some(1), "[{b}] map");

        // The agent's stock (a gateway it holds on no plant) is the principal's to see, not to
        // take or to read the key of; a company that is not the principal does not see it.
        let stock = json!({"sn": "GWSTOCK1", "key": "KEY12345"});
        app.post("/api/v1/gateway/create", stock.clone(), Some(&w.internal))
            .await
            .expect_code(0);
        app.post(
            "/api/v1/gateway/import/one",
            stock.clone(),
            Some(&w.admin_b),
        )
        .await
        .expect_code(0);
        let id = app
            .store
            .gateway_by_sn("GWSTOCK1")
            .await
            .expect("gateway")
            .expect("row")
            .id;
        let r = app.get(&q("gateways", w.b.0), staff).await;
        assert_eq!(
            r.data()["total"],
            2,
            "[{b}] the agent's bound and stock gateways"
        );
        let detail = app.get(&format!("/api/v1/gateway/{id}"), staff).await;
        detail.expect_code(0);
        assert!(
            detail.data()["key"].is_null(),
            "[{b}] no key for the principal"
        );
        app.get(&format!("/api/v1/gateway/{id}"), Some(&admin_c))
            .await
            .expect_code(305);
        app.post("/api/v1/gateway/import/one", stock, Some(&w.admin_a))
            .await
            .expect_code(301);
    }
}
