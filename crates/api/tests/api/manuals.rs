//! Manuals over HTTP on every backend: an administrator uploads, edits and deletes them; a
//! plant owner lists and downloads only the manuals of the models they have a device of;
//! another owner gets 4100 as for a missing manual; bad files and fields change nothing.

use crate::common;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use common::multipart::FilePart;
use common::{
    App,
    fixtures::{People, bound_gateway, people, plant},
    spawn,
};
use domain::{
    ids::ProductId,
    product::{Category, Product},
};
use serde_json::json;

const PDF: &[u8] =
    b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

async fn send(
    app: &App,
    uri: &str,
    fields: &[(&str, &str)],
    file: Option<(&str, &[u8])>,
    token: &str,
) -> common::Resp {
    let file = file.map(|(name, bytes)| FilePart::octets(name, bytes));
    app.post_multipart(uri, fields, file, Some(token)).await
}

async fn product(app: &App, part: &str) -> i64 {
    let p = Product {
        name: format!("Model {part}"),
        part_number: part.into(),
        category: Category::Inverter,
        manufacturer: "Test".into(),
        type_id: None,
        rated_power: None,
        remark: String::new(),
        hardware: Vec::new(),
    };
    app.store
        .insert_product(&p, domain::time::now_ms(), None)
        .await
        .expect("product")
        .0
}

struct ManualProducts {
    admin: String,
    ann: String,
    bob: String,
    /// Ann has an inverter of this model.
    hers: i64,
    /// Nobody has one of these.
    other: i64,
}

async fn manual_products(app: &App) -> ManualProducts {
    let People { admin, ann, bob } = people(app).await;
    let plant = plant(
        app,
        &ann,
        json!({"name": "Ann manual plant", "type": 1, "currency": "EUR",
            "timezone": "Europe/Madrid", "lon": -3.7, "lat": 40.4, "totalPower": 5}),
    )
    .await;
    let gw = bound_gateway(app, &admin, &ann, plant, "GW-MAN-01").await;
    let hers = product(app, "INV-5K").await;
    let other = product(app, "INV-50K").await;
    app.store
        .upsert_device(
            "INV-MAN-1",
            GatewayId(gw),
            DeviceFamily::Inverter,
            1,
            "",
            "INV-5K",
            None,
            domain::time::now_ms(),
        )
        .await
        .expect("inverter");
    app.store
        .set_device_product_if_unset("INV-MAN-1", ProductId(hers))
        .await
        .expect("product of the inverter");
    ManualProducts {
        admin,
        ann,
        bob,
        hers,
        other,
    }
}

async fn upload(app: &App, c: &ManualProducts, product: i64, title: &str) -> i64 {
    let product = product.to_string();
    let r = send(
        app,
        "/api/v1/manual",
        &[
            ("productId", &product),
            ("title", title),
            ("language", "en"),
            ("version", "V1.0"),
            ("issued", "2026-03-01"),
            ("fileName", "Guide.pdf"),
        ],
        Some(("guide.pdf", PDF)),
        &c.admin,
    )
    .await;
    r.expect_code(0);
    r.data()["id"].as_i64().expect("manual id")
}

#[tokio::test]
async fn owners_see_and_download_only_the_manuals_of_their_models() {
    for app in spawn().await {
        let c = manual_products(&app).await;
        let mine = upload(&app, &c, c.hers, "Installation guide").await;
        let theirs = upload(&app, &c, c.other, "Commercial guide").await;

        let all = app.get("/api/v1/manuals", Some(&c.admin)).await;
        all.expect_code(0);
        assert_eq!(all.data()["total"], 2);

        let list = app
            .get(
                "/api/v1/manuals?page=1&limit=10&keyword=&productId=",
                Some(&c.ann),
            )
            .await;
        list.expect_code(0);
        assert_eq!(list.data()["total"], 1);
        let item = &list.data()["infos"][0];
        assert_eq!(item["id"].as_i64(), Some(mine));
        assert_eq!(item["title"], "Installation guide");
        assert_eq!(item["productName"], "Model INV-5K");
        assert_eq!(item["contentType"], "application/pdf");
        assert_eq!(item["size"].as_i64(), Some(PDF.len() as i64));
        assert_eq!(item["fileName"], "Guide.pdf");
        assert_eq!(
            app.get("/api/v1/manuals", Some(&c.bob)).await.data()["total"],
            0,
            "Bob has no device of either model"
        );

        let file = app
            .get(&format!("/api/v1/manual/{mine}/download"), Some(&c.ann))
            .await;
        assert_eq!(file.status, 200);
        assert_eq!(&file.body[..], PDF);
        assert_eq!(
            file.headers
                .get("content-type")
                .and_then(|v| v.to_str().ok()),
            Some("application/pdf")
        );
        assert!(
            file.headers
                .get("content-disposition")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.contains("Guide.pdf"))
        );
        for (token, id) in [(&c.bob, mine), (&c.ann, theirs), (&c.ann, 999_999)] {
            app.get(&format!("/api/v1/manual/{id}/download"), Some(token))
                .await
                .expect_code(4100);
        }
        let admin_file = app
            .get(&format!("/api/v1/manual/{theirs}/download"), Some(&c.admin))
            .await;
        assert_eq!(&admin_file.body[..], PDF);
        app.get(&format!("/api/v1/manual/{mine}/download"), None)
            .await
            .expect_401();

        // A shared visitor of Ann's plant has the model too.
        let share = json!({"account": "bob@example.com", "role": "visitor"});
        let plant = app.get("/api/v1/plants", Some(&c.ann)).await.data()["infos"][0]["id"]
            .as_i64()
            .expect("plant");
        app.post(&format!("/api/v1/plant/{plant}/share"), share, Some(&c.ann))
            .await
            .expect_code(0);
        assert_eq!(
            app.get("/api/v1/manuals", Some(&c.bob)).await.data()["total"],
            1
        );
    }
}

