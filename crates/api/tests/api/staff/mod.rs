//! Staff management through the router: checking, adding (multipart), editing and softly
//! deleting colleagues, the assignable roles, and the limits of the roles API. Another
//! company's staff member answers exactly like a missing account.

use crate::common;

use common::multipart::FilePart;
use common::{App, spawn};
use domain::{ids::CompanyId, user::BuiltinRole};
use serde_json::{Value, json};

mod add;
mod delete;
mod edit;
mod roles;

async fn add(
    app: &App,
    token: &str,
    fields: &[(&str, &str)],
    avatar: Option<&[u8]>,
) -> common::Resp {
    let avatar = avatar.map(|bytes| FilePart {
        field: "avatar",
        name: "a.png",
        content_type: "image/png",
        bytes,
    });
    app.post_multipart("/api/v1/company/user/add", fields, avatar, Some(token))
        .await
}

struct World {
    sun: CompanyId,
    admin: String,
    admin_id: i64,
    staff: String,
    moon_staff: i64,
    owner: String,
    staff_role: i64,
}

async fn world(app: &App) -> World {
    let sun = app.company("Sun Co").await;
    let moon = app.company("Moon Co").await;
    let (admin_id, admin) = app
        .signed_in("admin@sun.example", BuiltinRole::CompanyAdmin, Some(sun))
        .await;
    let (_, staff) = app
        .signed_in("staff@sun.example", BuiltinRole::CompanyStaff, Some(sun))
        .await;
    let moon_staff = app
        .user(
            "staff@moon.example",
            "secret123",
            BuiltinRole::CompanyStaff,
            Some(moon),
        )
        .await;
    let (_, owner) = app
        .signed_in("owner@example.com", BuiltinRole::PlantOwner, None)
        .await;
    World {
        sun,
        admin,
        admin_id: admin_id.0,
        staff,
        moon_staff: moon_staff.0,
        owner,
        staff_role: app.role(BuiltinRole::CompanyStaff).await.0,
    }
}

async fn staff_list(app: &App, token: &str) -> Value {
    let r = app
        .get("/api/v1/company/user/list?limit=50", Some(token))
        .await;
    r.expect_code(0);
    r.data().clone()
}
