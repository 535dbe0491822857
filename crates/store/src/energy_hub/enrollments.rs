//! Enrollments and their devices. A use case writing an enrollment with its devices writes
//! them in one transaction.

use domain::ids::{CompanyId, EnrollmentId, PlantId, ProgramId, VtnId};
use domain::{
    DeviceFamily,
    energy_hub::{EnrollmentForm, EnrollmentStatus},
    ids::UserId,
    policy::PlantVisibility,
};

use super::enrollment_visible;
use crate::{Result, Store};

/// An enrollment with its programme and plant.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct EnrollmentRow {
    pub id: EnrollmentId,
    pub program_id: ProgramId,
    pub program_name: String,
    /// The programme's VTN, for a VTN programme.
    pub vtn_id: Option<VtnId>,
    pub program_remote_id: Option<String>,
    pub plant_id: PlantId,
    pub plant_name: String,
    pub plant_owner_id: UserId,
    pub plant_company_id: Option<CompanyId>,
    pub created_by: Option<UserId>,
    /// `pending`, `accepted`, `rejected` or `unenrolled` ([`EnrollmentStatus`]).
    pub status: String,
    pub reason: String,
    pub opted_out: bool,
    pub source_account: String,
    pub utility_account: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub service_country: String,
    pub service_region: String,
    pub service_locality: String,
    pub service_extended: String,
    pub service_street: String,
    pub service_postal: String,
    pub mailing_country: String,
    pub mailing_region: String,
    pub mailing_locality: String,
    pub mailing_extended: String,
    pub mailing_street: String,
    pub mailing_postal: String,
    /// 1-100 % of the devices' discharge capacity offered to events.
    pub participation: i64,
    pub time_zone: String,
    pub remote_resource_id: Option<String>,
    pub remote_resource_name: Option<String>,
    /// Report payload types the programme's events ask for that the portal cannot produce
    /// (comma-separated; VTN programmes only).
    pub unsupported_reports: String,
    /// Milliseconds.
    pub created_at: i64,
    pub updated_at: i64,
}

impl EnrollmentRow {
    /// The stored status (an unknown word reads as unenrolled: it takes part in nothing).
    pub fn status(&self) -> EnrollmentStatus {
        EnrollmentStatus::parse(&self.status).unwrap_or(EnrollmentStatus::Unenrolled)
    }
}

/// One device of an enrollment.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DeviceRow {
    pub enrollment_id: EnrollmentId,
    pub sn: String,
    pub manufacturer: String,
    pub model: String,
    pub install_date: String,
    pub charge_kw: f64,
    pub discharge_kw: f64,
    pub storage_kwh: f64,
    pub added_at: i64,
}

/// An accepted, not opted-out enrollment with its devices: what dispatch acts on.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveEnrollment {
    pub enrollment: EnrollmentRow,
    pub devices: Vec<DeviceRow>,
}

/// The few facts of an enrollment the event screens need, for the enrollments a reader sees.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct VisibleEnrollment {
    pub id: EnrollmentId,
    pub program_id: ProgramId,
    pub plant_id: PlantId,
    pub plant_name: String,
    pub status: String,
    pub opted_out: bool,
}

/// An inverter of a plant as the enrollment form offers it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct PlantInverterRow {
    pub sn: String,
    pub type_code: i64,
    pub protocol: String,
    pub model: String,
    pub product_name: Option<String>,
    /// kW.
    pub rated_power: f64,
    /// A battery reports behind it (a battery device whose parent is this inverter).
    pub has_battery: bool,
    pub created_at: i64,
}

/// What a list of enrollments may be narrowed by; `None` means "any".
#[derive(Debug, Clone, Default)]
pub struct EnrollmentFilter {
    pub program: Option<ProgramId>,
    pub plant: Option<PlantId>,
    pub status: Option<String>,
    /// Part of the plant name, account numbers, names or e-mail, any case.
    pub keyword: Option<String>,
    pub limit: i64,
    pub offset: i64,
}

/// A new enrollment.
#[derive(Debug, Clone)]
pub struct NewEnrollment<'a> {
    pub program: ProgramId,
    pub plant: PlantId,
    pub created_by: Option<UserId>,
    pub status: EnrollmentStatus,
    pub form: &'a EnrollmentForm,
}

const COLUMNS: &str = "e.id, e.program_id, g.name AS program_name, g.vtn_id, \
    g.remote_id AS program_remote_id, e.plant_id, p.name AS plant_name, \
    p.owner_id AS plant_owner_id, p.company_id AS plant_company_id, e.created_by, e.status, \
    e.reason, (e.opted_out <> 0) AS opted_out, e.source_account, e.utility_account, \
    e.first_name, e.last_name, e.email, e.service_country, e.service_region, \
    e.service_locality, e.service_extended, e.service_street, e.service_postal, \
    e.mailing_country, e.mailing_region, e.mailing_locality, e.mailing_extended, \
    e.mailing_street, e.mailing_postal, e.participation, e.time_zone, e.remote_resource_id, \
    e.remote_resource_name, g.unsupported_reports, e.created_at, e.updated_at";
