//! Sign-in (by password, or by password and a sign-in code when sign-in is locked), token
//! refresh and sign-out. Each sign-in is a session (store `sessions`): its access tokens name
//! it, its refresh tokens form one rotation chain, and revoking it ends them all. The API signs
//! the access tokens (it holds the key); these use cases decide who gets one and write the
//! session, each in one transaction.

use std::net::IpAddr;

use domain::{Code, account::Account, codes::Purpose, ids::UserId, login_guard::KNOWN_FOR_MS};
use store::{
    Store,
    auth::Taken,
    sessions::{NewSignIn, NextToken},
    users::UserRow,
};

use crate::{
    Result, actors, codes,
    login_guard::Attempt,
    passwords,
    tokens::{digest, new_refresh_token, new_session_id},
};

/// Refresh tokens longer than this were never issued here (ours are 43 characters).
const MAX_TOKEN_LEN: usize = 200;

/// A used refresh token presented again within this long after its use is taken for a race of
/// the owner's own clients (two tabs refreshing at once, a retry after a lost answer) and only
/// refused; later, it means a copy is in other hands and the whole session ends.
pub const REUSE_GRACE_MS: i64 = 5_000;

/// A password sign-in as the client sent it.
#[derive(Debug)]
pub struct Credentials<'a> {
    pub username: &'a str,
    pub password: String,
    /// A sign-in code (`/anonymous/getCode?type=login`): with the password, it signs in when
    /// sign-in is locked (109).
    pub code: Option<&'a str>,
    pub ip: IpAddr,
}

/// How long a session's refresh tokens last, and how much each failure past the threshold
/// slows the next sign-in.
#[derive(Debug, Clone, Copy)]
pub struct Terms {
    pub refresh_ttl_ms: i64,
    pub delay_step_ms: u64,
}

/// What a sign-in or a refresh hands out: the account, its session, and a new refresh token
/// (stored only as its digest). The access token is the API's to sign.
#[derive(Debug)]
pub struct Issued {
    pub user: UserRow,
    pub session: String,
    pub refresh_token: String,
}

/// Signs in with a password: 102 wrong account or password, 101 disabled, 109 locked (unless
/// a right sign-in code comes with it), 5/6 wrong or expired code. Writes the session, its
/// first refresh token and the throttle's record of the success in one transaction.
pub async fn sign_in(store: &Store, c: Credentials<'_>, terms: &Terms, now: i64) -> Result<Issued> {
    // A malformed account is throttled like any other (no existence leak). One with control
    // characters cannot exist and is not looked up: PostgreSQL refuses NUL in text, and the
    // throttle key drops them for the same reason.
    let lookup = !c.username.chars().any(char::is_control);
    let account = Account::parse(c.username)
        .map(|a| a.as_str().to_string())
        .unwrap_or_else(|_| {
            c.username
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| !c.is_control())
                .take(64)
                .collect()
        });
    let attempt = Attempt::new(&account, c.ip);
    // A sign-in code proves the owner is here: it is checked first (5, 6 like every code) and
    // lets the attempt past a lock. Unknown accounts get codes too, so this path looks the same.
    let code = c.code.map(str::trim).filter(|c| !c.is_empty());
    if let Some(code) = code {
        codes::check(store, &account, Purpose::Login, code, now).await?;
    }
    attempt
        .admit(store, now, code.is_some(), terms.delay_step_ms)
        .await?;

    let user = match lookup {
        true => store.user_by_account(&account).await?,
        false => None,
    };
    // Unknown accounts still pay for a hash check, so timing does not tell them apart.
    let stored_hash = user.as_ref().map(|u| u.password_hash.clone());
    let matches = passwords::verify(c.password, stored_hash).await?;
    // A code serves one password check, right or wrong.
    if let Some(code) = code {
        codes::redeem(store, &account, Purpose::Login, code, now).await?;
    }
    let user = match (user, matches) {
        (Some(user), true) => user,
        _ => {
            attempt.failed(store, now).await?;
            return Err(Code::WrongCredentials.into());
        }
    };
    if user.disabled || actors::company_locked(store, &user).await? {
        return Err(Code::AccountDisabled.into());
    }
    let session = new_session_id();
    let refresh_token = new_refresh_token();
    store
        .sign_in(&NewSignIn {
            session: &session,
            user: user.id(),
            refresh_hash: &digest(&refresh_token),
            now,
            expires_at: now + terms.refresh_ttl_ms,
            cleared_key: attempt.pair_key(),
            known_key: attempt.known_key(),
            known_until: now + KNOWN_FOR_MS,
        })
        .await?;
    Ok(Issued {
        user,
        session,
        refresh_token,
    })
}

