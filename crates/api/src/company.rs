//! A company's own details, staff and roles. Every read and write is confined to the caller's
//! company (internal administrators may name any company); another company's objects answer
//! exactly like missing ones.

use axum::extract::{Path, State};
use domain::{
    Code,
    ids::{CompanyId, RoleId, UserId},
    user::{BuiltinRole, MAX_CUSTOM_ROLES},
};
use serde::{Deserialize, Serialize};
use service::roles::{self, RoleDraft};
use std::collections::HashMap;

use store::{companies::CompanySummary, roles::RoleRow, users::UserRow};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope, current_lang},
    extract::{Body, Query, num},
    paging::{Page, Paging},
    session::CurrentUser,
    users::{create_at, path_id},
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(info))
        .routes(routes!(staff))
        .routes(routes!(staff_member))
        .routes(routes!(staff_member_slash))
        .routes(routes!(roles))
        .routes(routes!(check_role))
        .routes(routes!(create_role))
        .routes(routes!(role, update_role))
        .routes(routes!(delete_role))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct CompanyQuery {
    /// Internal administrators choose the company; everyone else gets their own.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub company_id: Option<i64>,
    /// The staff list only: part of the account, nickname or name.
    #[serde(default)]
    pub name: Option<String>,
}

/// The company the request is about, after the permission check.
pub(crate) fn company_of(
    me: &CurrentUser,
    asked: Option<i64>,
    permission: &str,
) -> ApiResult<CompanyId> {
    me.actor.require(permission)?;
    let company = match (me.actor.is_internal(), asked) {
        (true, Some(id)) => Some(CompanyId(id)),
        _ => me.actor.company,
    };
    company.ok_or_else(|| Code::NoPermission.into())
}

/// A company's details.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompanyInfo {
    pub id: i64,
    pub name: String,
    pub contact_name: String,
    pub email: String,
    pub phone: String,
    pub address: String,
    pub remark: String,
    pub logo_url: String,
    pub icon_url: String,
    /// A CSS colour, empty when the default applies.
    pub theme_color: String,
    /// ISO 8601 with milliseconds and an offset.
    pub create_at: String,
    /// The company's administrator account, null when none.
    pub admin_id: Option<i64>,
    /// That account's name, empty when none.
    pub admin_account: String,
    /// A disabled company's staff cannot sign in (101).
    pub disabled: bool,
    /// Staff not deleted.
    pub staff: i64,
    /// Plants of the company.
    pub plants: i64,
}

impl From<CompanySummary> for CompanyInfo {
    fn from(s: CompanySummary) -> Self {
        let c = s.company;
        CompanyInfo {
            id: c.id.0,
            name: c.name,
            contact_name: c.contact_name,
            email: c.email,
            phone: c.phone,
            address: c.address,
            remark: c.remark,
            logo_url: c.logo_url,
            icon_url: c.icon_url,
            theme_color: c.theme_color,
            create_at: create_at(c.created_at),
            admin_id: c.admin_id.map(|v| v.0),
            admin_account: s.admin_account,
            disabled: c.disabled,
            staff: s.staff,
            plants: s.plants,
        }
    }
}

#[utoipa::path(get, path = "/api/v1/company/info", tag = "company", params(CompanyQuery),
    security(("bearer" = [])), responses((status = 200, description = "The company; 2", body = Envelope<CompanyInfo>)))]
pub async fn info(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CompanyQuery>,
) -> ApiResult<Data<CompanyInfo>> {
    let id = company_of(&me, q.company_id, domain::permissions::COMPANY_INFO)?;
    let c = app
        .store
        .company_summary(id)
        .await?
        .ok_or(Code::NoPermission)?;
    Ok(Data(CompanyInfo::from(c)))
}

/// A member of a company's staff.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffMember {
    pub id: i64,
    pub account: String,
    pub nickname: String,
    pub name: String,
    pub email: String,
    pub mobile: String,
    /// The member's role, null when none.
    pub role_id: Option<i64>,
    /// The role's name (built-in roles in the caller's language), empty when none.
    pub role_name: String,
    pub disabled: bool,
    /// ISO 8601 with milliseconds and an offset.
    pub create_at: String,
}

