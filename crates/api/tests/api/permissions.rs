//! The permission tree of each built-in role, its localisation, and who may see which tree.

use crate::common;

use std::collections::BTreeSet;

use common::spawn;
use domain::user::BuiltinRole;
use serde_json::Value;

/// Every permission key below the root, checking each node's shape on the way.
fn keys(node: &Value, out: &mut BTreeSet<String>, ctx: &str) {
    assert!(node["id"].is_i64(), "{ctx}: id {node}");
    assert!(node["name"].is_string(), "{ctx}: name");
    assert!(
        node["type"] == 0 || node["type"] == 1,
        "{ctx}: type {}",
        node["type"]
    );
    let children = node["children"]
        .as_array()
        .unwrap_or_else(|| panic!("{ctx}: children"));
    let key = node["permission"].as_str().expect("permission key");
    assert!(out.insert(key.to_string()), "{ctx}: {key} twice");
    for child in children {
        keys(child, out, ctx);
    }
}

fn name_of<'a>(node: &'a Value, key: &str) -> Option<&'a str> {
    if node["permission"] == key {
        return node["name"].as_str();
    }
    node["children"]
        .as_array()?
        .iter()
        .find_map(|c| name_of(c, key))
}

#[tokio::test]
async fn each_builtin_role_gets_exactly_its_catalogue_keys() {
    for app in spawn().await {
        let company = app.company("Tree Co").await;
        for role in BuiltinRole::ALL {
            let ctx = format!("[{}] {role:?}", app.backend);
            let company = (role.user_kind() == domain::user::UserKind::Company).then_some(company);
            let account = format!("{}@example.com", role.slug());
            let (_, t) = app.signed_in(&account, role, company).await;
            let r = app.get("/api/v1/permission?lan=en", Some(&t)).await;
            r.expect_code(0);
            let root = r.data();
            assert!(root.is_object(), "{ctx}: one root object, not {root}");
            let mut found = BTreeSet::new();
            keys(root, &mut found, &ctx);
            assert!(found.remove("root"), "{ctx}: root key");
            let expected: BTreeSet<String> =
                role.permissions().into_iter().map(String::from).collect();
            assert_eq!(found, expected, "{ctx}");
            // Top-level items are menu routes.
            for child in root["children"].as_array().unwrap() {
                assert_eq!(child["type"], 0, "{ctx}: {child}");
            }
        }
    }
}

#[tokio::test]
async fn names_follow_the_callers_language() {
    for app in spawn().await {
        let b = app.backend;
        let (_, t) = app
            .signed_in("lang@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let en = app.get("/api/v1/permission", Some(&t)).await;
        let zh = app.get("/api/v1/permission?lan=zh", Some(&t)).await;
        let cn = app.get("/api/v1/permission?lan=zh_CN", Some(&t)).await;
        let es = app.get("/api/v1/permission?lan=es", Some(&t)).await;
        assert_eq!(name_of(en.data(), "station.view"), Some("Plants"), "[{b}]");
        assert_eq!(name_of(zh.data(), "station.view"), Some("电站"), "[{b}]");
        assert_eq!(name_of(cn.data(), "station.view"), Some("电站"), "[{b}]");
        assert_eq!(name_of(es.data(), "station.view"), Some("Plantas"), "[{b}]");
        assert_eq!(zh.data()["name"], "全部权限", "[{b}]");

        let mut req = app.request(axum::http::Method::GET, "/api/v1/permission");
        req = req
            .header("authorization", common::bearer(&t))
            .header("accept-language", "fr-FR,es;q=0.8,en;q=0.5");
        let r = app.send(req.body(axum::body::Body::empty()).unwrap()).await;
        assert_eq!(name_of(r.data(), "station.view"), Some("Plantas"), "[{b}]");
        // `lan` wins over the header; an unknown `lan` falls back to the header.
        let mut req = app.request(axum::http::Method::GET, "/api/v1/permission?lan=zh");
        req = req
            .header("authorization", common::bearer(&t))
            .header("accept-language", "es");
        let r = app.send(req.body(axum::body::Body::empty()).unwrap()).await;
        assert_eq!(name_of(r.data(), "station.view"), Some("电站"), "[{b}]");

        // Error messages are localized the same way.
        let r = app.get("/api/v1/permission/company?lan=zh", Some(&t)).await;
        r.expect_code(2);
        assert_eq!(r.msg(), "没有权限", "[{b}]");
        let r = app.get("/api/v1/permission/company?lan=es", Some(&t)).await;
        assert_eq!(r.msg(), "Sin permiso", "[{b}]");
    }
}

#[tokio::test]
async fn grantable_trees_need_the_matching_permission() {
    for app in spawn().await {
        let b = app.backend;
        let company = app.company("Grant Co").await;
        let (_, owner) = app
            .signed_in("owner@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (_, staff) = app
            .signed_in(
                "staff@grant.example",
                BuiltinRole::CompanyStaff,
                Some(company),
            )
            .await;
        let (_, admin) = app
            .signed_in(
                "admin@grant.example",
                BuiltinRole::CompanyAdmin,
                Some(company),
            )
            .await;

        app.get("/api/v1/permission/company", Some(&owner))
            .await
            .expect_code(2);
        app.get("/api/v1/permission/company", Some(&staff))
            .await
            .expect_code(2);
        let r = app.get("/api/v1/permission/company", Some(&admin)).await;
        r.expect_code(0);
        let mut found = BTreeSet::new();
        keys(r.data(), &mut found, b);
        found.remove("root");
        let held: BTreeSet<String> = BuiltinRole::CompanyAdmin
            .permissions()
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(found, held, "[{b}] a company admin grants what they hold");

        app.get("/api/v1/permission/customer", Some(&owner))
            .await
            .expect_code(2);
        let r = app.get("/api/v1/permission/customer", Some(&staff)).await;
        r.expect_code(0);
        let mut found = BTreeSet::new();
        keys(r.data(), &mut found, b);
        found.remove("root");
        let owner_keys: BTreeSet<String> = BuiltinRole::PlantOwner
            .permissions()
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(found, owner_keys, "[{b}] customer tree");

        app.get("/api/v1/permission", None).await.expect_401();
    }
}
