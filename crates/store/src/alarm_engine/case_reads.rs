//! Alarm cases as people read them: a page of the cases on the plants a reader may see (the
//! plant visibility rule, `plants::VISIBLE`), one case, and a case's history.

use domain::ids::{AlarmCaseId, UserId};
use domain::policy::PlantVisibility;

use super::cases::{CASE_COLUMNS, CaseFilter, CaseRow, HistoryRow};
use crate::{Result, Store};

/// `$1`-`$3` as in `plants::VISIBLE`.
const VISIBLE_FROM: &str = "FROM alarm_cases c JOIN plants p ON p.id = c.plant_id \
    LEFT JOIN plant_shares s ON s.plant_id = p.id AND s.user_id = $1 \
    LEFT JOIN users u ON u.id = c.acknowledged_by";

impl Store {
    /// A page of the cases `visibility` lets `reader` see: live ones first (alarms before
    /// warnings, the oldest first), then closed ones (the newest first); with the total.
    pub async fn alarm_cases_visible(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        f: &CaseFilter,
    ) -> Result<(Vec<CaseRow>, i64)> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let conditions = format!(
            "{} AND ($4 IS NULL OR c.state = $4) AND ($5 IS NULL OR c.kind = $5) \
             AND ($6 IS NULL OR c.severity = $6) AND ($7 IS NULL OR c.plant_id = $7)",
            crate::plants::VISIBLE
        );
        let bounds = crate::sql::page(f.limit, f.offset);
        let sql = format!(
            "SELECT {CASE_COLUMNS} {VISIBLE_FROM} WHERE {conditions} \
             ORDER BY CASE WHEN c.closed_at IS NULL THEN 0 ELSE 1 END, \
             CASE WHEN c.closed_at IS NULL AND c.severity = 'alarm' THEN 0 ELSE 1 END, \
             CASE WHEN c.closed_at IS NULL THEN c.opened_at ELSE -c.closed_at END, c.id {bounds}"
        );
        let page = rows!(
            self,
            fetch_all,
            CaseRow,
            &sql,
            user,
            company,
            all,
            f.state.as_deref(),
            f.kind.as_deref(),
            f.severity.as_deref(),
            f.plant
        )?;
        let count = format!("SELECT COUNT(*) {VISIBLE_FROM} WHERE {conditions}");
        let total = scalar!(
            self,
            fetch_one,
            i64,
            &count,
            user,
            company,
            all,
            f.state.as_deref(),
            f.kind.as_deref(),
            f.severity.as_deref(),
            f.plant
        )?;
        Ok((page, total))
    }

    /// One case if `visibility` lets `reader` see its plant.
    pub async fn alarm_case_visible(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        id: AlarmCaseId,
    ) -> Result<Option<CaseRow>> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let sql = format!(
            "SELECT {CASE_COLUMNS} {VISIBLE_FROM} WHERE {} AND c.id = $4",
            crate::plants::VISIBLE
        );
        Ok(rows!(
            self,
            fetch_optional,
            CaseRow,
            &sql,
            user,
            company,
            all,
            id
        )?)
    }

    /// A case's history, oldest first.
    pub async fn alarm_case_history(&self, id: AlarmCaseId) -> Result<Vec<HistoryRow>> {
        Ok(rows!(
            self,
            fetch_all,
            HistoryRow,
            "SELECT h.at, h.action, h.severity, h.value, u.account, h.comment \
             FROM alarm_case_history h LEFT JOIN users u ON u.id = h.user_id \
             WHERE h.case_id = $1 ORDER BY h.id",
            id
        )?)
    }
}
