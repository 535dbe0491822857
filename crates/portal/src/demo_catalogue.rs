//! The firmware catalogue of `portal serve --demo`: the inverter-type tree for the demo's
//! inverter type codes, two firmware versions per label (the older disabled, the newer
//! enabled) and two gateway software versions (the newer enabled). Files go through the
//! upload's storage path. Later starts add only what is missing.
//!
//! The simulated inverters report no software version until upgraded, and the simulated
//! gateways run `SIM-1.4.2`, so each enabled version is an upgrade for them.

use api::firmware::storage;
use domain::ids::InverterTypeId;
use store::{
    Store,
    firmware::{FirmwareFields, FirmwareFile, FirmwareTarget, NewFirmware},
};

/// A secondary label and its inverter type codes.
type Label = (&'static str, &'static [i64]);

/// Primary titles, their labels and each label's inverter type codes.
const TREE: [(&str, &[Label]); 2] = [
    (
        "Hybrid inverters",
        &[
            ("Single-phase LV hybrid", &[2]),
            ("Single-phase HV hybrid", &[21]),
            ("Single-phase hybrid", &[22]),
            ("Three-phase LV hybrid", &[93]),
            ("Three-phase HV hybrid", &[94]),
        ],
    ),
    (
        "Grid-tied inverters",
        &[
            ("String inverters", &[1, 10, 11]),
            ("Micro inverters", &[3]),
        ],
    ),
];

/// Each label's versions, older first; only the last is enabled.
const INVERTER_VERSIONS: [&str; 2] = ["V1_0_0", "V1_2_0"];
/// Above the simulated gateways' `SIM-1.4.2`; the older is disabled.
const GATEWAY_VERSIONS: [&str; 2] = ["SIM-1_3_0", "SIM-1_5_0"];

pub async fn prepare(store: &Store, files: api::FileStore<'_>) -> anyhow::Result<()> {
    let now = domain::time::now_ms();
    let mut labels = Vec::new();
    for (title, children) in TREE {
        let title_id = node(store, None, title, &[], now).await?;
        for (label, codes) in children {
            labels.push((
                *label,
                node(store, Some(title_id), label, codes, now).await?,
            ));
        }
    }
    for (n, (label, id)) in labels.iter().enumerate() {
        if !store
            .firmware_versions(FirmwareTarget::Inverter, *id)
            .await?
            .is_empty()
        {
            continue;
        }
        let slug: String = label
            .split([' ', '-'])
            .filter_map(|w| w.chars().next())
            .collect::<String>()
            .to_uppercase();
        for (i, version) in INVERTER_VERSIONS.iter().enumerate() {
            let enabled = i + 1 == INVERTER_VERSIONS.len();
            let name = format!("{label} {version}");
            let file_name = format!("{slug}_{version}.bin");
            let log = DemoLog {
                zh: format!("{label} 固件 {version}：提升 MPPT 跟踪效率，修复并网重连问题。"),
                en: format!(
                    "{label} firmware {version}: faster MPPT tracking, grid reconnection fix."
                ),
            };
            let seed = (n * 7 + i + 1) as u64;
            let spec = DemoFile {
                target: FirmwareTarget::Inverter,
                type_id: *id,
                name: &name,
                file_name: &file_name,
                version,
                firmware_type: "ARM",
                enabled,
                log: &log,
                size: 200_000 + 40_000 * (n + i),
                seed,
            };
            add(store, files, &spec, now).await?;
        }
    }
    if store
        .firmware_versions(FirmwareTarget::Gateway, InverterTypeId(0))
        .await?
        .is_empty()
    {
        for (i, version) in GATEWAY_VERSIONS.iter().enumerate() {
            let name = format!("Gateway software {version}");
            let file_name = format!("GW_{version}.bin");
            let log = DemoLog {
                zh: format!("网关软件 {version}：更稳定的 4G 重连，上传周期可配置。"),
                en: format!(
                    "Gateway software {version}: steadier 4G reconnection, configurable upload cycle."
                ),
            };
            let spec = DemoFile {
                target: FirmwareTarget::Gateway,
                type_id: InverterTypeId(0),
                name: &name,
                file_name: &file_name,
                version,
                firmware_type: "",
                enabled: i + 1 == GATEWAY_VERSIONS.len(),
                log: &log,
                size: 300_000 + 50_000 * i,
                seed: 1000 + i as u64,
            };
            add(store, files, &spec, now).await?;
        }
    }
    Ok(())
}