const FROM: &str = "FROM dr_enrollments e JOIN dr_programs g ON g.id = e.program_id \
    JOIN plants p ON p.id = e.plant_id";
const DEVICE_COLUMNS: &str = "enrollment_id, sn, manufacturer, model, install_date, charge_kw, \
    discharge_kw, storage_kwh, added_at";

impl Store {
    /// One enrollment, whoever asks (callers check visibility with [`Store::enrollment_visible`]).
    pub async fn enrollment(&self, id: EnrollmentId) -> Result<Option<EnrollmentRow>> {
        let sql = format!("SELECT {COLUMNS} {FROM} WHERE e.id = $1");
        Ok(rows!(self, fetch_optional, EnrollmentRow, &sql, id)?)
    }

    /// One enrollment if the reader may see it.
    pub async fn enrollment_visible(
        &self,
        id: EnrollmentId,
        visibility: PlantVisibility,
        reader: UserId,
    ) -> Result<Option<EnrollmentRow>> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let sql = format!(
            "SELECT {COLUMNS} {FROM} WHERE {} AND e.id = $4",
            enrollment_visible()
        );
        Ok(rows!(
            self,
            fetch_optional,
            EnrollmentRow,
            &sql,
            user,
            company,
            all,
            id
        )?)
    }

    /// A page of the enrollments the reader may see, newest first, with the total.
    pub async fn enrollments_page(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        f: &EnrollmentFilter,
    ) -> Result<(Vec<EnrollmentRow>, i64)> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let keyword = f
            .keyword
            .as_ref()
            .map(|k| format!("%{}%", k.to_lowercase()));
        let conditions = format!(
            "{} AND ($4 IS NULL OR e.program_id = $4) AND ($5 IS NULL OR e.plant_id = $5) \
             AND ($6 IS NULL OR e.status = $6) AND ($7 IS NULL OR LOWER(p.name) LIKE $7 \
             OR LOWER(e.utility_account) LIKE $7 OR e.source_account LIKE $7 \
             OR LOWER(e.first_name) LIKE $7 OR LOWER(e.last_name) LIKE $7 \
             OR LOWER(e.email) LIKE $7)",
            enrollment_visible()
        );
        let bounds = crate::sql::page(f.limit, f.offset);
        let sql = format!("SELECT {COLUMNS} {FROM} WHERE {conditions} ORDER BY e.id DESC {bounds}");
        let page = rows!(
            self,
            fetch_all,
            EnrollmentRow,
            &sql,
            user,
            company,
            all,
            f.program,
            f.plant,
            f.status.as_deref(),
            keyword.as_deref()
        )?;
        let count = format!("SELECT COUNT(*) {FROM} WHERE {conditions}");
        let total = scalar!(
            self,
            fetch_one,
            i64,
            &count,
            user,
            company,
            all,
            f.program,
            f.plant,
            f.status.as_deref(),
            keyword.as_deref()
        )?;
        Ok((page, total))
    }

    /// Every enrollment the reader may see (any status), of one plant when asked.
    pub async fn visible_enrollments(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        plant: Option<PlantId>,
    ) -> Result<Vec<VisibleEnrollment>> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let sql = format!(
            "SELECT e.id, e.program_id, e.plant_id, p.name AS plant_name, e.status, \
             (e.opted_out <> 0) AS opted_out FROM dr_enrollments e \
             JOIN plants p ON p.id = e.plant_id WHERE {} AND ($4 IS NULL OR e.plant_id = $4) \
             ORDER BY e.id",
            enrollment_visible()
        );
        Ok(rows!(
            self,
            fetch_all,
            VisibleEnrollment,
            &sql,
            user,
            company,
            all,
            plant
        )?)
    }

    /// The devices of these enrollments, by enrollment then SN.
    pub async fn enrollment_devices(&self, ids: &[EnrollmentId]) -> Result<Vec<DeviceRow>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut sql =
            format!("SELECT {DEVICE_COLUMNS} FROM dr_enrollment_devices WHERE enrollment_id IN (");
        crate::sql::push_params(
            &mut sql,
            0,
            ids.len(),
            self.backend() == crate::Backend::Sqlite,
        );
        sql.push_str(") ORDER BY enrollment_id, sn");
        Ok(with_ids!(self, DeviceRow, sql, [], ids)?)
    }

    /// Every enrollment of a programme (any status), oldest first: what a VTN sync walks.
    pub async fn enrollments_of_program(&self, program: ProgramId) -> Result<Vec<EnrollmentRow>> {
        let sql = format!("SELECT {COLUMNS} {FROM} WHERE e.program_id = $1 ORDER BY e.id");
        Ok(rows!(self, fetch_all, EnrollmentRow, &sql, program)?)
    }

    /// Every accepted, not opted-out enrollment with its devices (dispatch's input).
    pub async fn live_enrollments(&self) -> Result<Vec<LiveEnrollment>> {
        let sql = format!(
            "SELECT {COLUMNS} {FROM} WHERE e.status = 'accepted' AND e.opted_out = 0 ORDER BY e.id"
        );
        let list = rows!(self, fetch_all, EnrollmentRow, &sql)?;
        let ids: Vec<EnrollmentId> = list.iter().map(|e| e.id).collect();
        let mut devices = self.enrollment_devices(&ids).await?;
        Ok(list
            .into_iter()
            .map(|enrollment| {
                let (mine, rest) = devices
                    .drain(..)
                    .partition(|d: &DeviceRow| d.enrollment_id == enrollment.id);
                devices = rest;
                LiveEnrollment {
                    enrollment,
                    devices: mine,
                }
            })
            .collect())
    }

    /// Of these SNs, the ones in a live (pending or accepted) enrollment other than `except`.
    pub async fn sns_in_live_enrollments(
        &self,
        sns: &[String],
        except: Option<EnrollmentId>,
    ) -> Result<Vec<String>> {
        if sns.is_empty() {
            return Ok(Vec::new());
        }
        let sqlite = self.backend() == crate::Backend::Sqlite;
        // SQLite takes plain `?` in order (see `push_params`), so the first one is plain too.
        let mut sql = format!(
            "SELECT DISTINCT d.sn FROM dr_enrollment_devices d \
             JOIN dr_enrollments e ON e.id = d.enrollment_id \
             WHERE e.status IN ('pending', 'accepted') AND e.id <> {} AND d.sn IN (",
            if sqlite { "?" } else { "$1" }
        );
        crate::sql::push_params(&mut sql, 1, sns.len(), sqlite);
        sql.push(')');
        let found = match &self.db {
            crate::Db::Sqlite(pool) => {
                let mut q = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql))
                    .bind(except.unwrap_or(EnrollmentId(0)));
                for sn in sns {
                    q = q.bind(sn);
                }
                q.fetch_all(pool).await?
            }
            crate::Db::Postgres(pool) => {
                let mut q = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql))
                    .bind(except.unwrap_or(EnrollmentId(0)));
                for sn in sns {
                    q = q.bind(sn);
                }
                q.fetch_all(pool).await?
            }
        };
        Ok(found)
    }

    /// Whether another live enrollment of the programme holds this utility account number.
    pub async fn utility_account_taken(
        &self,
        program: ProgramId,
        account: &str,
        except: Option<EnrollmentId>,
    ) -> Result<bool> {
        let n = scalar!(
            self,
            fetch_one,
            i64,
            "SELECT COUNT(*) FROM dr_enrollments WHERE program_id = $1 AND utility_account = $2 \
             AND status IN ('pending', 'accepted') AND id <> $3",
            program,
            account,
            except.unwrap_or(EnrollmentId(0))
        )?;
        Ok(n > 0)
    }

    /// The inverters of a plant, oldest first, with whether a battery reports behind each.
    pub async fn enrollable_inverters(&self, plant: PlantId) -> Result<Vec<PlantInverterRow>> {
        Ok(rows!(
            self,
            fetch_all,
            PlantInverterRow,
            "SELECT d.sn, d.type_code, d.protocol, d.model, pr.name AS product_name, \
             d.rated_power, EXISTS (SELECT 1 FROM devices b WHERE b.family = $3 \
             AND b.parent_sn = d.sn) AS has_battery, d.created_at FROM devices d \
             LEFT JOIN products pr ON pr.id = d.product_id \
             WHERE d.plant_id = $1 AND d.family = $2 ORDER BY d.id",
            plant,
            DeviceFamily::Inverter.as_str(),
            DeviceFamily::Battery.as_str()
        )?)
    }

    /// Of these plants, the ones in a live enrollment.
    pub async fn enrolled_plants(&self, plants: &[PlantId]) -> Result<Vec<PlantId>> {
        if plants.is_empty() {
            return Ok(Vec::new());
        }
        let mut sql = String::from(
            "SELECT DISTINCT plant_id FROM dr_enrollments \
             WHERE status IN ('pending', 'accepted') AND plant_id IN (",
        );
        crate::sql::push_params(
            &mut sql,
            0,
            plants.len(),
            self.backend() == crate::Backend::Sqlite,
        );
        sql.push(')');
        let rows: Vec<(PlantId,)> = with_ids!(self, (PlantId,), sql, [], plants)?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }
}
