//! An upgrade that ships a newer version of a config reaches existing installations: a stored
//! copy nobody edited is brought up to the shipped version (so the inverters' `power_on` point
//! is decoded there too), an administrator's edit is kept. On every backend.

use devices::protocol::{ProtocolConfig, shipped, stored};
use domain::DeviceFamily;
use store::testing::{TestResult, each_backend};

#[tokio::test]
async fn seeding_updates_unedited_shipped_configs_and_keeps_edited_ones() -> TestResult {
    each_backend(|s| async move {
        let current = shipped()?
            .into_iter()
            .find(|c| c.code == "deye-hybrid-1ph")
            .ok_or("no deye-hybrid-1ph")?;
        assert!(current.points.iter().any(|p| p.key == "power_on"));
        // What an earlier release stored: version 1, without the switch.
        let mut old = current.clone();
        old.version = 1;
        old.points.retain(|p| p.key != "power_on");
        let old_json = serde_json::to_string(&old)?;
        s.seed_protocol(&old.code, DeviceFamily::Inverter, &old.name, &old_json, 1)
            .await?;
        // An administrator's own version of the battery config, older than the shipped one.
        let mut edited = shipped()?
            .into_iter()
            .find(|c| c.code == "bms-lv-stack")
            .ok_or("no bms-lv-stack")?;
        edited.version = 1;
        edited.name = "Our BMS".into();
        let edited_json = serde_json::to_string(&edited)?;
        let admin = s
            .create_user(&store::testing::new_user(
                "root@example.com",
                domain::user::UserKind::Internal,
            ))
            .await?;
        s.save_protocol(
            &edited.code,
            DeviceFamily::Battery,
            &edited.name,
            &edited_json,
            admin,
            1,
            None,
        )
        .await?;

        let written = stored::seed(&s, 2).await?;
        assert!(
            written >= 5,
            "the others seeded, the old one refreshed: {written}"
        );
        let loaded = stored::load(&s).await?;
        let find = |code: &str| -> Result<&ProtocolConfig, String> {
            loaded
                .iter()
                .find(|c| c.code == code)
                .ok_or(format!("{code} missing"))
        };
        let inverter = find("deye-hybrid-1ph")?;
        assert_eq!(inverter.version, current.version);
        assert!(inverter.points.iter().any(|p| p.key == "power_on"));
        assert_eq!(find("bms-lv-stack")?.name, "Our BMS", "an edit is kept");
        assert!(find("bms-hv-stack").is_ok());
        assert_eq!(stored::seed(&s, 3).await?, 0, "nothing more to do");
        Ok(())
    })
    .await
}
