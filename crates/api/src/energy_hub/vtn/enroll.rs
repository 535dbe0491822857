//! Enrollments in a VTN's programmes: one VTN resource per enrolled plant (`plant-<id>`),
//! created or found again; a created resource accepts a pending enrollment, a refused one
//! rejects it with the VTN's problem detail; leaving removes the resource. A 400 is our own
//! malformed request, not a refusal: the enrollment stays pending and is tried again.

use oadr::ven::VtnClient;
use serde_json::json;
use store::Store;
use store::dr_vtn::VtnEnrollment;

#[derive(Debug, Default)]
pub struct Outcome {
    pub accepted: usize,
    pub rejected: usize,
    pub removed: usize,
    /// Our requests the VTN found malformed (400), with its problem detail.
    pub problems: Vec<String>,
}

pub fn resource_name(plant_id: i64) -> String {
    format!("plant-{plant_id}")
}

/// `MAX_POWER_EXPORT` / `MAX_POWER_CONSUMPTION` (kW) from the enrolled devices.
fn attributes(e: &VtnEnrollment) -> serde_json::Value {
    json!([
        {"type": "MAX_POWER_EXPORT", "values": [e.discharge_kw]},
        {"type": "MAX_POWER_CONSUMPTION", "values": [e.charge_kw]},
    ])
}

pub async fn reconcile(
    store: &Store,
    client: &VtnClient,
    ven_id: &str,
    enrollments: &[VtnEnrollment],
    now_ms: i64,
) -> Result<Outcome, super::sync::SyncError> {
    let mut out = Outcome::default();
    for e in enrollments {
        let live = e.status == "pending" || e.status == "accepted";
        if !live {
            if let Some(rid) = &e.remote_resource_id {
                client.delete_resource(ven_id, rid).await?;
                store.clear_enrollment_resource(e.id, now_ms).await?;
                out.removed += 1;
            }
            continue;
        }
        let name = resource_name(e.plant_id);
        match client.ensure_resource(ven_id, &name, attributes(e)).await {
            Ok(rid) => {
                let same = e.status == "accepted" && e.remote_resource_id.as_deref() == Some(&rid);
                if !same {
                    store
                        .set_enrollment_remote(e.id, "accepted", "", Some((&rid, &name)), now_ms)
                        .await?;
                    tracing::info!(
                        enrollment = e.id,
                        plant = e.plant_id,
                        "VTN resource ready: accepted"
                    );
                    out.accepted += 1;
                }
            }
            Err(err) if err.is_our_bad_request() => {
                tracing::error!(
                    enrollment = e.id,
                    plant = e.plant_id,
                    "the VTN found our resource request malformed: {err}"
                );
                out.problems.push(
                    format!("resource {name}: {err}")
                        .chars()
                        .take(200)
                        .collect(),
                );
            }
            Err(err) if err.is_refusal() => {
                let reason: String = err.to_string().chars().take(200).collect();
                store
                    .set_enrollment_remote(e.id, "rejected", &reason, None, now_ms)
                    .await?;
                tracing::info!(enrollment = e.id, plant = e.plant_id, %reason, "VTN refused the resource: rejected");
                out.rejected += 1;
            }
            Err(err) => return Err(err.into()),
        }
    }
    Ok(out)
}
