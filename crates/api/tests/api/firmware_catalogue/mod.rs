//! The firmware catalogue over HTTP: the inverter-type tree and its rules, uploads and edits
//! with the file and version rules, enabling with notices to the owners concerned, deleting
//! (not while an upgrade uses the file), downloads, gateway software and who may do what.
//! Every test runs on SQLite and, when configured, PostgreSQL.

use crate::common;

use common::multipart::FilePart;
use common::{App, fixtures, spawn};
use domain::user::BuiltinRole;
use serde_json::{Value, json};
use store::{commands::NewCommand, upgrades::NewUpgrade};

mod delete;
mod enable;
mod gateway_software;
mod tree;
mod upload;

/// Posts a multipart form of `fields` and `file` (as `application/octet-stream`).
async fn form(
    app: &App,
    uri: &str,
    token: &str,
    file: Option<(&str, &[u8])>,
    fields: &[(&str, &str)],
) -> common::Resp {
    let file = file.map(|(name, bytes)| FilePart::octets(name, bytes));
    app.post_multipart(uri, fields, file, Some(token)).await
}

async fn add_node(app: &App, token: &str, body: Value) -> common::Resp {
    app.post("/api/v1/firmware/inverterType/add", body, Some(token))
        .await
}

/// A primary title and a secondary label with `codes`: their ids.
async fn label(app: &App, admin: &str, title: &str, name: &str, codes: &[i64]) -> (i64, i64) {
    let tree = app.get("/api/v1/firmware/inverterTypes", Some(admin)).await;
    let existing = tree.data().as_array().cloned().unwrap_or_default();
    let t = match existing.iter().find(|t| t["name"] == title) {
        Some(t) => t["id"].as_i64().expect("id"),
        None => {
            let r = add_node(app, admin, json!({"name": title})).await;
            r.expect_code(0);
            r.data().as_i64().expect("id")
        }
    };
    let r = add_node(
        app,
        admin,
        json!({"name": name, "parentId": t, "codes": codes}),
    )
    .await;
    r.expect_code(0);
    (t, r.data().as_i64().expect("id"))
}

async fn upload(app: &App, admin: &str, label: i64, name: &str, version: &str) -> i64 {
    let label = label.to_string();
    let r = form(
        app,
        "/api/v1/firmware/save",
        admin,
        Some((
            &format!("{}.bin", name.replace(' ', "_")),
            b"\x01\x02\x03firmware",
        )),
        &[
            ("name", name),
            ("version", version),
            ("typeId", &label),
            ("enabled", "false"),
        ],
    )
    .await;
    r.expect_code(0);
    r.data()["id"].as_i64().expect("id")
}

fn detail_of(r: &common::Resp) -> String {
    r.msg().rsplit(": ").next().unwrap_or_default().to_string()
}
