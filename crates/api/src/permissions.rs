//! The caller's permission tree (drives the web menu and buttons), and the trees of what can be
//! granted to company roles and to customers. The server checks the same keys on every action.

use std::collections::HashSet;
use utoipa_axum::{router::OpenApiRouter, routes};

use domain::{
    Lang,
    permissions::{Permission, children_of},
    user::BuiltinRole,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope, current_lang},
    session::CurrentUser,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(mine))
        .routes(routes!(company))
        .routes(routes!(customer))
}

/// One permission of the catalogue and those under it. The trees answered have one root
/// (`permission` `root`, id 0).
#[derive(Debug, Serialize, ToSchema)]
pub struct PermissionNode {
    pub id: i64,
    pub name: String,
    pub permission: String,
    /// 0 = menu route, 1 = button.
    #[serde(rename = "type")]
    pub kind: i64,
    #[schema(no_recursion)]
    pub children: Vec<PermissionNode>,
}

const ROOT_NAME: [&str; 3] = ["All permissions", "全部权限", "Todos los permisos"];

/// The catalogue pruned to `granted`, rooted at one node as clients expect.
pub fn tree(granted: &HashSet<&str>, lang: Lang) -> PermissionNode {
    let name = match lang {
        Lang::En => ROOT_NAME[0],
        Lang::Zh => ROOT_NAME[1],
        Lang::Es => ROOT_NAME[2],
    };
    PermissionNode {
        id: 0,
        name: name.into(),
        permission: "root".into(),
        kind: 0,
        children: branch(None, granted, lang),
    }
}

fn branch(parent: Option<&str>, granted: &HashSet<&str>, lang: Lang) -> Vec<PermissionNode> {
    children_of(parent)
        .filter(|p| granted.contains(p.key))
        .map(|p: &Permission| PermissionNode {
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
    responses((status = 200, description = "ONE root node", body = Envelope<PermissionNode>)))]
pub async fn mine(me: CurrentUser) -> Data<PermissionNode> {
    let granted: HashSet<&str> = me.actor.permissions.iter().map(String::as_str).collect();
    Data(tree(&granted, current_lang()))
}

/// What the caller may grant to a company role: at most what they hold themselves.
#[utoipa::path(get, path = "/api/v1/permission/company", tag = "permissions",
    security(("bearer" = [])), responses((status = 200, description = "A root node; 2", body = Envelope<PermissionNode>)))]
pub async fn company(me: CurrentUser) -> ApiResult<Data<PermissionNode>> {
    me.actor
        .require(domain::permissions::COMPANY_ROLE_LIST_VIEW)?;
    let granted: HashSet<&str> = me.actor.permissions.iter().map(String::as_str).collect();
    Ok(Data(tree(&granted, current_lang())))
}

/// What a customer (plant owner) account is granted.
#[utoipa::path(get, path = "/api/v1/permission/customer", tag = "permissions",
    security(("bearer" = [])), responses((status = 200, description = "A root node; 2", body = Envelope<PermissionNode>)))]
pub async fn customer(me: CurrentUser) -> ApiResult<Data<PermissionNode>> {
    me.actor.require(domain::permissions::CUSTOMER_LIST_VIEW)?;
    let granted: HashSet<&str> = BuiltinRole::PlantOwner.permissions().into_iter().collect();
    Ok(Data(tree(&granted, current_lang())))
}