/// The names of the roles staff may hold, by role id.
pub(crate) async fn role_names(
    app: &AppState,
    company: Option<CompanyId>,
) -> ApiResult<HashMap<RoleId, String>> {
    let lang = current_lang();
    let mut names = HashMap::new();
    for role in BuiltinRole::ALL {
        let id = app.store.builtin_role(role).await?;
        names.insert(id, role.display_name(lang).to_string());
    }
    if let Some(company) = company {
        for r in app.store.company_roles(company).await? {
            names.insert(r.id, r.name);
        }
    }
    Ok(names)
}

fn staff_member_of(u: &UserRow, roles: &HashMap<RoleId, String>) -> StaffMember {
    StaffMember {
        role_name: u
            .role_id
            .and_then(|r| roles.get(&r).cloned())
            .unwrap_or_default(),
        id: u.id.0,
        account: u.account.clone(),
        nickname: u.nickname.clone(),
        name: u.name.clone(),
        email: u.email.clone(),
        mobile: u.mobile.clone(),
        role_id: u.role_id.map(|v| v.0),
        disabled: u.disabled,
        create_at: create_at(u.created_at),
    }
}

/// The staff of a company, paged, filtered by `name`.
#[utoipa::path(get, path = "/api/v1/company/user/list", tag = "company", params(CompanyQuery, Paging),
    security(("bearer" = [])), responses((status = 200, description = "A page of staff; 2", body = Envelope<Page<StaffMember>>)))]
pub async fn staff(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CompanyQuery>,
    paging: Paging,
) -> ApiResult<Data<Page<StaffMember>>> {
    let id = company_of(&me, q.company_id, domain::permissions::COMPANY_USER)?;
    let needle = q.name.unwrap_or_default().to_lowercase();
    let matching: Vec<UserRow> = app
        .store
        .users(Some(id))
        .await?
        .into_iter()
        .filter(|u| {
            needle.is_empty()
                || u.account.contains(&needle)
                || u.nickname.to_lowercase().contains(&needle)
                || u.name.to_lowercase().contains(&needle)
        })
        .collect();
    let roles = role_names(&app, Some(id)).await?;
    let infos = matching
        .iter()
        .skip(paging.offset() as usize)
        .take(paging.limit() as usize)
        .map(|u| staff_member_of(u, &roles))
        .collect();
    Ok(Data(Page::new(paging, matching.len() as i64, infos)))
}

/// The same with a trailing slash, as the original API's clients call it.
#[utoipa::path(get, path = "/api/v1/company/user/{id}/", tag = "company", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "As GET /api/v1/company/user/{id}", body = Envelope<StaffMember>)))]
pub async fn staff_member_slash(
    app: State<AppState>,
    me: CurrentUser,
    id: Path<String>,
) -> ApiResult<Data<StaffMember>> {
    staff_member(app, me, id).await
}

#[utoipa::path(get, path = "/api/v1/company/user/{id}", tag = "company", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "One staff member; 105", body = Envelope<StaffMember>)))]
pub async fn staff_member(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<StaffMember>> {
    me.actor.require(domain::permissions::COMPANY_USER)?;
    let user = app
        .store
        .user(UserId(path_id(&id)?))
        .await?
        .ok_or(Code::NotRegistered)?;
    let scope = user.scope();
    if !me.actor.can_see_user(&scope) || user.company().is_none() || user.deleted_at.is_some() {
        return Err(Code::NotRegistered.into());
    }
    let roles = role_names(&app, user.company()).await?;
    Ok(Data(staff_member_of(&user, &roles)))
}

/// A role of a company.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompanyRole {
    pub id: i64,
    pub name: String,
    /// The permission keys granted.
    pub permissions: Vec<String>,
    /// How many users hold the role.
    pub users: i64,
    /// ISO 8601 with milliseconds and an offset.
    pub create_at: String,
}

async fn company_role(app: &AppState, r: &RoleRow) -> ApiResult<CompanyRole> {
    let permissions = app.store.role_permissions(r.id).await?;
    let users = app.store.users_with_role(r.id).await?;
    Ok(CompanyRole {
        id: r.id.0,
        name: r.name.clone(),
        permissions,
        users,
        create_at: create_at(r.created_at),
    })
}

