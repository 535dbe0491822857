use super::*;
use domain::ids::DeviceId;

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap_or_default()
}

fn q(from: Option<&str>, to: Option<&str>) -> HealthQuery {
    HealthQuery {
        from: from.map(Into::into),
        to: to.map(Into::into),
    }
}

#[test]
fn the_span_is_the_year_to_today_unless_asked() {
    let today = d("2026-03-01");
    assert_eq!(span(&q(None, None), today), Ok((d("2025-03-02"), today)));
    assert_eq!(
        span(&q(Some("2026-01-01"), Some("2026-01-31")), today),
        Ok((d("2026-01-01"), d("2026-01-31")))
    );
    let field = |r: Result<(NaiveDate, NaiveDate), DomainError>| r.unwrap_err().detail;
    assert_eq!(
        field(span(&q(Some("2026-02-01"), Some("2026-01-31")), today)).as_deref(),
        Some("to")
    );
    assert_eq!(
        field(span(&q(Some("1/2/2026"), None), today)).as_deref(),
        Some("from")
    );
    assert_eq!(
        field(span(&q(Some("2000-01-01"), Some("2026-01-01")), today)).as_deref(),
        Some("to")
    );
}

fn row(day: &str, efc: Option<f64>) -> HealthDayRow {
    HealthDayRow {
        soh: Some(97.0),
        capacity_ah: Some(200.0),
        efc,
        ..HealthDayRow::empty(DeviceId(1), day)
    }
}

#[test]
fn cycles_add_up_from_the_first_day_and_missing_figures_stay_null() {
    let mut with_cycle = row("2026-01-03", Some(0.5));
    with_cycle.cycle_kind = Some("discharge".into());
    with_cycle.cycle_start = Some(0);
    with_cycle.cycle_end = Some(3_600_000);
    with_cycle.cycle_soc_from = Some(96.0);
    with_cycle.cycle_soc_to = Some(18.0);
    with_cycle.measured_ah = Some(186.2);
    with_cycle.bms_ah = Some(196.0);
    let mut blank = row("2026-01-04", None);
    blank.soh = None;
    let rows = [row("2026-01-01", Some(1.0)), with_cycle, blank];
    let h = shape("B1", &rows, "2026-01-02", "2026-01-04", Tz::UTC);
    assert_eq!(h.days.len(), 2);
    // The day before the span still counts towards the total.
    assert_eq!(h.days[0].efc_total, Some(1.5));
    assert_eq!(h.days[1].efc_day, None);
    assert_eq!(h.days[1].efc_total, Some(1.5));
    assert_eq!(h.days[1].soh, None);
    assert_eq!(h.days[1].spread_mv, None);
    // The newest SOH is the newest day's that has one.
    assert_eq!((h.soh, h.bms_ah), (Some(97.0), Some(194.0)));
    let c = &h.cycles[0];
    assert_eq!((c.ratio_pct, c.difference_ah), (Some(95.0), Some(-9.8)));
    assert_eq!(c.end, "1970-01-01 01:00:00");
    assert_eq!(c.moved_ah, None);
}
