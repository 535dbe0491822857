//! Power on and off, with the spec's refusals.

use super::*;

#[tokio::test]
async fn power_on_and_off_with_the_specs_refusals() {
    for app in spawn().await {
        let c = settable_inverters(&app).await;
        // Without the device link: connection failed.
        app.get(&format!("/api/v1/inverter/{INV}/shutdown"), Some(&c.ann))
            .await
            .expect_code(606);
        let l = linked(app).await;
        let app = &l.app;
        let mut gw = gateway(&l, "GW-SET01", "KEY12345", Mode::Answer).await;
        for (path, kind) in [("shutdown", "power_off"), ("boot", "power_on")] {
            let r = app
                .get(&format!("/api/v1/inverter/{INV}/{path}"), Some(&c.ann))
                .await;
            r.expect_code(0);
            assert_command(r.data(), kind, INV);
            let id = r.data()["id"].as_i64().expect("id");
            assert_eq!(
                fixtures::settled_command(app, &c.ann, id).await["status"],
                "succeeded"
            );
            let cmd = tokio::time::timeout(Duration::from_secs(10), gw.received.recv())
                .await
                .expect("command")
                .expect("open");
            assert_eq!(cmd.kind, kind);
        }
        // Maintainers may, visitors and strangers may not.
        app.get(&format!("/api/v1/inverter/{INV}/boot"), Some(&c.max))
            .await
            .expect_code(0);
        app.get(&format!("/api/v1/inverter/{INV}/boot"), Some(&c.vic))
            .await
            .expect_code(2);
        app.get(&format!("/api/v1/inverter/{INV}/boot"), Some(&c.bob))
            .await
            .expect_code(600);
        // A faulted inverter may be switched off but not on.
        set_status(app, c.inverter, 3).await;
        let r = app
            .get(&format!("/api/v1/inverter/{INV}/boot"), Some(&c.ann))
            .await;
        r.expect_code(604);
        assert_eq!(
            r.msg(),
            "The current state forbids remote debug, upgrade or power on/off"
        );
        app.get(&format!("/api/v1/inverter/{INV}/shutdown"), Some(&c.ann))
            .await
            .expect_code(0);
        set_status(app, c.inverter, 4).await;
        app.get(&format!("/api/v1/inverter/{INV}/shutdown"), Some(&c.ann))
            .await
            .expect_code(603);
        set_status(app, c.inverter, 0).await;
        app.get(&format!("/api/v1/inverter/{INV}/boot"), Some(&c.ann))
            .await
            .expect_code(602);
        // The gateway goes away: the dispatcher refuses as offline too.
        set_status(app, c.inverter, 1).await;
        drop(gw);
        wait_offline(app).await;
        app.get(&format!("/api/v1/inverter/{INV}/boot"), Some(&c.ann))
            .await
            .expect_code(602);
    }
}
