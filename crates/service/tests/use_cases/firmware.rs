//! The firmware catalogue: upload, edit, enable, delete, each with its audit entry or, when
//! the entry cannot be written, with nothing at all.

use domain::ids::{FirmwareId, InverterTypeId};
use std::collections::HashMap;

use crate::common::{Error, actor, audit_actions, failed_in_store};
use domain::{Code, policy::Actor, user::BuiltinRole};
use service::{
    ServiceError,
    firmware::{self, Toggle, Upload},
};
use store::{
    Store,
    firmware::FirmwareTarget,
    testing::{TestResult, Write, each_backend},
};

/// An internal administrator and a secondary label for inverter type 94.
async fn catalogue(s: &Store) -> Result<(Actor, InverterTypeId), Error> {
    let admin = actor(s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
    let title = s.insert_inverter_type(None, "Hybrid", &[], 1, None).await?;
    let label = s
        .insert_inverter_type(Some(title), "Hybrid 3ph", &[94], 1, None)
        .await?;
    Ok((admin, label))
}

fn form(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Uploads `version` (also its name) under `label`.
async fn upload(
    s: &Store,
    admin: &Actor,
    label: InverterTypeId,
    version: &str,
) -> service::Result<FirmwareId> {
    let label = label.to_string();
    let fields = form(&[("typeId", &label), ("version", version), ("name", version)]);
    let u = Upload {
        target: Some(FirmwareTarget::Inverter),
        id: None,
        fields: &fields,
        file: Some(("v.bin", b"\x01\x02")),
    };
    let d = firmware::draft(s, admin, &u).await?;
    firmware::save(s, admin, &d, Some("stored.bin"), 10).await
}

#[tokio::test]
async fn each_change_of_the_catalogue_leaves_its_audit_entry() -> TestResult {
    each_backend(|s| async move {
        let (admin, label) = catalogue(&s).await?;
        let id = upload(&s, &admin, label, "V1_0").await?;
        let lower = upload(&s, &admin, label, "V0_9").await;
        assert!(matches!(lower, Err(ServiceError::Refused(e)) if e.code == Code::InvalidParameter));
        let on = Toggle {
            enable: Some("false"),
            notify: None,
        };
        firmware::enable(&s, &admin, id, on, 11).await?;
        assert!(!s.firmware(id).await?.ok_or("firmware")?.enabled);
        let gone = firmware::delete(&s, &admin, &[id, FirmwareId(id.0 + 100)], 12).await?;
        assert_eq!(gone.deleted.len(), 1);
        assert_eq!(gone.refused.len(), 1);
        assert_eq!(
            audit_actions(&s).await?,
            ["firmware.upload", "firmware.disable", "firmware.delete"]
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_change_whose_audit_entry_fails_leaves_the_catalogue_as_it_was() -> TestResult {
    each_backend(|s| async move {
        let (admin, label) = catalogue(&s).await?;
        let id = upload(&s, &admin, label, "V1_0").await?;
        s.fail_writes_for_tests("audit_log", Write::Insert).await?;
        // Upload: no row.
        let second = upload(&s, &admin, label, "V2_0").await;
        assert!(failed_in_store(&second), "{second:?}");
        let versions = s.firmware_versions(FirmwareTarget::Inverter, label).await?;
        assert_eq!(versions.len(), 1);
        // Edit: the row keeps its version.
        let fields = form(&[("version", "V1_1")]);
        let edit = Upload {
            target: None,
            id: Some(id),
            fields: &fields,
            file: None,
        };
        let d = firmware::draft(&s, &admin, &edit).await?;
        let edited = firmware::save(&s, &admin, &d, None, 11).await;
        assert!(failed_in_store(&edited), "{edited:?}");
        assert_eq!(s.firmware(id).await?.ok_or("firmware")?.version, "V1_0");
        // Enable: the flag stays.
        let off = Toggle {
            enable: Some("false"),
            notify: None,
        };
        let disabled = firmware::enable(&s, &admin, id, off, 12).await;
        assert!(failed_in_store(&disabled), "{disabled:?}");
        assert!(s.firmware(id).await?.ok_or("firmware")?.enabled);
        // Delete: the row stays.
        let deleted = firmware::delete(&s, &admin, &[id], 13).await;
        assert!(failed_in_store(&deleted), "{deleted:?}");
        assert!(s.firmware(id).await?.is_some());
        assert_eq!(audit_actions(&s).await?, ["firmware.upload"]);
        Ok(())
    })
    .await
}
