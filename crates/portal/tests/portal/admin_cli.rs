//! `portal admin` as an operator types it (issue 12): the README's `set-disabled --disabled
//! true` works (finding 13), the forms that worked before still do, and a password set from
//! the command line follows the web's rule (finding 8).

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

use store::Store;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn data_dir(name: &str) -> Result<PathBuf, std::io::Error> {
    let dir = std::env::temp_dir().join(format!("portal-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn portal(dir: &Path, args: &[&str]) -> Result<Output, std::io::Error> {
    Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(args)
        .env_remove("PORTAL_DATABASE_URL")
        .env("PORTAL_DATA_DIR", dir)
        .env("PORTAL_LOG", "warn")
        .output()
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

async fn disabled(dir: &Path, account: &str) -> Result<bool, Box<dyn std::error::Error>> {
    let store = Store::connect(&format!("sqlite://{}", dir.join("portal.db").display())).await?;
    let user = store
        .user_by_account(account)
        .await?
        .ok_or("no such user")?;
    store.close().await;
    Ok(user.disabled)
}

#[tokio::test]
async fn set_disabled_takes_the_documented_value_and_the_bare_flag() -> TestResult {
    let dir = data_dir("disable")?;
    let acct = "ann@example.com";
    let out = portal(
        &dir,
        &[
            "admin",
            "create-user",
            "--account",
            acct,
            "--password",
            "secret12",
        ],
    )?;
    assert!(out.status.success(), "{}", text(&out));

    // Each form, then what the account is left as.
    let steps: [(&[&str], bool); 6] = [
        (&["--disabled", "true"], true),
        (&["--disabled", "false"], false),
        (&["--disabled"], true),
        (&["--disabled=no"], false),
        (&["--disabled", "1"], true),
        (&[], false),
    ];
    for (flag, expected) in steps {
        let mut args = vec!["admin", "set-disabled", "--account", acct];
        args.extend_from_slice(flag);
        let out = portal(&dir, &args)?;
        assert!(out.status.success(), "{args:?}: {}", text(&out));
        let said = if expected { "disabled" } else { "enabled" };
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(said),
            "{args:?}: {}",
            text(&out)
        );
        assert_eq!(disabled(&dir, acct).await?, expected, "{args:?}");
    }

    // A value that is not a yes or no is refused, and changes nothing.
    let out = portal(
        &dir,
        &[
            "admin",
            "set-disabled",
            "--account",
            acct,
            "--disabled",
            "maybe",
        ],
    )?;
    assert!(!out.status.success(), "{}", text(&out));
    assert!(!disabled(&dir, acct).await?);
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}

#[tokio::test]
async fn passwords_set_from_the_command_line_follow_the_common_password_rule() -> TestResult {
    let dir = data_dir("common")?;
    let out = portal(
        &dir,
        &[
            "admin",
            "create-user",
            "--account",
            "bob@example.com",
            "--password",
            "123456",
        ],
    )?;
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("too common"),
        "{}",
        text(&out)
    );
    let out = portal(
        &dir,
        &[
            "admin",
            "create-user",
            "--account",
            "bob@example.com",
            "--password",
            "b0b-the-1st",
        ],
    )?;
    assert!(out.status.success(), "{}", text(&out));
    for (password, ok) in [
        ("password", false),
        ("qwertyuiop", false),
        ("n3w-and-odd", true),
    ] {
        let out = portal(
            &dir,
            &[
                "admin",
                "reset-password",
                "--account",
                "bob@example.com",
                "--password",
                password,
            ],
        )?;
        assert_eq!(out.status.success(), ok, "{password}: {}", text(&out));
    }
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