/// Every role of the company, on one page.
#[utoipa::path(get, path = "/api/v1/company/roles", tag = "company", params(CompanyQuery),
    security(("bearer" = [])), responses((status = 200, description = "The company's roles, all on page 1; 2", body = Envelope<Page<CompanyRole>>)))]
pub async fn roles(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CompanyQuery>,
) -> ApiResult<Data<Page<CompanyRole>>> {
    let id = company_of(
        &me,
        q.company_id,
        domain::permissions::COMPANY_ROLE_LIST_VIEW,
    )?;
    let mut infos = Vec::new();
    for r in app.store.company_roles(id).await? {
        infos.push(company_role(&app, &r).await?);
    }
    Ok(Data(Page::whole(infos)))
}

#[utoipa::path(get, path = "/api/v1/company/role/{id}", tag = "company", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The role; 2, 4", body = Envelope<CompanyRole>)))]
pub async fn role(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<CompanyRole>> {
    me.actor
        .require(domain::permissions::COMPANY_ROLE_LIST_VIEW)?;
    let role = roles::visible(&app.store, &me.actor, RoleId(path_id(&id)?)).await?;
    Ok(Data(company_role(&app, &role).await?))
}

#[derive(Debug, Deserialize, IntoParams, ToSchema)]
pub struct RoleRequest {
    #[serde(default)]
    #[schema(min_length = 1, max_length = 5)]
    pub name: Option<String>,
    /// Permission keys of the catalogue; at most what the caller holds.
    #[serde(default)]
    pub permissions: Option<Vec<String>>,
    #[serde(default, rename = "companyId", deserialize_with = "num::opt_i64")]
    pub company_id: Option<i64>,
}

/// 801 when the name is taken, 800 when the company already has five roles.
#[utoipa::path(get, path = "/api/v1/company/role/check", tag = "company", params(RoleRequest),
    security(("bearer" = [])), responses((status = 200, description = "Free to create; 800, 801", body = Ack)))]
pub async fn check_role(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<RoleRequest>,
) -> ApiResult<Done> {
    let company = company_of(
        &me,
        q.company_id,
        domain::permissions::COMPANY_ROLE_LIST_VIEW,
    )?;
    let existing = app.store.company_roles(company).await?;
    if let Some(name) = q.name.as_deref().map(str::trim).filter(|n| !n.is_empty())
        && existing.iter().any(|r| r.name == name)
    {
        return Err(Code::RoleExists.into());
    }
    if existing.len() >= MAX_CUSTOM_ROLES {
        return Err(Code::RoleLimit.into());
    }
    Ok(Done)
}

#[utoipa::path(post, path = "/api/v1/company/role", tag = "company", request_body = RoleRequest,
    security(("bearer" = [])), responses((status = 200, description = "The new role's id; 2, 4, 800, 801", body = Envelope<i64>)))]
pub async fn create_role(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<RoleRequest>,
) -> ApiResult<Data<i64>> {
    let keys = req.permissions.unwrap_or_default();
    let draft = RoleDraft {
        name: req.name.as_deref(),
        permissions: &keys,
    };
    let id = roles::create(&app.store, &me.actor, req.company_id, &draft, now_ms()).await?;
    Ok(Data(id.0))
}

/// Renames a role and/or replaces its permissions. The caller's own role is locked (802).
#[utoipa::path(post, path = "/api/v1/company/role/{id}", tag = "company", request_body = RoleRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Saved; 2, 4, 801, 802", body = Ack)))]
pub async fn update_role(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<RoleRequest>,
) -> ApiResult<Done> {
    let keys = req.permissions.unwrap_or_default();
    let draft = RoleDraft {
        name: req.name.as_deref(),
        permissions: &keys,
    };
    roles::update(
        &app.store,
        &me.actor,
        RoleId(path_id(&id)?),
        &draft,
        now_ms(),
    )
    .await?;
    Ok(Done)
}

/// Deletes a custom role; its users fall back to the built-in staff role. 802 for one's own.
#[utoipa::path(post, path = "/api/v1/company/role/{id}/delete", tag = "company",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Deleted; 2, 4, 802", body = Ack)))]
pub async fn delete_role(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    roles::delete(&app.store, &me.actor, RoleId(path_id(&id)?), now_ms()).await?;
    Ok(Done)
}
