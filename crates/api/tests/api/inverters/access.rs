//! Tenancy: another tenant's inverter, company staff, no token.

use super::*;

#[tokio::test]
async fn another_tenants_inverter_answers_600_everywhere() {
    for app in spawn().await {
        let c = reporting_inverters(&app).await;
        let r = app.get("/api/v1/inverters", Some(&c.bob)).await;
        assert_eq!(r.data()["total"], 1);
        assert_eq!(r.data()["infos"][0]["sn"], "BOB-INV-01");
        for path in [
            "",
            "/realtime/input",
            "/realtime/output",
            "/pvIVRealtime",
            "/input/day",
            "/output/day",
            "/day",
            "/month",
            "/year",
            "/total",
        ] {
            app.get(&format!("/api/v1/inverter/2306012345{path}"), Some(&c.bob))
                .await
                .expect_code(600);
        }
        for port in ["grid", "load", "battery", "eps", "meter", "gen"] {
            app.get(
                &format!("/api/v1/inverter/{port}/2306012345/realtime"),
                Some(&c.bob),
            )
            .await
            .expect_code(600);
        }
        app.post(
            "/api/v1/inverter/2306012345/alias",
            json!({"alias": "mine"}),
            Some(&c.bob),
        )
        .await
        .expect_code(600);
        app.post(
            "/api/v1/inverter/2306012345/delete",
            json!({}),
            Some(&c.bob),
        )
        .await
        .expect_code(600);
        // The message is the catalogue's, the same as for an SN nobody has.
        let theirs = app.get("/api/v1/inverter/2306012345", Some(&c.bob)).await;
        let missing = app.get("/api/v1/inverter/NOPE", Some(&c.bob)).await;
        assert_eq!(theirs.json, missing.json);
    }
}

#[tokio::test]
async fn company_staff_see_no_owners_inverters_and_no_token_is_401() {
    for app in spawn().await {
        reporting_inverters(&app).await;
        let company = app.company("Acme Solar").await;
        let (_, staff) = app
            .signed_in(
                "staff@example.com",
                BuiltinRole::CompanyStaff,
                Some(company),
            )
            .await;
        // Company staff hold inverter.view but see none of the owners' plants.
        let r = app.get("/api/v1/inverters", Some(&staff)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 0);
        app.get("/api/v1/inverter/2306012345", Some(&staff))
            .await
            .expect_code(600);
        app.get("/api/v1/inverters", None).await.expect_401();
    }
}
