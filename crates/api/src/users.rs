//! The signed-in user's own account: profile, password, avatar, preferences and notifications.

use axum::extract::{Multipart, Path, State, multipart::MultipartRejection};
use domain::{
    Code, DomainError,
    account::{check_password, parse_email},
    codes::Purpose,
    ids::UserId,
    user::TempUnit,
    webhook::hhmm,
};
use serde::{Deserialize, Serialize};
use service::{
    codes,
    login_guard::PasswordChange,
    users::{self, NotifyChanges, ProfileChanges, QuietChanges},
};
use store::companies::CompanyRow;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use crate::{
    AppState,
    envelope::{Ack, ApiError, ApiResult, Data, Done, Envelope, current_lang},
    extract::{Body, Query, num},
    files::{self, ImageKind},
    limits,
    session::CurrentUser,
};
use domain::time::now_ms;

pub const AVATAR_MAX_BYTES: usize = 6 * 1024 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(me))
        .routes(routes!(preferences, set_preferences))
        .routes(routes!(set_notify))
        .routes(routes!(notify))
        .routes(routes!(notify_code))
        .routes(routes!(update_profile))
        .routes(routes!(change_password))
        .routes(routes!(upload_avatar).layer(limits::upload(AVATAR_MAX_BYTES)))
}

/// `createAt` as clients parse it: ISO 8601 with milliseconds and an offset.
pub fn create_at(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .format("%Y-%m-%dT%H:%M:%S%.3f+00:00")
        .to_string()
}

/// The signed-in user, as `GET /api/v1/user` answers it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Me {
    pub id: i64,
    pub account: String,
    pub nickname: String,
    pub name: String,
    /// The avatar's URL, empty when none.
    pub avatar: String,
    /// 0 unknown, 1 male, 2 female.
    pub gender: i64,
    pub mobile: String,
    pub email: String,
    /// ISO 8601 with milliseconds and an offset.
    pub create_at: String,
    /// `internal`, `company` or `owner`.
    #[serde(rename = "type")]
    pub kind: String,
    /// A built-in role's slug (`internal-admin`, `company-admin`, `company-staff`, `owner`), a
    /// custom role's name, or empty.
    pub role_name: String,
    pub read_only: bool,
    pub temp_unit: TemperatureUnit,
    /// The user's company, null for plant owners.
    pub company: Option<MyCompany>,
    /// Where the account was made (`web`, an app...).
    pub user_src: String,
}

/// The signed-in user's company: what the web app brands itself with.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MyCompany {
    pub id: i64,
    pub name: String,
    pub logo_url: String,
    pub icon_url: String,
    /// A CSS colour, empty when the default applies.
    pub theme_color: String,
}

impl From<CompanyRow> for MyCompany {
    fn from(c: CompanyRow) -> Self {
        MyCompany {
            id: c.id.0,
            name: c.name,
            logo_url: c.logo_url,
            icon_url: c.icon_url,
            theme_color: c.theme_color,
        }
    }
}

/// The current user and their company.
#[utoipa::path(get, path = "/api/v1/user", tag = "users", security(("bearer" = [])),
    responses((status = 200, description = "The user and their company", body = Envelope<Me>)))]
