//! Managing a company's staff (`company.user.edit`): checking and adding accounts, editing
//! them, and deleting them softly. A staff member of another company answers like a missing
//! account (105).

use axum::extract::{Multipart, State, multipart::MultipartRejection};
use domain::{
    Code, DomainError,
    account::{Account, PROFILE_TEXT_MAX, check_password, check_text, parse_email, parse_phone},
    company::{self, AccessChange},
    ids::{CompanyId, RoleId, UserId},
    user::BuiltinRole,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use store::{
    StoreError,
    users::{NewStaff, StaffEdit, UserRow},
};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use crate::{
    AppState, audit,
    company::{CompanyQuery, company_of},
    envelope::{Ack, ApiResult, Data, Done, Envelope, current_lang},
    extract::{Body, PathId, Query, num},
    files::{self, ImageKind},
    limits,
    session::CurrentUser,
    users::AVATAR_MAX_BYTES,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(check))
        .routes(routes!(assignable))
        .routes(routes!(add).layer(limits::upload(AVATAR_MAX_BYTES)))
        .routes(routes!(edit))
        .routes(routes!(delete))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct AccountQuery {
    /// A phone number or e-mail address.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub account: Option<String>,
}

/// 104 when the account is taken by any account not deleted. More than 30 calls by one caller
/// in 15 minutes answer 7 (the check would otherwise list who has an account).
#[utoipa::path(get, path = "/api/v1/company/user/check", tag = "company", params(AccountQuery),
    security(("bearer" = [])), responses((status = 200, description = "Free; 2, 4, 7, 104", body = Ack)))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<AccountQuery>,
) -> ApiResult<Done> {
    me.actor.require("company.user.edit")?;
    crate::rate_limit::STAFF_ACCOUNT_CHECK
        .check_caller(&app.store, me.actor.id, now_ms())
        .await?;
    let account = Account::parse(q.account.as_deref().unwrap_or(""))
        .map_err(|_| DomainError::invalid("account"))?;
    if app.store.user_by_account(account.as_str()).await?.is_some() {
        return Err(Code::AccountExists.into());
    }
    Ok(Done)
}

/// A role staff may be given.
#[derive(Debug, Serialize, ToSchema)]
pub struct AssignableRole {
    pub id: i64,
    /// Built-in roles' names are in the caller's language.
    pub name: String,
    pub builtin: bool,
}

async fn assignable_roles(app: &AppState, company: CompanyId) -> ApiResult<Vec<AssignableRole>> {
    let lang = current_lang();
    let mut roles = Vec::new();
    for role in [BuiltinRole::CompanyAdmin, BuiltinRole::CompanyStaff] {
        roles.push(AssignableRole {
            id: app.store.builtin_role(role).await?.0,
            name: role.display_name(lang).to_string(),
            builtin: true,
        });
    }
    for r in app.store.company_roles(company).await? {
        roles.push(AssignableRole {
            id: r.id,
            name: r.name,
            builtin: false,
        });
    }
    Ok(roles)
}

/// The built-in administrator and staff roles, then the company's own roles.
#[utoipa::path(get, path = "/api/v1/company/roles/assignable", tag = "company", params(CompanyQuery),
    security(("bearer" = [])), responses((status = 200, description = "The roles; 2", body = Envelope<Vec<AssignableRole>>)))]
pub async fn assignable(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CompanyQuery>,
) -> ApiResult<Data<Vec<AssignableRole>>> {
    let company = company_of(&me, q.company_id, "company.user")?;
    Ok(Data(assignable_roles(&app, company).await?))
}

/// A role of `company`'s assignable roles (4 `roleId` otherwise) granting nothing the caller
/// lacks (2).
async fn grantable_role(
    app: &AppState,
    me: &CurrentUser,
    company: CompanyId,
    raw: Option<i64>,
) -> ApiResult<RoleId> {
    let id = raw.ok_or(DomainError::invalid("roleId"))?;
    if !assignable_roles(app, company)
        .await?
        .iter()
        .any(|r| r.id == id)
    {
        return Err(DomainError::invalid("roleId").into());
    }
    let keys = app.store.role_permissions(RoleId(id)).await?;
    if keys.iter().any(|k| !me.actor.has(k)) {
        return Err(Code::NoPermission.into());
    }
    Ok(RoleId(id))
}

