//! Managing a company's staff (`company.user.edit`): checking and adding accounts, editing
//! them, and deleting them softly. A staff member of another company answers like a missing
//! account (105).

use axum::extract::{Multipart, State, multipart::MultipartRejection};
use domain::login_guard::STAFF_ACCOUNT_CHECK;
use domain::permissions::COMPANY_USER_EDIT;
use domain::{
    Code, DomainError,
    account::Account,
    ids::{CompanyId, UserId},
};
use serde::{Deserialize, Serialize};
use service::login_guard::limit_caller;
use service::staff::{self, StaffChanges, StaffInput};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use crate::{
    AppState,
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
    me.actor.require(COMPANY_USER_EDIT)?;
    limit_caller(&app.store, &STAFF_ACCOUNT_CHECK, me.actor.id, now_ms()).await?;
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
    let roles = staff::assignable(&app.store, company).await?;
    Ok(roles
        .into_iter()
        .map(|r| AssignableRole {
            id: r.id.0,
            name: match r.builtin {
                Some(role) => role.display_name(lang).to_string(),
                None => r.name,
            },
            builtin: r.builtin.is_some(),
        })
        .collect())
}

/// The built-in administrator and staff roles, then the company's own roles.
#[utoipa::path(get, path = "/api/v1/company/roles/assignable", tag = "company", params(CompanyQuery),
    security(("bearer" = [])), responses((status = 200, description = "The roles; 2", body = Envelope<Vec<AssignableRole>>)))]
pub async fn assignable(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CompanyQuery>,
) -> ApiResult<Data<Vec<AssignableRole>>> {
    let company = company_of(&me, q.company_id, domain::permissions::COMPANY_USER)?;
    Ok(Data(assignable_roles(&app, company).await?))
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
    // Refused before the upload is read.
    me.actor.require(COMPANY_USER_EDIT)?;
    me.actor.require_writable()?;
    let form = files::form(multipart, "avatar", AVATAR_MAX_BYTES).await?;
    let company_id = match form.text("companyId") {
        Some(raw) => Some(
            raw.parse::<i64>()
                .map_err(|_| DomainError::invalid("companyId"))?,
        ),
        None => None,
    };
    let input = StaffInput {
        company_id,
        account: form.text("account").unwrap_or(""),
        password: form
            .fields
            .get("password")
            .map(String::as_str)
            .unwrap_or(""),
        nickname: form.text("nickname").unwrap_or(""),
        name: form.text("name").unwrap_or(""),
        email: form.text("email"),
        mobile: form.text("mobile"),
        role_id: form.text("roleId"),
    };
    let prepared = staff::prepare_add(&app.store, &me.actor, &input).await?;
    let kind = match &form.file {
        Some(bytes) => Some(files::check_image(
            bytes,
            &[ImageKind::Jpeg, ImageKind::Png],
        )?),
        None => None,
    };
    let hash = service::passwords::hash(prepared.password.clone()).await?;
    let avatar = match (&form.file, kind) {
        (Some(bytes), Some(kind)) => files::save(&app, "avatars", kind.extension(), bytes).await?,
        _ => String::new(),
    };
    match staff::add(&app.store, &me.actor, &prepared, &hash, &avatar, now_ms()).await {
        Ok(id) => Ok(Data(id.0)),
        Err(e) => {
            files::remove(&app, &avatar).await;
            Err(e.into())
        }
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct StaffEditRequest {
    #[schema(max_length = 30)]
    pub nickname: Option<String>,
    #[schema(max_length = 30)]
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
    let changes = StaffChanges {
        nickname: req.nickname,
        name: req.name,
        email: req.email,
        mobile: req.mobile,
        role_id: req.role_id,
        disabled: req.disabled,
    };
    staff::edit(&app.store, &me.actor, id, changes, now_ms()).await?;
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
    staff::delete(&app.store, &me.actor, id, now_ms()).await?;
    Ok(Done)
}