#[tokio::test]
async fn bad_files_and_fields_are_refused_and_change_nothing() {
    for app in spawn().await {
        let c = manual_products(&app).await;
        let product = c.hers.to_string();
        let fields = [
            ("productId", product.as_str()),
            ("title", "Guide"),
            ("language", "en"),
        ];
        let exe: &[u8] = b"MZ\x90\x00\x03\x00\x00\x00";
        send(
            &app,
            "/api/v1/manual",
            &fields,
            Some(("guide.pdf", exe)),
            &c.admin,
        )
        .await
        .expect_code(11);
        let big = [
            b"%PDF-1.4\n".as_slice(),
            &vec![b'x'; domain::manual::MAX_BYTES],
        ]
        .concat();
        send(
            &app,
            "/api/v1/manual",
            &fields,
            Some(("big.pdf", &big)),
            &c.admin,
        )
        .await
        .expect_code(12);
        send(&app, "/api/v1/manual", &fields, None, &c.admin)
            .await
            .expect_code(4);
        let french = [
            ("productId", product.as_str()),
            ("title", "Guide"),
            ("language", "fr"),
        ];
        let r = send(
            &app,
            "/api/v1/manual",
            &french,
            Some(("g.pdf", PDF)),
            &c.admin,
        )
        .await;
        r.expect_code(4);
        assert!(r.msg().contains("language"), "{}", r.msg());
        let nowhere = [("productId", "999999"), ("title", "Guide")];
        send(
            &app,
            "/api/v1/manual",
            &nowhere,
            Some(("g.pdf", PDF)),
            &c.admin,
        )
        .await
        .expect_code(4);
        // Owners may not upload, edit or delete.
        send(
            &app,
            "/api/v1/manual",
            &fields,
            Some(("g.pdf", PDF)),
            &c.ann,
        )
        .await
        .expect_code(2);
        assert_eq!(
            app.get("/api/v1/manuals", Some(&c.admin)).await.data()["total"],
            0
        );

        let id = upload(&app, &c, c.hers, "Guide").await;
        app.post(
            &format!("/api/v1/manual/{id}/delete"),
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(2);
        let png: &[u8] = b"\x89PNG\r\n\x1a\nimage-bytes";
        let edited = send(
            &app,
            &format!("/api/v1/manual/{id}"),
            &[
                ("productId", &product),
                ("title", "Wiring diagram"),
                ("language", "all"),
            ],
            Some(("wiring.png", png)),
            &c.admin,
        )
        .await;
        edited.expect_code(0);
        assert_eq!(edited.data()["title"], "Wiring diagram");
        assert_eq!(edited.data()["contentType"], "image/png");
        assert_eq!(edited.data()["fileName"], "manual.png");
        let file = app
            .get(&format!("/api/v1/manual/{id}/download"), Some(&c.ann))
            .await;
        assert_eq!(&file.body[..], png);
        send(&app, "/api/v1/manual/999999", &fields, None, &c.admin)
            .await
            .expect_code(4100);

        app.post(
            &format!("/api/v1/manual/{id}/delete"),
            json!({}),
            Some(&c.admin),
        )
        .await
        .expect_code(0);
        app.get(&format!("/api/v1/manual/{id}/download"), Some(&c.admin))
            .await
            .expect_code(4100);
        app.post(
            &format!("/api/v1/manual/{id}/delete"),
            json!({}),
            Some(&c.admin),
        )
        .await
        .expect_code(4100);
    }
}
