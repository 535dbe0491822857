//! Enrollments in a VTN's programmes: one VTN resource per enrolled plant (`plant-<id>`),
//! created or found again; a created resource accepts a pending enrollment, a refused one
//! rejects it with the VTN's problem detail; leaving removes the resource. A 400 is our own
//! malformed request, not a refusal: the enrollment stays pending and is tried again.
//! Each decision is written with an audit entry by the account "system", filed under the
//! enrollment's plant (`energyhub.enrollment.remote`).

use domain::ids::PlantId;
use oadr::ven::VtnClient;
use serde_json::json;
use store::Store;
use store::audit::NewAudit;
use store::energy_hub::vtn::VtnEnrollment;
use store::log_pages::Author;

use crate::audit;

#[derive(Debug, Default)]
pub struct Outcome {
    pub accepted: usize,
    pub rejected: usize,
    pub removed: usize,
    /// Our requests the VTN found malformed (400), with its problem detail.
    pub problems: Vec<String>,
}

pub fn resource_name(plant_id: PlantId) -> String {
    format!("plant-{plant_id}")
}

/// `MAX_POWER_EXPORT` / `MAX_POWER_CONSUMPTION` (kW) from the enrolled devices.
fn attributes(e: &VtnEnrollment) -> serde_json::Value {
    json!([
        {"type": "MAX_POWER_EXPORT", "values": [e.discharge_kw]},
        {"type": "MAX_POWER_CONSUMPTION", "values": [e.charge_kw]},
    ])
}

/// What the sync decided about an enrollment.
enum Decision<'a> {
    /// The VTN has our resource (id, name).
    Accepted(&'a str, &'a str),
    /// The VTN refused it, for this reason.
    Rejected(&'a str),
    /// The resource of a left or rejected enrollment was deleted on the VTN.
    Removed,
}

/// Writes the sync's decision on an enrollment with its audit entry, in one transaction.
async fn decide(
    store: &Store,
    e: &VtnEnrollment,
    decision: Decision<'_>,
    now_ms: i64,
) -> store::Result<bool> {
    let row = store.enrollment(e.id).await?;
    let by = Author {
        plant_id: Some(e.plant_id),
        plant_owner_id: row.as_ref().map(|r| r.plant_owner_id),
        plant_company_id: row.as_ref().and_then(|r| r.plant_company_id),
        ..audit::system()
    };
    let target = format!("enrollment:{}", e.id);
    let detail = match decision {
        Decision::Accepted(_, name) => json!({"status": "accepted", "resource": name}),
        Decision::Rejected(reason) => json!({"status": "rejected", "reason": reason}),
        Decision::Removed => json!({"resourceRemoved": e.remote_resource_name}),
    }
    .to_string();
    let entry = NewAudit {
        by,
        action: domain::audit_action::ENERGYHUB_ENROLLMENT_REMOTE,
        target: &target,
        detail: &detail,
        result: audit::SUCCEEDED,
        command_id: None,
        now: now_ms,
    };
    match decision {
        Decision::Accepted(id, name) => {
            store
                .set_enrollment_remote(e.id, "accepted", "", Some((id, name)), now_ms, &entry)
                .await
        }
        Decision::Rejected(reason) => {
            store
                .set_enrollment_remote(e.id, "rejected", reason, None, now_ms, &entry)
                .await
        }
        Decision::Removed => store.clear_enrollment_resource(e.id, now_ms, &entry).await,
    }
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
                decide(store, e, Decision::Removed, now_ms).await?;
                out.removed += 1;
            }
            continue;
        }
        let name = resource_name(e.plant_id);
        match client.ensure_resource(ven_id, &name, attributes(e)).await {
            Ok(rid) => {
                let same = e.status == "accepted" && e.remote_resource_id.as_deref() == Some(&rid);
                if !same {
                    decide(store, e, Decision::Accepted(&rid, &name), now_ms).await?;
                    tracing::info!(
                        enrollment = %e.id,
                        plant = %e.plant_id,
                        "VTN resource ready: accepted"
                    );
                    out.accepted += 1;
                }
            }
            Err(err) if err.is_our_bad_request() => {
                tracing::error!(
                    enrollment = %e.id,
                    plant = %e.plant_id,
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
                decide(store, e, Decision::Rejected(&reason), now_ms).await?;
                tracing::info!(enrollment = %e.id, plant = %e.plant_id, %reason, "VTN refused the resource: rejected");
                out.rejected += 1;
            }
            Err(err) => return Err(err.into()),
        }
    }
    Ok(out)
}
