//! Migration 0017 moves saved settings to the key names third-party clients use: values a
//! device confirmed and custom profiles keep what the user saved under the new names.

use domain::user::UserKind;
use store::testing::{TestResult, each_backend, new_user};

const MIGRATION: &str = include_str!("../../migrations/sqlite/0017_setting_key_names.sql");

#[tokio::test]
async fn saved_settings_move_to_the_new_key_names() -> TestResult {
    each_backend(|s| async move {
        let user = s
            .create_user(&new_user("kim@example.com", UserKind::Owner))
            .await?;
        let old = |k: &str, v: &str| (k.to_string(), v.to_string());
        s.store_device_settings(
            "INV1",
            &[
                old("maxSellPower", "4200"),
                old("genStartCap", "35"),
                old("battMode", "1"),
            ],
            10,
        )
        .await?;
        // A device that already confirmed the new name keeps that newer value.
        s.store_device_settings(
            "INV2",
            &[old("maxSellPower", "1000"), old("pvMaxLimit", "3000")],
            10,
        )
        .await?;
        s.create_setting_profile(
            user,
            "summer",
            r#"{"genStartCap":"40","maxSellPower":"5100"}"#,
            6,
            10,
        )
        .await?;

        s.run_script_for_tests(MIGRATION).await?;

        let inv1 = s.device_settings("INV1").await?;
        assert_eq!(
            inv1,
            vec![
                old("battMode", "1"),
                old("generatorStartCap", "35"),
                old("pvMaxLimit", "4200")
            ]
        );
        assert_eq!(
            s.device_settings("INV2").await?,
            vec![old("pvMaxLimit", "3000")]
        );
        let profiles = s.setting_profiles(user).await?;
        assert_eq!(
            profiles[0].params,
            r#"{"generatorStartCap":"40","pvMaxLimit":"5100"}"#
        );
        Ok(())
    })
    .await
}

#[test]
fn both_backends_migrate_the_same_way() {
    assert_eq!(
        MIGRATION,
        include_str!("../../migrations/postgres/0017_setting_key_names.sql")
    );
}
