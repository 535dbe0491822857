//! Sign-up: the code is used up, the account made and its audit entry written together.

use std::sync::Arc;

use crate::common::{Error, audit_entries, fail_audit, failed_in_store};
use domain::{Lang, account::Account, codes::Purpose};
use service::{
    codes,
    mailer::Mailer,
    sign_up::{self, SignUp},
};
use store::{
    Store,
    testing::{TestResult, each_backend},
};

const PASSWORD: &str = "Kettle-Harbour4";

/// Asks for a registration code for `account` and reads it from the outbox (no SMTP server is
/// configured, so the message is kept there).
async fn code_for(s: &Store, account: &Account) -> Result<String, Error> {
    let mailer = Arc::new(Mailer::new(None)?);
    let account = account.as_str();
    codes::request(s, &mailer, account, Purpose::Register, Lang::En, 1_000).await?;
    let sent = s.outbox(Some(account), 1).await?.pop().ok_or("sent")?;
    Ok(sent
        .body
        .chars()
        .filter(char::is_ascii_digit)
        .take(6)
        .collect())
}

fn sign_up<'a>(account: &'a Account, code: &'a str) -> SignUp<'a> {
    SignUp {
        account,
        password: PASSWORD.into(),
        code,
        nickname: "",
    }
}

#[tokio::test]
async fn a_sign_up_uses_the_code_and_writes_the_account_with_its_entry() -> TestResult {
    each_backend(|s| async move {
        s.sync_builtin_roles(1).await?;
        let account = Account::parse("newbie@example.com")?;
        let code = code_for(&s, &account).await?;
        let id = sign_up::register(&s, sign_up(&account, &code), 2_000).await?;
        let user = s.user(id).await?.ok_or("user")?;
        assert_eq!(user.nickname, "newbie");
        assert_eq!(
            audit_entries(&s).await?,
            vec![("account.register".to_string(), format!("user:{}", id.0))]
        );
        assert!(
            s.live_code(account.as_str(), "register").await?.is_none(),
            "used"
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_sign_up_whose_entry_fails_leaves_no_account_and_the_code_live() -> TestResult {
    each_backend(|s| async move {
        s.sync_builtin_roles(1).await?;
        let account = Account::parse("newbie@example.com")?;
        let code = code_for(&s, &account).await?;
        fail_audit(&s).await?;
        let registered = sign_up::register(&s, sign_up(&account, &code), 2_000).await;
        assert!(failed_in_store(&registered), "{registered:?}");
        assert!(s.user_by_account(account.as_str()).await?.is_none());
        assert!(
            s.live_code(account.as_str(), "register").await?.is_some(),
            "the code still serves"
        );
        Ok(())
    })
    .await
}
