//! Verification codes as use cases: sending one (within the limits of [`domain::codes`]) and
//! checking a guess, which counts against the code when wrong.

use domain::ids::CodeId;
use std::sync::Arc;

use domain::{
    Code, Lang,
    account::check_code,
    codes::{Guess, Purpose, SEND_WINDOW_MS, TTL_MS, judge, may_send},
};
use rand::Rng;
use store::Store;

use crate::{Result, mailer::Mailer, tokens::digest};

fn hash(account: &str, purpose: Purpose, code: &str) -> String {
    digest(&format!("{account}|{}|{code}", purpose.as_str()))
}

/// A code asked for: registration refuses a taken account (103), reset an unknown one (105);
/// a sign-in code is answered alike for every account ([`send_login`]); 7 past the send
/// limits.
pub async fn request(
    store: &Store,
    mailer: &Arc<Mailer>,
    account: &str,
    purpose: Purpose,
    lang: Lang,
    now: i64,
) -> Result<()> {
    let exists = store.user_by_account(account).await?.is_some();
    match purpose {
        Purpose::Register if exists => Err(Code::AlreadyRegistered.into()),
        Purpose::Reset if !exists => Err(Code::NotRegistered.into()),
        Purpose::Login => send_login(store, mailer, account, exists, lang, now).await,
        _ => send(store, mailer, account, purpose, lang, now).await,
    }
}

/// Sends `account` a new code for `purpose`, in `lang`; 7 when it was sent one within the
/// last minute or ten within the hour.
pub async fn send(
    store: &Store,
    mailer: &Mailer,
    account: &str,
    purpose: Purpose,
    lang: Lang,
    now: i64,
) -> Result<()> {
    let code = issue(store, account, purpose, now).await?;
    let (subject, body) = message(lang, purpose, &code);
    Ok(mailer.send(store, account, subject, &body, now).await?)
}

/// A sign-in code, answered alike whether or not the account exists: the code is stored (and
/// counted against the send limits) either way, and delivered only to a real account, after the
/// answer, so that neither the answer nor its timing tells the two apart.
async fn send_login(
    store: &Store,
    mailer: &Arc<Mailer>,
    account: &str,
    exists: bool,
    lang: Lang,
    now: i64,
) -> Result<()> {
    let code = issue(store, account, Purpose::Login, now).await?;
    if exists {
        let (store, mailer, account) = (store.clone(), mailer.clone(), account.to_string());
        tokio::spawn(async move {
            let (subject, body) = message(lang, Purpose::Login, &code);
            if let Err(e) = mailer.send(&store, &account, subject, &body, now).await {
                tracing::warn!(%e, "sign-in code not delivered");
            }
        });
    }
    Ok(())
}

/// Stores a new code for the account (retiring the previous one) within the send limits.
async fn issue(store: &Store, account: &str, purpose: Purpose, now: i64) -> Result<String> {
    let latest = store.latest_code_sent_at(account).await?;
    let sent = store
        .codes_sent_since(account, now - SEND_WINDOW_MS)
        .await?;
    if !may_send(latest, sent, now) {
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

/// A code guessed right, still unused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RightCode {
    /// Its row, which the use case it serves marks used.
    pub id: CodeId,
}

/// Checks a guess at the live code of `account` for `purpose` without using it up: 4 when it
/// is not six digits, 6 when expired, 5 when wrong (counted; a code that has had its wrong
/// guesses retires).
pub async fn check(
    store: &Store,
    account: &str,
    purpose: Purpose,
    code: &str,
    now: i64,
) -> Result<RightCode> {
    let code = check_code(code)?;
    let live = store
        .live_code(account, purpose.as_str())
        .await?
        .ok_or(Code::CodeWrong)?;
    let matches = live.code_hash == hash(account, purpose, &code);
    match judge(live.expires_at, live.attempts, matches, now) {
        Guess::Right => Ok(RightCode { id: live.id }),
        Guess::Expired => Err(Code::CodeExpired.into()),
        Guess::Exhausted => {
            store.use_code(live.id, now).await?;
            Err(Code::CodeWrong.into())
        }
        Guess::Wrong => {
            store.count_code_attempt(live.id).await?;
            Err(Code::CodeWrong.into())
        }
    }
}

/// [`check`], then uses the code up so it cannot serve twice (5 when another request used it
/// first).
pub async fn redeem(
    store: &Store,
    account: &str,
    purpose: Purpose,
    code: &str,
    now: i64,
) -> Result<()> {
    let right = check(store, account, purpose, code, now).await?;
    use_up(store, right, now).await
}

/// Uses up a code [`check`] found right; 5 when another request used it first.
pub async fn use_up(store: &Store, code: RightCode, now: i64) -> Result<()> {
    if !store.use_code(code.id, now).await? {
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