/// The title or label `name` under `parent`, created (with its free codes) when missing.
async fn node(
    store: &Store,
    parent: Option<InverterTypeId>,
    name: &str,
    codes: &[i64],
    now: i64,
) -> anyhow::Result<InverterTypeId> {
    let existing = store
        .inverter_types()
        .await?
        .into_iter()
        .find(|t| t.parent_id == parent && t.name == name);
    if let Some(t) = existing {
        return Ok(t.id);
    }
    // A code another label already holds (an administrator's) stays where it is.
    let taken: Vec<i64> = store
        .inverter_type_codes()
        .await?
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    let free: Vec<i64> = codes
        .iter()
        .copied()
        .filter(|c| !taken.contains(c))
        .collect();
    Ok(store
        .insert_inverter_type(parent, name, &free, now, None)
        .await?)
}

struct DemoLog {
    zh: String,
    en: String,
}

struct DemoFile<'a> {
    target: FirmwareTarget,
    type_id: InverterTypeId,
    name: &'a str,
    file_name: &'a str,
    version: &'a str,
    firmware_type: &'a str,
    enabled: bool,
    log: &'a DemoLog,
    size: usize,
    seed: u64,
}

/// Writes one firmware the way an upload does: the file under its final name, then the row (the
/// file is removed when the row cannot be written).
async fn add(
    store: &Store,
    files: api::FileStore<'_>,
    f: &DemoFile<'_>,
    now: i64,
) -> anyhow::Result<()> {
    let bytes = image(f.size, f.seed);
    let stored_name = storage::write(files, &bytes, "bin").await?;
    let row = NewFirmware {
        target: f.target,
        fields: FirmwareFields {
            type_id: f.type_id,
            name: f.name,
            version: f.version,
            change_log: &f.log.zh,
            change_log_en: &f.log.en,
            product_id: None,
            hardware_version: "H1",
            upgrade_mode: "iap",
            firmware_type: f.firmware_type,
            enabled: f.enabled,
        },
        file: FirmwareFile {
            file_name: f.file_name,
            stored_name: &stored_name,
            size: i64::try_from(bytes.len())?,
        },
        created_by: None,
        now,
    };
    match store.insert_firmware(&row, None).await {
        Ok(_) => Ok(()),
        Err(e) => {
            storage::remove(files, &stored_name).await;
            Err(e.into())
        }
    }
}

/// A firmware image of `size` bytes: a small header, then pseudo-random bytes (xorshift), so
/// each file differs and does not compress to nothing.
fn image(size: usize, seed: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(b"DEMOFW\x00\x01");
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    while out.len() < size {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(&x.to_le_bytes());
    }
    out.truncate(size);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_images_have_their_size_and_differ_by_seed() {
        assert_eq!(image(200_000, 1).len(), 200_000);
        assert_ne!(image(64, 1), image(64, 2));
    }

    #[test]
    fn every_demo_type_code_has_a_label() {
        let codes: Vec<i64> = TREE
            .iter()
            .flat_map(|(_, labels)| labels.iter().flat_map(|(_, c)| c.iter().copied()))
            .collect();
        for code in [2, 93, 94, 21, 22, 1, 3] {
            assert!(codes.contains(&code), "{code}");
        }
    }

    #[test]
    fn the_enabled_gateway_software_is_newer_than_the_simulator_runs() {
        use std::cmp::Ordering;
        let newest = GATEWAY_VERSIONS[GATEWAY_VERSIONS.len() - 1];
        assert_eq!(
            domain::firmware::compare("SIM-1.4.2", newest),
            Ordering::Less
        );
    }
}
