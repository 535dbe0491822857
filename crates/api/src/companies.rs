//! Company administration: internal administrators (`sys.company.view`, `sys.company.edit`)
//! list, create, edit and disable companies; a company's own administrator (`company.edit`)
//! edits its details and branding. A company the caller may not edit answers like a missing
//! one (4 `id`).

use axum::extract::{Multipart, State, multipart::MultipartRejection};
use domain::{
    Code, DomainError,
    company::{self, DetailsInput, LOGO_MAX_BYTES},
    ids::CompanyId,
};
use serde::{Deserialize, Serialize};
use service::companies::{self, NewCompanyInput};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use crate::{
    AppState,
    company::CompanyInfo,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, PathId, Query, num},
    files, limits,
    paging::{Page, Paging},
    session::CurrentUser,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(check))
        .routes(routes!(add))
        .routes(routes!(edit))
        .routes(routes!(disable))
        .routes(routes!(upload_logo).layer(limits::upload(LOGO_MAX_BYTES)))
        .routes(routes!(set_logo))
        .routes(routes!(set_theme))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct ListQuery {
    /// Part of the company name, any case.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub name: Option<String>,
}

/// Every company, paged, with its administrator and counts.
#[utoipa::path(get, path = "/api/v1/company/list", tag = "companies", params(ListQuery, Paging),
    security(("bearer" = [])), responses((status = 200, description = "A page of companies; 2", body = Envelope<Page<CompanyInfo>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
    paging: Paging,
) -> ApiResult<Data<Page<CompanyInfo>>> {
    companies::require_internal(&me.actor, domain::permissions::SYS_COMPANY_VIEW)?;
    let (rows, total) = app
        .store
        .company_summaries(q.name.as_deref(), paging.limit(), paging.offset())
        .await?;
    let infos = rows.into_iter().map(CompanyInfo::from).collect();
    Ok(Data(Page::new(paging, total, infos)))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct CheckQuery {
    #[serde(default, deserialize_with = "num::opt_text")]
    pub name: Option<String>,
    /// The company being edited, whose own name does not count.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub id: Option<i64>,
}

/// 203 when another company has the name (trimmed, any case).
#[utoipa::path(get, path = "/api/v1/company/check", tag = "companies", params(CheckQuery),
    security(("bearer" = [])), responses((status = 200, description = "The name is free; 2, 4, 203", body = Ack)))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CheckQuery>,
) -> ApiResult<Done> {
    if !me.actor.has(domain::permissions::SYS_COMPANY_VIEW)
        && !me.actor.has(domain::permissions::COMPANY_EDIT)
    {
        return Err(Code::NoPermission.into());
    }
    let name = company::company_name(q.name.as_deref().unwrap_or(""))?;
    if app
        .store
        .company_name_taken(&name, q.id.map(CompanyId))
        .await?
    {
        return Err(Code::CompanyNameTaken.into());
    }
    Ok(Done)
}

/// A new company and its administrator.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct NewCompanyRequest {
    #[schema(min_length = 1, max_length = 40)]
    pub name: Option<String>,
    #[schema(max_length = 30)]
    pub contact_name: Option<String>,
    pub email: Option<String>,
    #[schema(max_length = 20)]
    pub phone: Option<String>,
    #[schema(max_length = 100)]
    pub address: Option<String>,
    #[schema(max_length = 200)]
    pub remark: Option<String>,
    /// A phone number or e-mail address: a new account, or an owner account without a company
    /// that becomes the administrator (106 for any other existing account).
    pub admin_account: Option<String>,
    /// 6-16 characters; required only when the account is new.
    #[schema(max_length = 16)]
    pub admin_password: Option<String>,
    #[schema(max_length = 30)]
    pub admin_nickname: Option<String>,
}

/// Creates a company with its administrator, in one transaction. Answers the company id.
#[utoipa::path(post, path = "/api/v1/company/add", tag = "companies", request_body = NewCompanyRequest,
    security(("bearer" = [])), responses((status = 200, description = "The new company's id; 2, 4, 106, 111, 203", body = Envelope<i64>)))]
pub async fn add(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<NewCompanyRequest>,
) -> ApiResult<Data<i64>> {
    let s = |v: &Option<String>| v.as_deref().unwrap_or("").to_string();
    let (name, contact, email, phone, address, remark) = (
        s(&req.name),
        s(&req.contact_name),
        s(&req.email),
        s(&req.phone),
        s(&req.address),
        s(&req.remark),
    );
    let input = NewCompanyInput {
        details: DetailsInput {
            name: &name,
            contact_name: &contact,
            email: &email,
            phone: &phone,
            address: &address,
            remark: &remark,
        },
        admin_account: req.admin_account.as_deref().unwrap_or(""),
        admin_password: req.admin_password.as_deref().unwrap_or(""),
        admin_nickname: req.admin_nickname.as_deref().unwrap_or(""),
    };
    let prepared = companies::prepare_company(&app.store, &me.actor, &input).await?;
    let hash = match &prepared.password {
        Some(p) => Some(service::passwords::hash(p.clone()).await?),
        None => None,
    };
    let (id, _) =
        companies::create_company(&app.store, &me.actor, &prepared, hash.as_deref(), now_ms())
            .await?;
    Ok(Data(id.0))
}