pub async fn me(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<Me>> {
    let u = &me.user;
    let company = match u.company() {
        Some(id) => app.store.company(id).await?.map(MyCompany::from),
        None => None,
    };
    let role = match u.role() {
        Some(id) => app.store.role(id).await?,
        None => None,
    };
    let role_name = role
        .map(|r| r.builtin().map(|b| b.slug().to_string()).unwrap_or(r.name))
        .unwrap_or_default();
    Ok(Data(Me {
        id: u.id.0,
        account: u.account.clone(),
        nickname: u.nickname.clone(),
        name: u.name.clone(),
        avatar: u.avatar.clone(),
        gender: u.gender,
        mobile: u.mobile.clone(),
        email: u.email.clone(),
        create_at: create_at(u.created_at),
        kind: u.kind.clone(),
        role_name,
        read_only: u.read_only,
        temp_unit: TemperatureUnit::of(&u.temp_unit),
        company,
        user_src: u.user_src.clone(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProfileRequest {
    #[serde(default)]
    #[schema(max_length = 30)]
    pub nickname: Option<String>,
    #[serde(default)]
    #[schema(max_length = 30)]
    pub name: Option<String>,
    #[serde(default, alias = "sex", deserialize_with = "num::opt_i64")]
    pub gender: Option<i64>,
    #[serde(default, alias = "phone")]
    pub mobile: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
}

/// Updates a profile; fields left out keep their value.
#[utoipa::path(post, path = "/api/v1/user/{id}", tag = "users", request_body = ProfileRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Saved; 4 invalid field, 105 no such user", body = Ack)))]
pub async fn update_profile(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<ProfileRequest>,
) -> ApiResult<Done> {
    let changes = ProfileChanges {
        nickname: req.nickname,
        name: req.name,
        gender: req.gender,
        mobile: req.mobile,
        email: req.email,
    };
    users::update_profile(&app.store, &me.actor, UserId(path_id(&id)?), changes).await?;
    Ok(Done)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordRequest {
    #[serde(default, alias = "oldPwd", alias = "old_password")]
    pub old_password: Option<String>,
    #[serde(default, alias = "newPwd", alias = "password", alias = "new_password")]
    #[schema(min_length = 6, max_length = 16)]
    pub new_password: Option<String>,
}

/// Changes the caller's own password (108 when the old one is wrong) and ends every session.
/// After 5 wrong current passwords every try is refused for 15 minutes (110), the right one too.
#[utoipa::path(post, path = "/api/v1/user/{id}/pwd", tag = "users", request_body = PasswordRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Changed; 4, 105, 108, 110, 111", body = Ack)))]
pub async fn change_password(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<PasswordRequest>,
) -> ApiResult<Done> {
    if path_id::<UserId>(&id)? != me.user.id {
        return Err(Code::NotRegistered.into());
    }
    me.actor.require_writable()?;
    let new = req.new_password.unwrap_or_default();
    check_password(&new)?;
    let now = now_ms();
    let guard = PasswordChange::new(me.id());
    guard.admit(&app.store, now).await?;
    let old = req.old_password.unwrap_or_default();
    if !service::passwords::verify(old, Some(me.user.password_hash.clone())).await? {
        guard.failed(&app.store, now).await?;
        return Err(Code::OldPasswordWrong.into());
    }
    guard.succeeded(&app.store).await?;
    let hash = service::passwords::hash(new).await?;
    users::change_password(&app.store, &me.actor, &hash, now).await?;
    Ok(Done)
}

/// Replaces the avatar: JPG or PNG (by content), at most 6 MB. Answers the new URL.
#[utoipa::path(post, path = "/api/v1/user/{id}/avatar", tag = "users",
    params(("id" = i64, Path)), security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "field `file`"),
    responses((status = 200, description = "The avatar URL; 11 not JPG/PNG, 12 over 6 MB, 13 over 24 megapixels", body = Envelope<String>)))]
pub async fn upload_avatar(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Data<String>> {
    let id = UserId(path_id(&id)?);
    // Refused before the upload is read.
    users::managed(&app.store, &me.actor, id).await?;
    let bytes = files::first_file(multipart, AVATAR_MAX_BYTES).await?;
    let kind = files::check_image(&bytes, &[ImageKind::Jpeg, ImageKind::Png])?;
    let url = files::save(&app, "avatars", kind.extension(), &bytes).await?;
    let before = users::set_avatar(&app.store, &me.actor, id, &url).await?;
    files::remove(&app, &before.avatar).await;
    Ok(Data(url))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Personalized {
    /// `C` or `F`.
    #[serde(default)]
    pub temp_unit: Option<String>,
}

/// The caller's display preferences.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Preferences {
    pub temp_unit: TemperatureUnit,
}

/// How temperatures are shown: Celsius or Fahrenheit.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub enum TemperatureUnit {
    C,
    F,
}

impl TemperatureUnit {
    /// The stored unit (always written as `C` or `F`; Celsius when unreadable).
    fn of(stored: &str) -> Self {
        match TempUnit::parse(stored).unwrap_or_default() {
            TempUnit::C => TemperatureUnit::C,
            TempUnit::F => TemperatureUnit::F,
        }
    }
}

#[utoipa::path(get, path = "/api/v1/user/personalized", tag = "users", security(("bearer" = [])),
    responses((status = 200, description = "The caller's preferences", body = Envelope<Preferences>)))]
pub async fn preferences(me: CurrentUser) -> Data<Preferences> {
    Data(Preferences {
        temp_unit: TemperatureUnit::of(&me.user.temp_unit),
    })
}

#[utoipa::path(post, path = "/api/v1/user/personalized", tag = "users", request_body = Personalized,
    security(("bearer" = [])), responses((status = 200, description = "Saved; 4", body = Ack)))]
pub async fn set_preferences(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<Personalized>,
) -> ApiResult<Done> {
    let unit = req.temp_unit.as_deref().unwrap_or("");
    users::set_temp_unit(&app.store, &me.actor, unit).await?;
    Ok(Done)
}

/// Whether abnormal-event emails are sent, and where.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotifySettings {
    pub enabled: bool,
    /// The address they go to, empty when none was set.
    pub email: String,
    /// How long a gateway may stay offline before an e-mail tells of it (minutes, 5-1440).
    pub offline_minutes: i64,
    /// Quiet hours: alarm e-mails and webhook deliveries are held from `quietFrom` to
    /// `quietTo` (`HH:MM`, may wrap midnight) in `quietZone` and delivered when they end.
    pub quiet_enabled: bool,
    pub quiet_from: String,
    pub quiet_to: String,
    /// An IANA time zone name (the web app sends the browser's).
    pub quiet_zone: String,
}

