//! The caller's permission tree (drives the web menu and buttons), and the trees of what can be
//! granted to company roles and to customers. The server checks the same keys on every action.

use std::collections::HashSet;

use axum::{Router, routing::get};
use domain::{
    Lang,
    permissions::{Permission, children_of},
    user::BuiltinRole,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    AppState,
    envelope::{ApiResult, Data, current_lang},
    session::CurrentUser,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/permission", get(mine))
        .route("/api/v1/permission/company", get(company))
        .route("/api/v1/permission/customer", get(customer))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Node {
    pub id: i64,
    pub name: String,
    pub permission: String,
    /// 0 = menu route, 1 = button.
    #[serde(rename = "type")]
    pub kind: i64,
    #[schema(no_recursion)]
    pub children: Vec<Node>,
}

const ROOT_NAME: [&str; 3] = ["All permissions", "全部权限", "Todos los permisos"];

/// The catalogue pruned to `granted`, rooted at one node as clients expect.
pub fn tree(granted: &HashSet<&str>, lang: Lang) -> Node {
    let name = match lang {
        Lang::En => ROOT_NAME[0],
        Lang::Zh => ROOT_NAME[1],
        Lang::Es => ROOT_NAME[2],
    };
    Node {
        id: 0,
        name: name.into(),
        permission: "root".into(),
        kind: 0,
        children: branch(None, granted, lang),
    }
}

fn branch(parent: Option<&str>, granted: &HashSet<&str>, lang: Lang) -> Vec<Node> {
    children_of(parent)
        .filter(|p| granted.contains(p.key))
        .map(|p: &Permission| Node {
            id: p.id,
            name: p.name(lang).into(),
            permission: p.key.into(),
            kind: p.kind.wire(),
            children: branch(Some(p.key), granted, lang),
        })
        .collect()
}

/// The caller's own permission tree.
#[utoipa::path(get, path = "/api/v1/permission", tag = "permissions", security(("bearer" = [])),
    responses((status = 200, description = "Envelope with ONE root node", body = Node)))]
pub async fn mine(me: CurrentUser) -> Data<Node> {
    let granted: HashSet<&str> = me.actor.permissions.iter().map(String::as_str).collect();
    Data(tree(&granted, current_lang()))
}

/// What the caller may grant to a company role: at most what they hold themselves.
#[utoipa::path(get, path = "/api/v1/permission/company", tag = "permissions",
    security(("bearer" = [])), responses((status = 200, description = "Envelope with a root node; 2", body = Node)))]
pub async fn company(me: CurrentUser) -> ApiResult<Data<Node>> {
    me.actor.require("company.role.list.view")?;
    let granted: HashSet<&str> = me.actor.permissions.iter().map(String::as_str).collect();
    Ok(Data(tree(&granted, current_lang())))
}

/// What a customer (plant owner) account is granted.
#[utoipa::path(get, path = "/api/v1/permission/customer", tag = "permissions",
    security(("bearer" = [])), responses((status = 200, description = "Envelope with a root node; 2", body = Node)))]
pub async fn customer(me: CurrentUser) -> ApiResult<Data<Node>> {
    me.actor.require("customer.list.view")?;
    let granted: HashSet<&str> = BuiltinRole::PlantOwner.permissions().into_iter().collect();
    Ok(Data(tree(&granted, current_lang())))
}
