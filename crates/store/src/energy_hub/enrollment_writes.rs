//! Writing enrollments: each use case touching the enrollment and its devices does it in one
//! transaction.

use domain::energy_hub::{Device, EnrollmentForm, EnrollmentStatus};
use domain::ids::EnrollmentId;

use super::NewEnrollment;
use crate::{Result, Store, audit::NewAudit};

/// Inserts the devices of an enrollment inside [`in_tx!`].
macro_rules! insert_devices {
    ($tx:ident, $sqlite:ident, $id:expr, $devices:expr, $now:expr) => {{
        for d in $devices {
            tx_exec!(
                $tx,
                $sqlite,
                "INSERT INTO dr_enrollment_devices (enrollment_id, sn, manufacturer, model, \
                 install_date, charge_kw, discharge_kw, storage_kwh, added_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                $id,
                &d.sn,
                &d.manufacturer,
                &d.model,
                &d.install_date,
                d.charge_kw,
                d.discharge_kw,
                d.storage_kwh,
                $now
            )?;
        }
    }};
}

impl Store {
    /// A new enrollment with its devices and its audit entry (target `enrollment:<id>`; none
    /// for a seed), in one transaction; answers its id.
    pub async fn create_enrollment(
        &self,
        e: &NewEnrollment<'_>,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<EnrollmentId> {
        let f = e.form;
        Ok(in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                EnrollmentId,
                "INSERT INTO dr_enrollments (program_id, plant_id, created_by, status, \
                 source_account, utility_account, first_name, last_name, email, \
                 service_country, service_region, service_locality, service_extended, \
                 service_street, service_postal, mailing_country, mailing_region, \
                 mailing_locality, mailing_extended, mailing_street, mailing_postal, \
                 participation, time_zone, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, \
                 $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, \
                 $22, $23, $24, $24) RETURNING id",
                e.program,
                e.plant,
                e.created_by,
                e.status.as_str(),
                &f.source_account,
                &f.utility_account,
                &f.first_name,
                &f.last_name,
                &f.email,
                &f.service.country,
                &f.service.region,
                &f.service.locality,
                &f.service.extended_address,
                &f.service.street_address,
                &f.service.postal_code,
                &f.mailing.country,
                &f.mailing.region,
                &f.mailing.locality,
                &f.mailing.extended_address,
                &f.mailing.street_address,
                &f.mailing.postal_code,
                f.participation,
                &f.time_zone,
                now
            )?;
            insert_devices!(tx, sqlite, id, &f.devices, now);
            if let Some(audit) = audit {
                audit_new_in_tx!(tx, sqlite, audit, id)?;
            }
            id
        }))
    }

    /// Replaces an enrollment's form and devices and sets its status (clearing the reason and
    /// the opt-out), with its audit entry, in one transaction. `false` when there is no such
    /// enrollment.
    pub async fn update_enrollment(
        &self,
        id: EnrollmentId,
        f: &EnrollmentForm,
        status: EnrollmentStatus,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE dr_enrollments SET status = $2, reason = '', opted_out = 0, \
                 source_account = $3, utility_account = $4, first_name = $5, last_name = $6, \
                 email = $7, service_country = $8, service_region = $9, service_locality = $10, \
                 service_extended = $11, service_street = $12, service_postal = $13, \
                 mailing_country = $14, mailing_region = $15, mailing_locality = $16, \
                 mailing_extended = $17, mailing_street = $18, mailing_postal = $19, \
                 participation = $20, time_zone = $21, updated_at = $22 WHERE id = $1",
                id,
                status.as_str(),
                &f.source_account,
                &f.utility_account,
                &f.first_name,
                &f.last_name,
                &f.email,
                &f.service.country,
                &f.service.region,
                &f.service.locality,
                &f.service.extended_address,
                &f.service.street_address,
                &f.service.postal_code,
                &f.mailing.country,
                &f.mailing.region,
                &f.mailing.locality,
                &f.mailing.extended_address,
                &f.mailing.street_address,
                &f.mailing.postal_code,
                f.participation,
                &f.time_zone,
                now
            )?;
            if n == 1 {
                tx_exec!(
                    tx,
                    sqlite,
                    "DELETE FROM dr_enrollment_devices WHERE enrollment_id = $1",
                    id
                )?;
                insert_devices!(tx, sqlite, id, &f.devices, now);
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n == 1
        }))
    }

    /// Adds devices to an enrollment with its audit entry, in one transaction.
    pub async fn add_enrollment_devices(
        &self,
        id: EnrollmentId,
        devices: &[Device],
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            insert_devices!(tx, sqlite, id, devices, now);
            tx_exec!(
                tx,
                sqlite,
                "UPDATE dr_enrollments SET updated_at = $2 WHERE id = $1",
                id,
                now
            )?;
            audit_in_tx!(tx, sqlite, audit)?;
        });
        Ok(())
    }

    /// Removes one device with its audit entry; `false` when the enrollment does not hold it
    /// (nothing is written then).
    pub async fn remove_enrollment_device(
        &self,
        id: EnrollmentId,
        sn: &str,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "DELETE FROM dr_enrollment_devices WHERE enrollment_id = $1 AND sn = $2",
                id,
                sn
            )?;
            tx_exec!(
                tx,
                sqlite,
                "UPDATE dr_enrollments SET updated_at = $2 WHERE id = $1",
                id,
                now
            )?;
            if n == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n == 1
        }))
    }

    /// Sets status, opt-out and reason together (the state machine's outcome), with its audit
    /// entry, in one transaction.
    pub async fn set_enrollment_state(
        &self,
        id: EnrollmentId,
        status: EnrollmentStatus,
        opted_out: bool,
        reason: &str,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            Some(audit),
            "UPDATE dr_enrollments SET status = $2, opted_out = $3, reason = $4, updated_at = $5 \
             WHERE id = $1",
            id,
            status.as_str(),
            i64::from(opted_out),
            reason,
            now
        ) == 1)
    }
}
