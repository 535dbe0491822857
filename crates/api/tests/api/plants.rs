//! Plants over HTTP: the wizard's create call with a tariff, list, map and counts, detail and
//! edits, pictures, sharing, transfer and delete, and tenancy (another tenant's plant is 700).

use crate::common;

use common::{App, spawn};
use domain::user::BuiltinRole;
use serde_json::{Value, json};

const PW: &str = "secret12";

fn tou() -> Value {
    json!([
        {"type": 2, "startRange": "00:00", "endRange": "07:00", "price": 0.1},
        {"type": 2, "startRange": "07:00", "endRange": "19:00", "price": "0.35"},
        {"type": 2, "startRange": "19:00", "endRange": "23:59", "price": 0.2},
    ])
}

fn plant(name: &str) -> Value {
    json!({
        "name": name, "totalPower": "5.5", "type": 2, "currency": "GBP", "timezone": "Europe/London",
        "joinDate": "2024-05-01", "address": "1 Solar Way", "lon": -0.72, "lat": 51.32,
        "principal": "Ann", "phone": "+44 1234 5678", "email": "ann@example.com", "installer": "Acme",
        "invest": 4200, "charges": tou(),
    })
}

async fn create(app: &App, token: &str, body: Value) -> i64 {
    let r = app.post("/api/v1/plant", body, Some(token)).await;
    r.expect_code(0);
    r.data()
        .as_i64()
        .unwrap_or_else(|| panic!("{}: no id in {}", r.ctx, r.text()))
}

async fn total(app: &App, token: &str) -> i64 {
    app.get("/api/v1/plants?page=1&limit=10&name=&status=", Some(token))
        .await
        .data()["total"]
        .as_i64()
        .unwrap_or(-1)
}

fn is_update_at(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| s.len() == 20 && s.ends_with('Z') && &s[10..11] == "T")
}

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
        assert!(is_update_at(&item["updateAt"]), "{}", item["updateAt"]);
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
        assert!(is_update_at(&p["realtime"]["updateAt"]));
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