/// Optional contact fields: empty, or a valid value.
fn contact(
    field: &str,
    raw: Option<&str>,
    parse: fn(&str) -> Result<String, DomainError>,
) -> Result<String, DomainError> {
    match raw.map(str::trim).unwrap_or("") {
        "" => Ok(String::new()),
        v => parse(v).map_err(|_| DomainError::invalid(field)),
    }
}

/// Creates a staff member from a multipart form (`account`, `password`, `nickname`, `name`,
/// `email`, `mobile`, `roleId`, `companyId` for internal administrators, and an optional
/// `avatar` file: JPG or PNG of at most 6 MB). Answers the new user's id.
#[utoipa::path(post, path = "/api/v1/company/user/add", tag = "company", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "account, password, nickname, name, email, mobile, roleId, companyId?, avatar? (file)"),
    responses((status = 200, description = "The new user's id; 2, 4, 11, 12, 13, 104, 111", body = Envelope<i64>)))]
pub async fn add(
    State(app): State<AppState>,
    me: CurrentUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Data<i64>> {
    me.actor.require("company.user.edit")?;
    me.actor.require_writable()?;
    let form = files::form(multipart, "avatar", AVATAR_MAX_BYTES).await?;
    let asked = match form.text("companyId") {
        Some(raw) => Some(
            raw.parse::<i64>()
                .map_err(|_| DomainError::invalid("companyId"))?,
        ),
        None => None,
    };
    let company = company::acting_company(&me.actor, asked)?;
    if app.store.company(company).await?.is_none() {
        return Err(DomainError::invalid("companyId").into());
    }
    let account = Account::parse(form.text("account").unwrap_or(""))
        .map_err(|_| DomainError::invalid("account"))?;
    let password = form
        .fields
        .get("password")
        .map(String::as_str)
        .unwrap_or("");
    check_password(password)?;
    let nickname = check_text(
        "nickname",
        form.text("nickname").unwrap_or(""),
        PROFILE_TEXT_MAX,
    )?;
    let name = check_text("name", form.text("name").unwrap_or(""), PROFILE_TEXT_MAX)?;
    let email = contact("email", form.text("email").or(account.email()), parse_email)?;
    let mobile = contact(
        "mobile",
        form.text("mobile").or(account.phone()),
        parse_phone,
    )?;
    let role_id = match form.text("roleId") {
        Some(raw) => Some(
            raw.parse::<i64>()
                .map_err(|_| DomainError::invalid("roleId"))?,
        ),
        None => None,
    };
    let role = grantable_role(&app, &me, company, role_id).await?;
    if app.store.user_by_account(account.as_str()).await?.is_some() {
        return Err(Code::AccountExists.into());
    }
    let kind = match &form.file {
        Some(bytes) => Some(files::check_image(
            bytes,
            &[ImageKind::Jpeg, ImageKind::Png],
        )?),
        None => None,
    };
    let hash = service::passwords::hash(password.to_string()).await?;
    let avatar = match (&form.file, kind) {
        (Some(bytes), Some(kind)) => files::save(&app, "avatars", kind.extension(), bytes).await?,
        _ => String::new(),
    };
    let nickname = match nickname.as_str() {
        "" => account
            .as_str()
            .split('@')
            .next()
            .unwrap_or_default()
            .to_string(),
        _ => nickname,
    };
    let created = app
        .store
        .create_staff(&NewStaff {
            account: account.as_str(),
            password_hash: &hash,
            nickname: &nickname,
            name: &name,
            email: &email,
            mobile: &mobile,
            avatar: &avatar,
            company,
            role,
            now: now_ms(),
        })
        .await;
    let id = match created {
        Ok(id) => id,
        Err(e) => {
            files::remove(&app, &avatar).await;
            return Err(match e {
                StoreError::Conflict(_) => Code::AccountExists.into(),
                e => e.into(),
            });
        }
    };
    let detail = json!({"account": account.as_str(), "companyId": company.0, "roleId": role.0});
    audit::record_admin(&app, &me, "staff.add", &format!("user:{id}"), detail).await;
    Ok(Data(id.0))
}

/// A staff member the caller may manage; anything else answers 105.
async fn managed_staff(app: &AppState, me: &CurrentUser, id: UserId) -> ApiResult<UserRow> {
    me.actor.require("company.user.edit")?;
    me.actor.require_writable()?;
    let user = app.store.user(id).await?.ok_or(Code::NotRegistered)?;
    if user.deleted_at.is_some() || !company::may_manage_staff(&me.actor, &user.scope()) {
        return Err(Code::NotRegistered.into());
    }
    Ok(user)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct StaffEditRequest {
    pub nickname: Option<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    pub mobile: Option<String>,
    #[serde(deserialize_with = "num::opt_i64")]
    pub role_id: Option<i64>,
    #[serde(deserialize_with = "num::opt_bool")]
    pub disabled: Option<bool>,
}

/// Edits a colleague's profile, role and access; fields left out keep their value. Nobody
/// changes their own role (802) or disables themselves (4 `disabled`).
#[utoipa::path(post, path = "/api/v1/user/edit/{id}", tag = "company", request_body = StaffEditRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Saved; 2, 4, 105, 802", body = Ack)))]
pub async fn edit(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<UserId>,
    Body(req): Body<StaffEditRequest>,
) -> ApiResult<Done> {
    let user = managed_staff(&app, &me, id).await?;
    let company = user.company().ok_or(Code::NotRegistered)?;
    let role = match req.role_id {
        Some(r) if Some(r) != user.role_id => {
            Some(grantable_role(&app, &me, company, Some(r)).await?)
        }
        _ => None,
    };
    let disabled = req.disabled.unwrap_or(user.disabled);
    let change = AccessChange {
        role_changes: role.is_some(),
        disabled_changes: disabled != user.disabled,
    };
    let admin = app.store.company(company).await?.and_then(|c| c.admin());
    company::check_staff_edit(&me.actor, &user.scope(), admin, change)?;
    let text = |field, new: Option<String>, old: &str| match new {
        Some(v) => check_text(field, &v, PROFILE_TEXT_MAX),
        None => Ok(old.to_string()),
    };
    let edit = StaffEdit {
        nickname: text("nickname", req.nickname, &user.nickname)?,
        name: text("name", req.name, &user.name)?,
        email: match req.email {
            Some(e) => contact("email", Some(&e), parse_email)?,
            None => user.email.clone(),
        },
        mobile: match req.mobile {
            Some(m) => contact("mobile", Some(&m), parse_phone)?,
            None => user.mobile.clone(),
        },
        role: role.or(user.role()).ok_or(DomainError::invalid("roleId"))?,
        disabled,
    };
    app.store.update_staff(id, &edit, now_ms()).await?;
    let detail = json!({"roleId": edit.role.0, "disabled": disabled, "nickname": edit.nickname});
    audit::record_admin(&app, &me, "staff.edit", &format!("user:{id}"), detail).await;
    Ok(Done)
}

/// Deletes a colleague: the account is marked deleted and disabled, renamed to free its name,
/// and signed out everywhere; their plants, commands and history stay. Not oneself nor the
/// company's administrator (4 `id`).
#[utoipa::path(post, path = "/api/v1/user/delete/{id}", tag = "company",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Deleted; 2, 4, 105", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<UserId>,
) -> ApiResult<Done> {
    let user = managed_staff(&app, &me, id).await?;
    let company = user.company().ok_or(Code::NotRegistered)?;
    let admin = app.store.company(company).await?.and_then(|c| c.admin());
    company::check_staff_delete(&me.actor, &user.scope(), admin)?;
    app.store.delete_staff(id, now_ms()).await?;
    let detail = json!({"account": user.account, "companyId": company.0});
    audit::record_admin(&app, &me, "staff.delete", &format!("user:{id}"), detail).await;
    Ok(Done)
}