/// Trades a live refresh token for a new one of the same session, in one transaction: the old
/// one is used up and its successor stored, or neither. `None` (401) when the token is not
/// live or its account is disabled or gone; 101 when the account's company is disabled. A
/// refused token is used up all the same: it served its one refresh.
pub async fn refresh(
    store: &Store,
    token: &str,
    terms: &Terms,
    now: i64,
) -> Result<Option<Issued>> {
    if token.is_empty() || token.len() > MAX_TOKEN_LEN {
        return Ok(None);
    }
    let hash = digest(token);
    let Some(owner) = store.refresh_token_owner(&hash, now).await? else {
        end_if_reused(store, &hash, now).await?;
        return Ok(None);
    };
    let user = store
        .user(owner.user())
        .await?
        .filter(|u| !u.disabled && u.deleted_at.is_none());
    let locked = match &user {
        Some(user) => actors::company_locked(store, user).await?,
        None => false,
    };
    let Some(user) = user.filter(|_| !locked) else {
        store.take_refresh_token(&hash, now).await?;
        return match locked {
            true => Err(Code::AccountDisabled.into()),
            false => Ok(None),
        };
    };
    let refresh_token = new_refresh_token();
    let new_session = new_session_id();
    let next = NextToken {
        hash: &digest(&refresh_token),
        new_session: &new_session,
        now,
        expires_at: now + terms.refresh_ttl_ms,
    };
    match store.rotate_refresh_token(&hash, &next).await? {
        Some(Taken {
            session_id: Some(session),
            ..
        }) => Ok(Some(Issued {
            user,
            session,
            refresh_token,
        })),
        // Another refresh took it since it was read.
        _ => {
            end_if_reused(store, &hash, now).await?;
            Ok(None)
        }
    }
}

/// A used refresh token presented again after the grace: a copy is in other hands, so its
/// whole session ends.
async fn end_if_reused(store: &Store, hash: &str, now: i64) -> Result<()> {
    if store
        .revoke_reused_chain(hash, now - REUSE_GRACE_MS, now)
        .await?
    {
        tracing::warn!("a used refresh token came back: its session is revoked");
    }
    Ok(())
}

/// Who signs out: the caller of a valid access token, with its session.
#[derive(Debug, Clone, Copy)]
pub struct Caller<'a> {
    pub user: UserId,
    pub session: &'a str,
}

/// Signs out on the server: ends the caller's session and the session `refresh_token`
/// belongs to (every token of both). A refresh token alone is enough when the access token has
/// expired: holding a token of the chain is the proof. A caller without a refresh token ends
/// every session of theirs. False, and nothing ended, when there is neither a caller nor a
/// refresh token that could have been issued here (401).
pub async fn sign_out(
    store: &Store,
    caller: Option<Caller<'_>>,
    refresh_token: Option<&str>,
    now: i64,
) -> Result<bool> {
    let token = refresh_token
        .filter(|t| !t.is_empty() && t.len() <= MAX_TOKEN_LEN)
        .map(digest);
    match (caller, token) {
        (Some(me), Some(token)) => {
            store.revoke_user_session(me.session, me.user, now).await?;
            store
                .revoke_refresh_token(&token, Some(me.user), now)
                .await?;
        }
        (Some(me), None) => {
            store.revoke_user_sessions(me.user, now).await?;
        }
        (None, Some(token)) => {
            store.revoke_refresh_token(&token, None, now).await?;
        }
        (None, None) => return Ok(false),
    }
    Ok(true)
}
