//! Uploaded files kept in the database (`PORTAL_FILES=database`, issue 19), on every backend:
//! served at the same `/files/...` URLs with the headers the data directory's server sends
//! (type, length, validators, ranges, 304), nothing written under the data directory, a
//! replaced avatar deleted, and firmware uploaded, downloaded, replaced and deleted.

use crate::common;

use api::FilesBackend;
use axum::{
    body::Body,
    http::{Method, header},
};
use common::{App, fixtures, spawn_with};
use domain::user::BuiltinRole;

fn gradient_png(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| image::Rgb([(x * 7) as u8, (y * 3) as u8, 90]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("png");
    out.into_inner()
}

async fn get_with(app: &App, method: Method, uri: &str, headers: &[(&str, &str)]) -> common::Resp {
    let mut req = app.request(method, uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    app.send(req.body(Body::empty()).expect("request")).await
}

/// The headers a client sees of `uri` (names, and the values that do not depend on time).
async fn served(app: &App, uri: &str) -> (Vec<String>, String, String) {
    let r = app.get(uri, None).await;
    assert_eq!(r.status, 200, "{}", r.ctx);
    let mut names: Vec<String> = r.headers.keys().map(|k| k.to_string()).collect();
    names.sort();
    let value = |h| {
        r.headers
            .get(h)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    };
    (
        names,
        value(header::CONTENT_TYPE),
        value(header::CONTENT_LENGTH),
    )
}

#[tokio::test]
async fn pictures_are_served_from_the_database_as_from_the_data_directory() {
    let local = spawn_with(|_| {}).await.remove(0);
    let admin = fixtures::admin(&local).await;
    let picture = gradient_png(64, 48);
    let up = local
        .upload(
            "/api/v1/plant/thumbnail",
            "p.png",
            "image/png",
            &picture,
            Some(&admin),
        )
        .await;
    let from_disk = served(&local, up.data()["url"].as_str().expect("url")).await;

    for app in spawn_with(|c| c.files = FilesBackend::Database).await {
        let b = app.backend;
        let admin = fixtures::admin(&app).await;
        let up = app
            .upload(
                "/api/v1/plant/thumbnail",
                "p.png",
                "image/png",
                &picture,
                Some(&admin),
            )
            .await;
        let url = up.data()["url"].as_str().expect("url").to_string();
        assert!(
            url.starts_with("/files/plants/") && url.ends_with(".png"),
            "[{b}] {url}"
        );
        assert_eq!(
            served(&app, &url).await,
            from_disk,
            "[{b}] headers as from the data directory"
        );
        let full = app.get(&url, None).await;
        assert_eq!(&full.body[..], &picture[..], "[{b}]");
        assert!(
            !app.data_dir.join("uploads").exists(),
            "[{b}] written to the data directory"
        );

        // Validators and ranges, as the directory server answers them.
        let etag = full.headers[header::ETAG]
            .to_str()
            .expect("etag")
            .to_string();
        let modified = full.headers[header::LAST_MODIFIED]
            .to_str()
            .expect("date")
            .to_string();
        let again = get_with(&app, Method::GET, &url, &[("if-none-match", &etag)]).await;
        assert_eq!(again.status, 304, "[{b}]");
        let again = get_with(&app, Method::GET, &url, &[("if-modified-since", &modified)]).await;
        assert_eq!(again.status, 304, "[{b}]");
        let part = get_with(&app, Method::GET, &url, &[("range", "bytes=0-7")]).await;
        assert_eq!(part.status, 206, "[{b}]");
        assert_eq!(&part.body[..], &picture[..8], "[{b}]");
        let total = picture.len();
        assert_eq!(
            part.headers[header::CONTENT_RANGE],
            format!("bytes 0-7/{total}").as_str()
        );
        let beyond = get_with(&app, Method::GET, &url, &[("range", "bytes=99999-")]).await;
        assert_eq!(beyond.status, 416, "[{b}]");
        let head = get_with(&app, Method::HEAD, &url, &[]).await;
        assert!(head.status == 200 && head.body.is_empty(), "[{b}]");
        assert_eq!(
            head.headers[header::CONTENT_LENGTH],
            total.to_string().as_str()
        );

        for missing in [
            "/files/plants/nope.png",
            "/files/../portal.db",
            "/files/plants//x",
        ] {
            assert_eq!(app.get(missing, None).await.status, 404, "[{b}] {missing}");
        }
    }
}

#[tokio::test]
async fn a_replaced_avatar_is_deleted_from_the_database() {
    for app in spawn_with(|c| c.files = FilesBackend::Database).await {
        let b = app.backend;
        let (id, t) = app
            .signed_in("face@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let uri = format!("/api/v1/user/{}/avatar", id.0);
        let first = app
            .upload(&uri, "a.png", "image/png", &gradient_png(8, 8), Some(&t))
            .await;
        let first = first.data().as_str().expect("url").to_string();
        let second = app
            .upload(&uri, "b.png", "image/png", &gradient_png(9, 9), Some(&t))
            .await;
        let second = second.data().as_str().expect("url").to_string();
        assert_eq!(
            app.get(&first, None).await.status,
            404,
            "[{b}] the old avatar is gone"
        );
        assert_eq!(app.get(&second, None).await.status, 200, "[{b}]");
        let keys: Vec<String> = app
            .store
            .files_under("uploads/avatars/")
            .await
            .expect("files")
            .into_iter()
            .map(|f| f.key)
            .collect();
        assert_eq!(
            keys,
            vec![format!("uploads{}", second.trim_start_matches("/files"))],
            "[{b}]"
        );
    }
}

/// A multipart form of text fields and a `.bin` file, to the firmware routes.
async fn firmware_form(
    app: &App,
    token: &str,
    fields: &[(&str, &str)],
    file: &[u8],
) -> common::Resp {
    const B: &str = "----firmware-in-database";
    let mut body = Vec::new();
    for (k, v) in fields {
        body.extend_from_slice(
            format!("--{B}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{B}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"fw.bin\"\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{B}--\r\n").as_bytes());
    let content_type = format!("multipart/form-data; boundary={B}");
    app.post_raw("/api/v1/firmware/save", &content_type, body, Some(token))
        .await
}

#[tokio::test]
async fn firmware_files_live_and_die_with_their_rows_in_the_database() {
    for app in spawn_with(|c| c.files = FilesBackend::Database).await {
        let b = app.backend;
        let admin = fixtures::admin(&app).await;
        let add = "/api/v1/firmware/inverterType/add";
        let title = app
            .post(add, serde_json::json!({"name": "Hybrid"}), Some(&admin))
            .await;
        let title = title.data().as_i64().expect("title");
        let label = serde_json::json!({"name": "LV", "parentId": title, "codes": [2]});
        let label = app
            .post(add, label, Some(&admin))
            .await
            .data()
            .as_i64()
            .expect("label")
            .to_string();
        let first: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let fields = [
            ("name", "fw"),
            ("version", "V1"),
            ("typeId", label.as_str()),
        ];
        let saved = firmware_form(&app, &admin, &fields, &first).await;
        let id = saved.data()["id"].as_i64().expect("id");
        let download = format!("/api/v1/firmware/{id}/download");
        assert_eq!(
            &app.get(&download, Some(&admin)).await.body[..],
            &first[..],
            "[{b}]"
        );
        let stored = || async { app.store.files_under("firmware/").await.expect("files") };
        let before = stored().await;
        assert_eq!(
            before.len(),
            1,
            "[{b}] one file, no staged copy left: {before:?}"
        );

        // A new file replaces the old one: only the new one is kept.
        let second = vec![7u8; 1000];
        let id_text = id.to_string();
        let edit = [("id", id_text.as_str())];
        firmware_form(&app, &admin, &edit, &second)
            .await
            .expect_code(0);
        assert_eq!(
            &app.get(&download, Some(&admin)).await.body[..],
            &second[..],
            "[{b}]"
        );
        let after = stored().await;
        assert!(
            after.len() == 1 && after[0].key != before[0].key,
            "[{b}] {after:?}"
        );

        app.get(&format!("/api/v1/firmware/{id}/delete"), Some(&admin))
            .await
            .expect_code(0);
        assert!(stored().await.is_empty(), "[{b}] the file outlived its row");
        assert!(
            !app.data_dir.join("firmware").exists(),
            "[{b}] written to the data directory"
        );
    }
}
