//! Creating a plant (with a time-of-use tariff), and the values refused.

use super::*;

#[tokio::test]
async fn a_plant_with_a_time_of_use_tariff_is_created_listed_and_read_back() {
    for app in spawn().await {
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let id = create(&app, &ann, plant("Ann home plant")).await;

        let list = app
            .get("/api/v1/plants?page=1&limit=10&name=&status=", Some(&ann))
            .await;
        list.expect_code(0);
        let d = list.data();
        assert_eq!(
            (
                d["total"].as_i64(),
                d["pageSize"].as_i64(),
                d["pageNumber"].as_i64()
            ),
            (Some(1), Some(10), Some(1))
        );
        let item = &d["infos"][0];
        assert_eq!(item["id"].as_i64(), Some(id), "{}", list.ctx);
        assert_eq!(item["name"], "Ann home plant");
        assert!(item["masterId"].is_i64() && item["status"].is_i64() && item["type"].is_i64());
        assert!(
            item["share"].is_boolean()
                && item["existCamera"].is_boolean()
                && item["plantPermission"].is_array()
        );
        assert!(
            fixtures::is_update_at(&item["updateAt"]),
            "{}",
            item["updateAt"]
        );
        assert!(
            item["pac"].is_number() && item["etoday"].is_number() && item["etotal"].is_number()
        );

        let detail = app
            .get(&format!("/api/v1/plant/{id}?lan=en&id={id}"), Some(&ann))
            .await;
        detail.expect_code(0);
        let p = detail.data();
        assert_eq!(
            (
                p["lon"].as_f64(),
                p["lat"].as_f64(),
                p["totalPower"].as_f64()
            ),
            (Some(-0.72), Some(51.32), Some(5.5))
        );
        assert_eq!(p["currency"]["code"], "GBP");
        assert_eq!(p["currency"]["text"], "£");
        assert_eq!(p["timezone"]["code"], "Europe/London");
        assert_eq!(p["phone"], "+4412345678");
        let charges = p["charges"].as_array().expect("charges");
        assert_eq!(charges.len(), 3);
        assert_eq!(
            (
                charges[2]["startRange"].as_str(),
                charges[2]["endRange"].as_str()
            ),
            (Some("19:00"), Some("24:00")),
            "23:59 ends the day"
        );
        assert_eq!(charges[1]["price"].as_f64(), Some(0.35));
        for key in ["pac", "etoday", "etotal"] {
            assert!(p["realtime"][key].is_number(), "realtime.{key}");
        }
        assert!(fixtures::is_update_at(&p["realtime"]["updateAt"]));
        let perms: Vec<&str> = p["plantPermission"]
            .as_array()
            .expect("perms")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(
            perms.contains(&"station.share") && perms.contains(&"station.transfer"),
            "{perms:?}"
        );

        let map = app.get("/api/v1/plants/map", Some(&ann)).await;
        assert_eq!(map.data()[0]["id"].as_i64(), Some(id));
        let counts = app.get("/api/v1/overview/plantCount", Some(&ann)).await;
        assert_eq!(
            (
                counts.data()["total"].as_i64(),
                counts.data()["offline"].as_i64()
            ),
            (Some(1), Some(1))
        );
        let filter = app.get("/api/v1/plant/filter?lan=es", Some(&ann)).await;
        assert_eq!(filter.data()["type"][0]["label"], "Conectada a la red");
    }
}

#[tokio::test]
async fn bad_plant_values_are_refused_with_their_code_and_create_nothing() {
    for app in spawn().await {
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let with = |patch: Value| {
            let mut body = plant("Valid name");
            if let (Some(b), Some(p)) = (body.as_object_mut(), patch.as_object()) {
                for (k, v) in p {
                    b.insert(k.clone(), v.clone());
                }
            }
            body
        };
        let cases = [
            (with(json!({"name": "Home"})), 4),
            (with(json!({"name": "x".repeat(33)})), 4),
            (with(json!({"totalPower": 50000.5})), 4),
            (with(json!({"lon": 200})), 10),
            (with(json!({"lat": "north"})), 4),
            (with(json!({"timezone": "Mars/Olympus"})), 4),
            (with(json!({"currency": "XXX"})), 4),
            (with(json!({"joinDate": "2024-13-01"})), 4),
            (
                with(json!({"imageUrl": "https://elsewhere.example/x.png"})),
                4,
            ),
            (
                with(
                    json!({"charges": [{"type": 2, "startRange": "00:00", "endRange": "07:00", "price": 0.1}, {"type": 2, "startRange": "08:00", "endRange": "24:00", "price": 0.1}]}),
                ),
                4,
            ),
            (with(json!({"charges": [{"type": 1, "price": 0.155}]})), 4),
            (with(json!({"charges": [{"type": 1, "price": 10000}]})), 4),
            (
                with(
                    json!({"charges": (0..7).map(|h| json!({"type": 2, "startRange": format!("{:02}:00", h), "endRange": if h == 6 { "24:00".to_string() } else { format!("{:02}:00", h + 1) }, "price": 0.1})).collect::<Vec<_>>()}),
                ),
                4,
            ),
            (with(json!({"owner": "nobody@example.com"})), 105),
        ];
        for (body, code) in cases {
            app.post("/api/v1/plant", body.clone(), Some(&ann))
                .await
                .expect_code(code);
        }
        assert_eq!(
            total(&app, &ann).await,
            0,
            "[{}] nothing was created",
            app.backend
        );
    }
}
