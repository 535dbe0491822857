//! The committed documents that describe code must match it: docs/permissions.md (the
//! permission catalogue and the built-in roles) and docs/openapi.json (the API document).
//! Run with `PORTAL_UPDATE_DOCS=1` to rewrite them after an intended change.

use std::path::PathBuf;

use domain::{
    Lang,
    permissions::{CATALOGUE, Kind},
    user::BuiltinRole,
};

fn docs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs")
}

fn check_or_update(name: &str, expected: &str) {
    let path = docs_dir().join(name);
    if std::env::var("PORTAL_UPDATE_DOCS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, expected).expect("write doc");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == expected,
        "{} is out of date with the code: run `PORTAL_UPDATE_DOCS=1 cargo test -p portal --test portal docs::` and review the diff",
        path.display()
    );
}

const PERMISSIONS_INTRO: &str = "# Permissions

Every menu route and every action button of the web app has a permission key. The server sends
the caller's keys as a tree (`GET /api/v1/permission`, type 0 = menu route, 1 = button) and checks
the same keys on every request: the menu is a convenience, never the guard. Route keys are those
existing clients of the API know; button keys are ours. Ids are stable.

Built-in roles: **internal-admin** (platform staff: everything), **company-admin** (runs a
company: everything but firmware and system management), **company-staff** (day-to-day work on
the company's plants and devices), **owner** (a plant owner or customer). Company administrators
may add up to five custom roles per company, granting at most the keys they hold themselves.

This file is checked against the code by `crates/portal/tests/docs.rs`.

| id | key | type | parent | name (en) | internal-admin | company-admin | company-staff | owner |
|---|---|---|---|---|---|---|---|---|
";

fn permissions_doc() -> String {
    let roles: Vec<Vec<&str>> = BuiltinRole::ALL.iter().map(|r| r.permissions()).collect();
    let mut doc = PERMISSIONS_INTRO.to_string();
    for p in CATALOGUE {
        let kind = match p.kind {
            Kind::Menu => "menu",
            Kind::Button => "button",
        };
        let marks: Vec<&str> = roles
            .iter()
            .map(|keys| if keys.contains(&p.key) { "yes" } else { "" })
            .collect();
        doc.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} |\n",
            p.id,
            p.key,
            kind,
            p.parent.map(|k| format!("`{k}`")).unwrap_or_default(),
            p.name(Lang::En),
            marks.join(" | ")
        ));
    }
    doc
}

#[test]
fn permissions_doc_matches_the_catalogue_and_roles() {
    check_or_update("permissions.md", &permissions_doc());
}

#[test]
fn openapi_doc_matches_the_handlers() {
    let doc = api::openapi::document().expect("openapi");
    check_or_update("openapi.json", &format!("{doc}\n"));
}