#[tokio::test]
async fn edits_change_only_what_they_name_and_income_accepts_numbers_as_strings() {
    for app in spawn().await {
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let id = create(&app, &ann, plant("Ann home plant")).await;
        app.post(
            &format!("/api/v1/plant/{id}/info"),
            json!({"name": "Renamed plant", "totalPower": 8}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/plant/{id}/contacts"),
            json!({"principal": "Bea", "phone": ""}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/plant/{id}/income"),
            json!({"id": id, "currency": "2", "invest": "1000.5", "charges": [{"price": "0.2", "type": "1"}]}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        let p = app.get(&format!("/api/v1/plant/{id}"), Some(&ann)).await;
        let p = p.data();
        assert_eq!(
            (p["name"].as_str(), p["totalPower"].as_f64()),
            (Some("Renamed plant"), Some(8.0))
        );
        assert_eq!(
            (
                p["principal"].as_str(),
                p["phone"].as_str(),
                p["installer"].as_str()
            ),
            (Some("Bea"), Some(""), Some("Acme"))
        );
        assert_eq!(
            (p["currency"]["code"].as_str(), p["invest"].as_f64()),
            (Some("EUR"), Some(1000.5))
        );
        assert_eq!(p["charges"].as_array().map(Vec::len), Some(1));
        assert_eq!(p["charges"][0]["endRange"], "24:00");
        app.post(
            &format!("/api/v1/plant/{id}/income"),
            json!({"charges": [{"price": -1, "type": 1}]}),
            Some(&ann),
        )
        .await
        .expect_code(4);
        let after = app.get(&format!("/api/v1/plant/{id}"), Some(&ann)).await;
        assert_eq!(
            after.data()["charges"][0]["price"].as_f64(),
            Some(0.2),
            "a refused edit changes nothing"
        );
    }
}

#[tokio::test]
async fn another_tenants_plant_answers_exactly_like_a_missing_one() {
    for app in spawn().await {
        let acme = app.company("Acme").await;
        let beta = app.company("Beta").await;
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("eve@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("staff@acme.com", PW, BuiltinRole::CompanyStaff, Some(acme))
            .await;
        app.user("staff@beta.com", PW, BuiltinRole::CompanyAdmin, Some(beta))
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let eve = app.login("eve@example.com", PW).await.access;
        let acme_staff = app.login("staff@acme.com", PW).await.access;
        let beta_admin = app.login("staff@beta.com", PW).await.access;
        let home = create(&app, &ann, plant("Ann home plant")).await;
        let eves = create(&app, &eve, plant("Eve home plant")).await;
        let depot = create(&app, &acme_staff, json!({"name": "Acme depot", "timezone": "UTC", "lon": 1, "lat": 2, "owner": "ann@example.com"})).await;
        // Ann is not yet Acme's customer: the depot becomes hers once she accepts it, and with
        // it she becomes Acme's customer, whose plants Acme's staff see. Eve is nobody's.
        app.post(
            &format!("/api/v1/plant/{depot}/offer/accept"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(0);

        let missing = 999_999;
        for (token, id) in [(&eve, home), (&beta_admin, depot), (&acme_staff, eves)] {
            for target in [id, missing] {
                let calls = [
                    app.get(&format!("/api/v1/plant/{target}"), Some(token))
                        .await,
                    app.post(
                        &format!("/api/v1/plant/{target}"),
                        json!({"name": "Taken over"}),
                        Some(token),
                    )
                    .await,
                    app.post(
                        &format!("/api/v1/plant/{target}/income"),
                        json!({"charges": []}),
                        Some(token),
                    )
                    .await,
                    app.post(
                        &format!("/api/v1/plant/{target}/share"),
                        json!({"account": "eve@example.com"}),
                        Some(token),
                    )
                    .await,
                    app.post(
                        &format!("/api/v1/plant/{target}/transfer?account=eve@example.com"),
                        json!({}),
                        Some(token),
                    )
                    .await,
                    app.post(
                        &format!("/api/v1/plant/{target}/delete"),
                        json!({}),
                        Some(token),
                    )
                    .await,
                    app.get(
                        &format!("/api/v1/plant/{target}/getShareUsers"),
                        Some(token),
                    )
                    .await,
                ];
                for r in calls {
                    r.expect_code(700);
                    assert_eq!(r.msg(), "Plant does not exist", "{}", r.ctx);
                }
            }
        }
        assert_eq!(total(&app, &eve).await, 1, "her own");
        assert_eq!(total(&app, &beta_admin).await, 0);
        assert_eq!(
            total(&app, &acme_staff).await,
            2,
            "staff see their company's plant and their customer's"
        );
        assert_eq!(total(&app, &ann).await, 2, "ann owns both");
        let d = app
            .get(&format!("/api/v1/plant/{depot}"), Some(&acme_staff))
            .await;
        let perms: Vec<&str> = d.data()["plantPermission"]
            .as_array()
            .expect("perms")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(
            perms.contains(&"station.edit") && !perms.contains(&"station.share"),
            "{perms:?}"
        );
        app.post(
            &format!("/api/v1/plant/{depot}"),
            json!({"name": "Acme depot two"}),
            Some(&acme_staff),
        )
        .await
        .expect_code(0);
        app.get(&format!("/api/v1/plant/{home}"), Some(&ann))
            .await
            .expect_code(0);
    }
}

#[tokio::test]
async fn sharing_follows_the_rules_and_a_visitor_only_reads() {
    for app in spawn().await {
        let acme = app.company("Acme").await;
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("bob@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("max@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("staff@acme.com", PW, BuiltinRole::CompanyStaff, Some(acme))
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let bob = app.login("bob@example.com", PW).await.access;
        let max = app.login("max@example.com", PW).await.access;
        let staff = app.login("staff@acme.com", PW).await.access;
        let home = create(&app, &ann, plant("Ann home plant")).await;
        let depot = create(&app, &staff, json!({"name": "Acme depot", "timezone": "UTC", "lon": 1, "lat": 2, "owner": "ann@example.com"})).await;
        app.post(
            &format!("/api/v1/plant/{depot}/offer/accept"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        let share = |id: i64, account: &str, role: &str| {
            (
                format!("/api/v1/plant/{id}/share"),
                json!({"account": account, "role": role}),
            )
        };

        let (uri, body) = share(home, "ann@example.com", "visitor");
        app.post(&uri, body, Some(&ann)).await.expect_code(701);
        let (uri, body) = share(home, "staff@acme.com", "visitor");
        app.post(&uri, body, Some(&ann)).await.expect_code(702);
        let (uri, body) = share(depot, "bob@example.com", "visitor");
        app.post(&uri, body, Some(&ann)).await.expect_code(703);
        let (uri, body) = share(home, "ghost@example.com", "visitor");
        app.post(&uri, body, Some(&ann)).await.expect_code(105);
        let (uri, body) = share(home, "bob@example.com", "visitor");
        app.post(&uri, body, Some(&ann)).await.expect_code(0);
        let (uri, body) = share(home, "max@example.com", "maintainer");
        app.post(&uri, body, Some(&ann)).await.expect_code(0);

        let list = app.get("/api/v1/plants?page=1&limit=10", Some(&bob)).await;
        let item = &list.data()["infos"][0];
        assert_eq!(
            (item["id"].as_i64(), item["share"].as_bool()),
            (Some(home), Some(true))
        );
        assert_eq!(item["plantPermission"], json!(["station.share.cancle"]));
        app.post(
            &format!("/api/v1/plant/{home}"),
            json!({"name": "Bob's now"}),
            Some(&bob),
        )
        .await
        .expect_code(2);
        app.post(
            &format!("/api/v1/plant/{home}/delete"),
            json!({}),
            Some(&bob),
        )
        .await
        .expect_code(2);
        let (uri, body) = share(home, "max@example.com", "visitor");
        app.post(&uri, body, Some(&max)).await.expect_code(2);
        let maint = app.get(&format!("/api/v1/plant/{home}"), Some(&max)).await;
        assert!(
            maint.data()["plantPermission"]
                .as_array()
                .expect("perms")
                .contains(&json!("inverter.setting"))
        );

        let users = app
            .get(&format!("/api/v1/plant/{home}/getShareUsers"), Some(&ann))
            .await;
        assert_eq!(users.data().as_array().map(Vec::len), Some(2));
        app.get(&format!("/api/v1/plant/{home}/getShareUsers"), Some(&bob))
            .await
            .expect_code(2);
        app.post(
            &format!("/api/v1/plant/{home}/cancelShare"),
            json!({}),
            Some(&bob),
        )
        .await
        .expect_code(0);
        assert_eq!(total(&app, &bob).await, 0, "bob left");
        app.get(&format!("/api/v1/plant/{home}"), Some(&bob))
            .await
            .expect_code(700);
        let max_id = users.data()[1]["userId"].as_i64().expect("user id");
        app.post(
            &format!("/api/v1/plant/{home}/cancelShare"),
            json!({"userId": max_id}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        assert_eq!(total(&app, &max).await, 0);
    }
}

#[tokio::test]
async fn transfer_moves_ownership_and_delete_removes_the_plant_for_everyone() {
    for app in spawn().await {
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("bob@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("cy@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let bob = app.login("bob@example.com", PW).await.access;
        let cy = app.login("cy@example.com", PW).await.access;
        let id = create(&app, &ann, plant("Ann home plant")).await;
        app.post(
            &format!("/api/v1/plant/{id}/transfer?account=ann@example.com"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(704);
        app.post(
            &format!("/api/v1/plant/{id}/transfer?account=ghost@example.com"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(105);
        app.post(
            &format!("/api/v1/plant/{id}/transfer?account=bob@example.com"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        app.get(&format!("/api/v1/plant/{id}"), Some(&ann))
            .await
            .expect_code(700);
        let mine = app.get(&format!("/api/v1/plant/{id}"), Some(&bob)).await;
        assert_eq!(mine.data()["master"]["account"], "bob@example.com");

        app.post(
            &format!("/api/v1/plant/{id}/share"),
            json!({"account": "cy@example.com"}),
            Some(&bob),
        )
        .await
        .expect_code(0);
        app.post(&format!("/api/v1/plant/{id}/delete"), json!({}), Some(&bob))
            .await
            .expect_code(0);
        for token in [&bob, &cy] {
            app.get(&format!("/api/v1/plant/{id}"), Some(token))
                .await
                .expect_code(700);
            assert_eq!(total(&app, token).await, 0);
        }
    }
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let img = image::RgbImage::from_pixel(width, height, image::Rgb([250, 180, 0]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("png");
    out.into_inner()
}

#[tokio::test]
async fn plant_pictures_are_checked_by_content_and_get_a_thumbnail() {
    for app in spawn().await {
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let r = app
            .upload(
                "/api/v1/plant/thumbnail",
                "roof.png",
                "image/png",
                &png(1200, 800),
                Some(&ann),
            )
            .await;
        r.expect_code(0);
        let (url, thumb) = (
            r.data()["url"].as_str().expect("url").to_string(),
            r.data()["thumbUrl"].as_str().expect("thumb").to_string(),
        );
        let served = app.get(&thumb, None).await;
        let decoded = image::load_from_memory(&served.body).expect("thumbnail is an image");
        assert_eq!((decoded.width(), decoded.height()), (320, 213));

        app.upload(
            "/api/v1/plant/thumbnail",
            "roof.png",
            "image/png",
            b"GIF89a fake",
            Some(&ann),
        )
        .await
        .expect_code(11);
        app.upload(
            "/api/v1/plant/thumbnail",
            "roof.jpg",
            "image/jpeg",
            b"<svg onload=alert(1)>",
            Some(&ann),
        )
        .await
        .expect_code(11);
        let mut big = vec![0xFF, 0xD8, 0xFF];
        big.resize(10 * 1024 * 1024 + 1, 0);
        app.upload(
            "/api/v1/plant/thumbnail",
            "big.jpg",
            "image/jpeg",
            &big,
            Some(&ann),
        )
        .await
        .expect_code(12);

        let mut body = plant("Ann home plant");
        body["imageUrl"] = json!(url);
        body["thumbUrl"] = json!(thumb);
        let id = create(&app, &ann, body).await;
        let p = app.get(&format!("/api/v1/plant/{id}"), Some(&ann)).await;
        assert_eq!(p.data()["thumbUrl"].as_str(), Some(thumb.as_str()));
    }
}
