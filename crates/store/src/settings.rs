//! Inverter settings the portal keeps: the values each device last confirmed (what a read
//! shows while the device is offline) and users' custom parameter profiles.

use crate::{Conflict, Result, Store, conflict};
use domain::ids::{ProfileId, UserId};

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct ProfileRow {
    pub id: ProfileId,
    pub user_id: UserId,
    pub name: String,
    /// JSON object of setting key to string value.
    pub params: String,
    pub created_at: i64,
    pub updated_at: i64,
}

const PROFILE_COLUMNS: &str = "id, user_id, name, params, created_at, updated_at";

impl Store {
    /// The values `device_sn` confirmed, by key.
    pub async fn device_settings(&self, device_sn: &str) -> Result<Vec<(String, String)>> {
        Ok(rows!(
            self,
            fetch_all,
            (String, String),
            "SELECT key, value FROM device_settings WHERE device_sn = $1 ORDER BY key",
            device_sn
        )?)
    }

    /// Records values the device confirmed at `at`. A value older than the one stored is
    /// ignored, so replies recorded out of order never roll a setting back.
    pub async fn store_device_settings(
        &self,
        device_sn: &str,
        values: &[(String, String)],
        at: i64,
    ) -> Result<()> {
        for (key, value) in values {
            exec!(
                self,
                "INSERT INTO device_settings (device_sn, key, value, updated_at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (device_sn, key) DO UPDATE \
                 SET value = excluded.value, updated_at = excluded.updated_at \
                 WHERE device_settings.updated_at <= excluded.updated_at",
                device_sn,
                key,
                value,
                at
            )?;
        }
        Ok(())
    }

    pub async fn setting_profiles(&self, user: UserId) -> Result<Vec<ProfileRow>> {
        let sql = format!(
            "SELECT {PROFILE_COLUMNS} FROM setting_profiles WHERE user_id = $1 ORDER BY id"
        );
        Ok(rows!(self, fetch_all, ProfileRow, &sql, user)?)
    }

    /// Adds a profile unless the user already has `max`; answers its id, or `None` at the
    /// limit. A name the user already uses answers `Conflict::ProfileName`.
    pub async fn create_setting_profile(
        &self,
        user: UserId,
        name: &str,
        params: &str,
        max: i64,
        now: i64,
    ) -> Result<Option<ProfileId>> {
        // The count and the insert are one statement, so two saves at once cannot pass the limit.
        scalar!(
            self,
            fetch_optional,
            ProfileId,
            "INSERT INTO setting_profiles (user_id, name, params, created_at, updated_at) \
             SELECT $1, $2, $3, $4, $4 WHERE (SELECT COUNT(*) FROM setting_profiles \
             WHERE user_id = $1) < $5 RETURNING id",
            user,
            name,
            params,
            now,
            max
        )
        .map_err(|e| conflict(e, Conflict::ProfileName))
    }

    /// Changes one of the user's profiles; `false` when they have no such profile.
    pub async fn update_setting_profile(
        &self,
        user: UserId,
        id: ProfileId,
        name: &str,
        params: &str,
        now: i64,
    ) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE setting_profiles SET name = $3, params = $4, updated_at = $5 \
             WHERE id = $1 AND user_id = $2",
            id,
            user,
            name,
            params,
            now
        )
        .map_err(|e| conflict(e, Conflict::ProfileName))?
            == 1)
    }

    pub async fn delete_setting_profile(&self, user: UserId, id: ProfileId) -> Result<bool> {
        Ok(exec!(
            self,
            "DELETE FROM setting_profiles WHERE id = $1 AND user_id = $2",
            id,
            user
        )? == 1)
    }
}
