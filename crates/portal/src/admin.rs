//! `portal admin`: account chores without the web app, the outbox (where verification codes
//! wait when no mail server is configured) and backups of a SQLite database.

use anyhow::{Context, bail};
use clap::Subcommand;
use domain::{
    Code, Lang,
    account::{Account, check_password},
    ids::UserId,
    user::BuiltinRole,
};
use store::{Store, users::NewUser};

use crate::{config::Config, serve::open_store};

#[derive(Subcommand)]
pub enum Action {
    /// Create an account with a built-in role.
    CreateUser {
        #[arg(long)]
        account: String,
        #[arg(long)]
        password: String,
        /// internal-admin, company-admin, company-staff or owner.
        #[arg(long, default_value = "owner")]
        role: String,
        /// Company name for company roles (created when it does not exist).
        #[arg(long)]
        company: Option<String>,
        #[arg(long, default_value = "")]
        nickname: String,
        /// The account may look but not change anything.
        #[arg(long)]
        read_only: bool,
    },
    /// Set a new password (ends the account's sessions).
    ResetPassword {
        #[arg(long)]
        account: String,
        #[arg(long)]
        password: String,
    },
    /// Disable or enable an account: `--disabled true` (or a bare `--disabled`) disables,
    /// `--disabled false` (or leaving it out) enables.
    SetDisabled {
        #[arg(long)]
        account: String,
        /// true/false (also yes/no, on/off, 1/0); a bare flag means true. It takes a value
        /// because the README documents `--disabled true`, which a plain flag refused.
        #[arg(
            long,
            num_args = 0..=1,
            default_value = "false",
            default_missing_value = "true",
            value_parser = clap::builder::BoolishValueParser::new()
        )]
        disabled: bool,
    },
    /// List every account.
    ListUsers,
    /// Show the messages in the outbox: verification codes without SMTP, and queued e-mails
    /// (alarms, reports) with their delivery state.
    Outbox {
        #[arg(long)]
        account: Option<String>,
        #[arg(long, default_value_t = 20)]
        limit: i64,
    },
    /// Copy the SQLite database to FILE (a new file) while the portal runs; PostgreSQL is
    /// backed up with pg_dump.
    Backup { file: std::path::PathBuf },
}

pub async fn run(config: &Config, action: Action) -> anyhow::Result<()> {
    let store = open_store(config).await?;
    match action {
        Action::CreateUser {
            account,
            password,
            role,
            company,
            nickname,
            read_only,
        } => {
            let role = BuiltinRole::parse(&role).with_context(|| format!("unknown role {role}"))?;
            let id = create_user(
                &store,
                &account,
                &password,
                role,
                company.as_deref(),
                &nickname,
                read_only,
            )
            .await?;
            println!("created user {id} ({account}, {})", role.slug());
        }
        Action::ResetPassword { account, password } => {
            let user = find(&store, &account).await?;
            password_rule(&password)?;
            let hash = service::passwords::hash(password)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let now = domain::time::now_ms();
            store.set_password(user, &hash, now).await?;
            println!("password of {account} reset");
        }
        Action::SetDisabled { account, disabled } => {
            let user = find(&store, &account).await?;
            store
                .set_disabled(user, disabled, domain::time::now_ms(), None)
                .await?;
            println!(
                "{account} {}",
                if disabled { "disabled" } else { "enabled" }
            );
        }
        Action::ListUsers => {
            println!(
                "{:<6} {:<32} {:<9} {:<8} {:<8}",
                "id", "account", "kind", "company", "disabled"
            );
            for u in store.users(None).await? {
                let company = u
                    .company_id
                    .map(|c| c.to_string())
                    .unwrap_or_else(|| "-".into());
                println!(
                    "{:<6} {:<32} {:<9} {:<8} {:<8}",
                    u.id, u.account, u.kind, company, u.disabled
                );
            }
        }
        Action::Outbox { account, limit } => {
            for m in store.outbox(account.as_deref(), limit).await? {
                let when =
                    chrono::DateTime::from_timestamp_millis(m.created_at).unwrap_or_default();
                println!(
                    "{when} {} to {}: {} | {}{}",
                    m.channel,
                    m.recipient,
                    m.subject,
                    m.body,
                    delivery(&m)
                );
            }
        }
        Action::Backup { file } => crate::backup::run(config, &store, &file).await?,
    }
    store.close().await;
    Ok(())
}

/// The rule every password set from here follows, the web's own (docs/overview.md, "Limits":
/// 6-16 characters, no spaces, the commonest refused), in words for a terminal.
fn password_rule(password: &str) -> anyhow::Result<()> {
    check_password(password).map_err(|e| match e.code {
        Code::PasswordTooCommon => anyhow::anyhow!("{}", e.code.message(Lang::En)),
        _ => anyhow::anyhow!("password must be 6-16 characters without spaces"),
    })
}

async fn find(store: &Store, account: &str) -> anyhow::Result<UserId> {
    let account =
        Account::parse(account).map_err(|_| anyhow::anyhow!("not an email or phone number"))?;
    match store.user_by_account(account.as_str()).await? {
        Some(u) => Ok(u.id()),
        None => bail!("no account {}", account.as_str()),
    }
}

pub async fn create_user(
    store: &Store,
    account: &str,
    password: &str,
    role: BuiltinRole,
    company: Option<&str>,
    nickname: &str,
    read_only: bool,
) -> anyhow::Result<UserId> {
    let account = Account::parse(account)
        .map_err(|_| anyhow::anyhow!("account must be an email or phone number"))?;
    password_rule(password)?;
    let company = match (role.user_kind(), company) {
        (domain::user::UserKind::Company, Some(name)) => {
            Some(match store.company_by_name(name).await? {
                Some(c) => c.id,
                None => store.create_company(name, domain::time::now_ms()).await?,
            })
        }
        (domain::user::UserKind::Company, None) => bail!("company roles need --company"),
        _ => None,
    };
    let hash = service::passwords::hash(password.to_string())
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let role_id = store.builtin_role(role).await?;
    let default_nickname = account
        .as_str()
        .split('@')
        .next()
        .unwrap_or_default()
        .to_string();
    let id = store
        .create_user(&NewUser {
            account: account.as_str(),
            email: account.email().unwrap_or(""),
            mobile: account.phone().unwrap_or(""),
            password_hash: &hash,
            nickname: if nickname.is_empty() {
                &default_nickname
            } else {
                nickname
            },
            kind: role.user_kind(),
            company,
            role: Some(role_id),
            user_src: "admin",
            now: domain::time::now_ms(),
        })
        .await
        .with_context(|| format!("creating {}", account.as_str()))?;
    if read_only {
        store.set_read_only(id, true).await?;
    }
    Ok(id)
}

/// Where a queued e-mail stands (nothing for messages that were never queued).
fn delivery(m: &store::outbox::OutboxRow) -> String {
    if !m.queued {
        return String::new();
    }
    let at = |ms: i64| chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default();
    match (m.sent_at, m.next_attempt_at) {
        (Some(sent), _) => format!("  [{} sent {}]", m.kind, at(sent)),
        (None, next) => format!(
            "  [{} queued, {} attempts, next {}{}]",
            m.kind,
            m.attempts,
            next.map(at).map(|t| t.to_string()).unwrap_or_default(),
            m.last_error
                .as_deref()
                .map(|e| format!(", last error: {e}"))
                .unwrap_or_default()
        ),
    }
}