/// A company's details.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct CompanyEdit {
    #[schema(max_length = 40)]
    pub name: Option<String>,
    #[schema(max_length = 30)]
    pub contact_name: Option<String>,
    pub email: Option<String>,
    #[schema(max_length = 20)]
    pub phone: Option<String>,
    #[schema(max_length = 100)]
    pub address: Option<String>,
    #[schema(max_length = 200)]
    pub remark: Option<String>,
}

/// Replaces a company's details; fields left out are emptied, except the name, which stays.
#[utoipa::path(post, path = "/api/v1/company/{id}/edit", tag = "companies", request_body = CompanyEdit,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Saved; 2, 4, 203", body = Ack)))]
pub async fn edit(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<CompanyId>,
    Body(req): Body<CompanyEdit>,
) -> ApiResult<Done> {
    fn s(v: &Option<String>) -> &str {
        v.as_deref().unwrap_or("")
    }
    let details = companies::DetailsEdit {
        name: req.name.as_deref(),
        contact_name: s(&req.contact_name),
        email: s(&req.email),
        phone: s(&req.phone),
        address: s(&req.address),
        remark: s(&req.remark),
    };
    companies::edit(&app.store, &me.actor, id, &details, now_ms()).await?;
    Ok(Done)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct DisableRequest {
    #[serde(deserialize_with = "num::opt_bool")]
    pub disabled: Option<bool>,
}

/// Disables or enables a company: its staff get 101 at sign-in, at refresh and on every
/// request while it is disabled, and their sessions end (enabling it again revives none).
/// Nothing is deleted.
#[utoipa::path(post, path = "/api/v1/company/{id}/disable", tag = "companies", request_body = DisableRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Saved; 2, 4", body = Ack)))]
pub async fn disable(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<CompanyId>,
    Body(req): Body<DisableRequest>,
) -> ApiResult<Done> {
    let disabled = req.disabled.ok_or(DomainError::invalid("disabled"))?;
    companies::set_disabled(&app.store, &me.actor, id, disabled, now_ms()).await?;
    Ok(Done)
}

/// Where an uploaded logo is served.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogoUrl {
    /// `/files/logos/...`
    pub url: String,
}

/// Stores a logo or icon (JPG, PNG or GIF by content, at most 3 MB) for the company form.
#[utoipa::path(post, path = "/api/v1/company/uploadLogo", tag = "companies", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "field `file`; `companyId` (internal administrators)"),
    responses((status = 200, description = "The file's URL; 2, 4, 11, 12, 13", body = Envelope<LogoUrl>)))]
pub async fn upload_logo(
    State(app): State<AppState>,
    me: CurrentUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Data<LogoUrl>> {
    let form = files::form(multipart, "file", LOGO_MAX_BYTES).await?;
    let asked = match form.text("companyId") {
        Some(raw) => Some(
            raw.parse::<i64>()
                .map_err(|_| DomainError::invalid("companyId"))?,
        ),
        None => None,
    };
    let company = company::acting_company(&me.actor, asked)?;
    companies::editable(&app.store, &me.actor, company).await?;
    let bytes = form.file.ok_or(DomainError::invalid("file"))?;
    let kind = files::check_logo(&bytes)?;
    let url = files::save(&app, "logos", kind.extension(), &bytes).await?;
    companies::logo_uploaded(&app.store, &me.actor, company, &url, now_ms()).await;
    Ok(Data(LogoUrl { url }))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct LogoRequest {
    /// A URL from `uploadLogo`, or empty to clear.
    pub logo_url: Option<String>,
    /// A URL from `uploadLogo`, or empty to clear.
    pub icon_url: Option<String>,
}

/// Sets a company's logo and icon.
#[utoipa::path(post, path = "/api/v1/company/{id}/logo", tag = "companies", request_body = LogoRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Saved; 2, 4", body = Ack)))]
pub async fn set_logo(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<CompanyId>,
    Body(req): Body<LogoRequest>,
) -> ApiResult<Done> {
    let (logo, icon) = (req.logo_url.as_deref(), req.icon_url.as_deref());
    companies::set_logo(
        &app.store,
        &me.actor,
        id,
        logo.unwrap_or(""),
        icon.unwrap_or(""),
        now_ms(),
    )
    .await?;
    Ok(Done)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ThemeRequest {
    /// `#rgb` or `#rrggbb`, or empty for the default.
    pub theme_color: Option<String>,
}

/// Sets a company's theme colour.
#[utoipa::path(post, path = "/api/v1/company/{id}/themeColor", tag = "companies", request_body = ThemeRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Saved; 2, 4", body = Ack)))]
pub async fn set_theme(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<CompanyId>,
    Body(req): Body<ThemeRequest>,
) -> ApiResult<Done> {
    let color = req.theme_color.as_deref().unwrap_or("");
    companies::set_theme(&app.store, &me.actor, id, color, now_ms()).await?;
    Ok(Done)
}
