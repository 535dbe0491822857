//! Verification codes: six digits, sent to an email address or phone, valid for ten minutes,
//! used once, at most five wrong guesses, and at most one send a minute and ten an hour per
//! account. Purposes: registration, password reset, the notification address, and the proof
//! that unlocks a locked sign-in.

use domain::{Code, DomainError, Lang, account::check_code};
use rand::Rng;

use crate::{AppState, envelope::ApiResult, session::digest};
use domain::time::now_ms;

const TTL_MS: i64 = 10 * 60 * 1000;
const RESEND_AFTER_MS: i64 = 60 * 1000;
const MAX_PER_HOUR: i64 = 10;
const MAX_WRONG_GUESSES: i64 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Register,
    Reset,
    /// Confirms the address that receives abnormal-event emails.
    Notify,
    /// Proves a sign-in comes from the account's owner when sign-in is locked (code 109).
    Login,
}

impl Purpose {
    /// Clients name the purpose in words or by number; registration is the default.
    pub fn parse(raw: Option<&str>) -> Result<Purpose, DomainError> {
        match raw.map(str::trim).unwrap_or("register") {
            "register" | "reg" | "signup" | "1" => Ok(Purpose::Register),
            "reset" | "forget" | "resetPwd" | "2" => Ok(Purpose::Reset),
            "notify" | "3" => Ok(Purpose::Notify),
            "login" | "signin" | "unlock" | "4" => Ok(Purpose::Login),
            _ => Err(DomainError::invalid("type")),
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Purpose::Register => "register",
            Purpose::Reset => "reset",
            Purpose::Notify => "notify",
            Purpose::Login => "login",
        }
    }
}

fn hash(account: &str, purpose: Purpose, code: &str) -> String {
    digest(&format!("{account}|{}|{code}", purpose.as_str()))
}

pub async fn send(app: &AppState, account: &str, purpose: Purpose, lang: Lang) -> ApiResult<()> {
    let now = now_ms();
    let code = issue(app, account, purpose, now).await?;
    let (subject, body) = message(lang, purpose, &code);
    Ok(app
        .mailer
        .send(&app.store, account, subject, &body, now)
        .await?)
}

/// A sign-in code, answered alike whether or not the account exists: the code is stored (and
/// counted against the send limits) either way, and delivered only to a real account, after the
/// answer, so that neither the answer nor its timing tells the two apart.
pub async fn send_login(app: &AppState, account: &str, exists: bool, lang: Lang) -> ApiResult<()> {
    let now = now_ms();
    let code = issue(app, account, Purpose::Login, now).await?;
    if exists {
        let (app, account) = (app.clone(), account.to_string());
        tokio::spawn(async move {
            let (subject, body) = message(lang, Purpose::Login, &code);
            if let Err(e) = app
                .mailer
                .send(&app.store, &account, subject, &body, now)
                .await
            {
                tracing::warn!(%e, "sign-in code not delivered");
            }
        });
    }
    Ok(())
}

/// Stores a new code for the account (retiring the previous one) within the send limits.
async fn issue(app: &AppState, account: &str, purpose: Purpose, now: i64) -> ApiResult<String> {
    let store = &app.store;
    let recent = store.latest_code_sent_at(account).await?;
    if recent.is_some_and(|t| t > now - RESEND_AFTER_MS)
        || store.codes_sent_since(account, now - 3_600_000).await? >= MAX_PER_HOUR
    {
        return Err(Code::TooManyAttempts.into());
    }
    let code = format!("{:06}", rand::rngs::OsRng.gen_range(0..1_000_000));
    store
        .insert_code(
            account,
            purpose.as_str(),
            &hash(account, purpose, &code),
            now,
            now + TTL_MS,
        )
        .await?;
    Ok(code)
}

/// Checks a code; with `consume` it is also used up, so it cannot serve twice.
pub async fn verify(
    app: &AppState,
    account: &str,
    purpose: Purpose,
    code: &str,
    consume: bool,
) -> ApiResult<()> {
    let code = check_code(code)?;
    let now = now_ms();
    let store = &app.store;
    let live = store
        .live_code(account, purpose.as_str())
        .await?
        .ok_or(Code::CodeWrong)?;
    if live.expires_at <= now {
        return Err(Code::CodeExpired.into());
    }
    if live.attempts >= MAX_WRONG_GUESSES {
        store.use_code(live.id, now).await?;
        return Err(Code::CodeWrong.into());
    }
    if live.code_hash != hash(account, purpose, &code) {
        store.count_code_attempt(live.id).await?;
        return Err(Code::CodeWrong.into());
    }
    if consume && !store.use_code(live.id, now).await? {
        return Err(Code::CodeWrong.into());
    }
    Ok(())
}

fn message(lang: Lang, purpose: Purpose, code: &str) -> (&'static str, String) {
    let login = purpose == Purpose::Login;
    match lang {
        Lang::En => (
            "Your verification code",
            format!(
                "Your verification code is {code}. It expires in 10 minutes.{}",
                if login {
                    " It was asked for to sign in: if that was not you, change your password."
                } else {
                    ""
                }
            ),
        ),
        Lang::Zh => (
            "您的验证码",
            format!(
                "您的验证码是 {code}，10 分钟内有效。{}",
                if login {
                    "此验证码用于登录：如非本人操作，请修改密码。"
                } else {
                    ""
                }
            ),
        ),
        Lang::Es => (
            "Su código de verificación",
            format!(
                "Su código de verificación es {code}. Caduca en 10 minutos.{}",
                if login {
                    " Se solicitó para iniciar sesión: si no fue usted, cambie su contraseña."
                } else {
                    ""
                }
            ),
        ),
    }
}