#[utoipa::path(get, path = "/api/v1/user/notify/enable", tag = "users", security(("bearer" = [])),
    responses((status = 200, description = "The abnormal-event email settings", body = Envelope<NotifySettings>)))]
pub async fn notify(me: CurrentUser) -> Data<NotifySettings> {
    Data(NotifySettings {
        enabled: me.user.notify_enabled,
        email: me.user.notify_email,
        offline_minutes: me.user.notify_offline_minutes,
        quiet_enabled: me.user.quiet_enabled,
        quiet_from: hhmm(me.user.quiet_from),
        quiet_to: hhmm(me.user.quiet_to),
        quiet_zone: me.user.quiet_zone,
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NotifyRequest {
    #[serde(default, deserialize_with = "num::opt_bool")]
    pub enabled: Option<bool>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub code: Option<String>,
    /// Minutes a gateway may stay offline before an e-mail (5-1440; unchanged when absent).
    #[serde(default, rename = "offlineMinutes", deserialize_with = "num::opt_text")]
    #[schema(value_type = Option<i64>, minimum = 5, maximum = 1440)]
    pub offline_minutes: Option<String>,
    /// Quiet hours on or off; left out, the quiet hours stay as they are.
    #[serde(default, rename = "quietEnabled", deserialize_with = "num::opt_bool")]
    pub quiet_enabled: Option<bool>,
    /// `HH:MM` (unchanged when absent).
    #[serde(default, rename = "quietFrom", deserialize_with = "num::opt_text")]
    pub quiet_from: Option<String>,
    #[serde(default, rename = "quietTo", deserialize_with = "num::opt_text")]
    pub quiet_to: Option<String>,
    /// An IANA time zone name (unchanged when absent).
    #[serde(default, rename = "quietZone", deserialize_with = "num::opt_text")]
    pub quiet_zone: Option<String>,
}

/// The address a confirmation code is sent to.
#[derive(Debug, Deserialize, IntoParams)]
pub struct NotifyCodeQuery {
    #[serde(default)]
    pub email: Option<String>,
}

/// Sends a code to confirm an address for abnormal-event emails.
#[utoipa::path(get, path = "/api/v1/user/notify/code", tag = "users", params(NotifyCodeQuery),
    security(("bearer" = [])), responses((status = 200, description = "Sent; 4, 7", body = Ack)))]
pub async fn notify_code(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<NotifyCodeQuery>,
) -> ApiResult<Done> {
    me.actor.require_writable()?;
    let email = parse_email(q.email.as_deref().unwrap_or(""))?;
    let lang = current_lang();
    codes::send(
        &app.store,
        &app.mailer,
        &email,
        Purpose::Notify,
        lang,
        now_ms(),
    )
    .await?;
    Ok(Done)
}

/// Turns abnormal-event emails on or off, and sets the offline delay (`offlineMinutes`,
/// 5-1440, else 4 `offlineMinutes`) and the quiet hours (`quietEnabled` with `quietFrom`,
/// `quietTo` as `HH:MM` and `quietZone`; 4 names a bad one; all left out: unchanged). An
/// address other than the account's own email must be
/// confirmed with a code from `/api/v1/user/notify/code` (5, 6). The e-mails are written in
/// the language of this request.
#[utoipa::path(post, path = "/api/v1/user/notify", tag = "users", request_body = NotifyRequest,
    security(("bearer" = [])), responses((status = 200, description = "Saved; 4, 5, 6", body = Ack)))]
pub async fn set_notify(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<NotifyRequest>,
) -> ApiResult<Done> {
    let changes = NotifyChanges {
        enabled: req.enabled.unwrap_or(false),
        email: req.email.as_deref(),
        code: req.code.as_deref(),
        offline_minutes: req.offline_minutes.as_deref(),
        lang: current_lang(),
        quiet: req.quiet_enabled.map(|enabled| QuietChanges {
            enabled,
            from: req.quiet_from.as_deref(),
            to: req.quiet_to.as_deref(),
            zone: req.quiet_zone.as_deref(),
        }),
    };
    users::set_notify(&app.store, &me.actor, changes, now_ms()).await?;
    Ok(Done)
}

/// Path ids must be plain numbers; anything else is a validation error, not a 4xx.
pub fn path_id<T: From<i64>>(raw: &str) -> Result<T, ApiError> {
    raw.trim()
        .parse::<i64>()
        .map(T::from)
        .map_err(|_| DomainError::invalid("id").into())
}
