//! Event normalisation on recorded VTN answers of both versions, quirks included.

use chrono::{DateTime, Utc};
use oadr::Version;
use oadr::neutral::{self, Program};
use oadr::normal::{Kind, MAX_TS, NormalEvent, Normalised, Options, normalise};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/oadr/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn ts(s: &str) -> i64 {
    s.parse::<DateTime<Utc>>()
        .map(|t| t.timestamp())
        .unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn now() -> DateTime<Utc> {
    "2026-11-22T12:00:00Z".parse().unwrap_or_default()
}

fn events(v: Version, name: &str) -> Vec<Normalised> {
    let docs = neutral::event_docs(v, &fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(docs.refused.is_empty(), "{name}: {:?}", docs.refused);
    docs.docs
        .iter()
        .map(|d| normalise(d, now(), Options::default()).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn event(n: &Normalised) -> &NormalEvent {
    match n {
        Normalised::Event(e) => e,
        Normalised::Ignored(id) => panic!("{id} ignored"),
    }
}

#[test]
fn an_export_capacity_limit_becomes_an_export_limit_in_kw_over_contiguous_intervals() {
    let all = events(Version::V310, "v310_export_limit.json");
    let e = event(&all[0]);
    assert_eq!(e.remote_id, "event-1");
    assert_eq!(e.program_remote_id, "program-1");
    assert_eq!(e.name, "Evening export cap");
    assert_eq!(e.priority, 4);
    assert_eq!((e.kind, e.target_kw), (Kind::ExportLimit, 3.5));
    assert_eq!(e.start, ts("2026-11-23T17:00:00Z"));
    assert_eq!(e.end, ts("2026-11-23T19:00:00Z"));
    assert_eq!(e.intervals.len(), 2);
    assert_eq!(e.intervals[1].start, ts("2026-11-23T18:00:00Z"));
    assert_eq!(e.intervals[1].target_kw, 2.0);
    assert!(!e.cancelled && !e.starts_now);
    assert_eq!(e.report_descriptors[0].payload_type, "USAGE");
    assert_eq!(
        e.remote_modified.as_deref(),
        Some("2026-11-22T10:00:00.123Z")
    );
}

#[test]
fn the_start_0001_01_01_with_pt0s_rewrite_is_a_cancellation() {
    let all = events(Version::V310, "v310_cancelled_rewrite.json");
    let e = event(&all[0]);
    assert!(e.cancelled);
    assert!(e.starts_now);
    assert_eq!(e.start, now().timestamp());
    assert_eq!(e.end, e.start);
}

#[test]
fn events_listed_twice_are_kept_once_and_prices_are_not_acted_on() {
    let all = events(Version::V310, "v310_ri_duplicates.json");
    assert_eq!(all.len(), 2);
    let e = event(&all[0]);
    assert_eq!(
        (e.kind, e.target_kw),
        (Kind::Discharge, 10.0),
        "SIMPLE 3 = full scale"
    );
    assert_eq!(all[1], Normalised::Ignored("e8".into()));
}

#[test]
fn start_now_and_p9999y_is_open_ended_and_event_duration_truncates() {
    let all = events(Version::V310, "v310_open_ended.json");
    let forever = event(&all[0]);
    assert!(forever.starts_now);
    assert_eq!(forever.start, now().timestamp());
    assert_eq!(forever.end, MAX_TS);
    assert_eq!(
        (forever.kind, forever.target_kw),
        (Kind::Charge, 5.0),
        "DISPATCH_SETPOINT is the battery's consumption"
    );

    let cut = event(&all[1]);
    assert_eq!(cut.end, ts("2026-11-23T18:30:00Z"));
    assert_eq!(cut.intervals.len(), 3);
    assert_eq!(cut.intervals[1].end, ts("2026-11-23T18:30:00Z"));
    assert_eq!(
        cut.intervals[2].start, cut.intervals[2].end,
        "past the event's duration"
    );

    let explicit = event(&all[2]);
    assert_eq!(explicit.start, ts("2026-11-23T17:00:00Z"));
    assert_eq!(explicit.end, ts("2026-11-23T18:30:00Z"));
    assert_eq!(explicit.intervals[0].end, ts("2026-11-23T17:15:00Z"));
    assert_eq!(explicit.intervals[1].id, 6);
    assert_eq!(explicit.priority, oadr::normal::UNSPECIFIED_PRIORITY);
}

#[test]
fn reference_vtn_301_bare_time_metadata_and_negative_setpoints_are_read() {
    let all = events(Version::V301, "v301_ri_quirks.json");
    let e = event(&all[0]);
    assert_eq!(e.remote_id, "0");
    assert_eq!(e.remote_modified.as_deref(), Some("02:50:02"));
    assert_eq!((e.kind, e.target_kw), (Kind::Discharge, 5.0));
    assert_eq!(e.end - e.start, 7200);
    assert_eq!(e.priority, 0);
    assert!(e.report_descriptors[0].aggregate);

    let simple = event(&all[1]);
    assert_eq!(simple.intervals.len(), 1, "SIMPLE 0 is normal operation");
    assert!((simple.target_kw - 20.0 / 3.0).abs() < 1e-9);
    assert_eq!(simple.end, ts("2026-11-24T19:00:00Z"));
}

#[test]
fn a_301_event_with_valuesmap_targets_is_refused_by_the_310_reader() {
    // 3.0 targets are valuesMaps, 3.1 targets are strings: the version setting matters.
    let docs = neutral::event_docs(Version::V310, &fixture("v301_ri_quirks.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(docs.refused.len(), 1, "the one with 3.0 targets");
    assert_eq!(docs.refused[0].id, "0");
    assert_eq!(docs.docs.len(), 1, "the one without targets reads in both");
}

#[test]
fn programmes_of_both_versions_read_with_their_names() {
    let p30 = neutral::program_docs(Version::V301, &fixture("v301_programs_ri.json"))
        .unwrap_or_default()
        .docs;
    let p: Program = p30[0].read("program").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.program_name, "battery-program");
    assert_eq!(p.retailer_name.as_deref(), Some("Acme Power"));
    let p31 = neutral::program_docs(Version::V310, &fixture("v310_programs.json"))
        .unwrap_or_default()
        .docs;
    assert_eq!(p31[0].id, "program-1");
    let p: Program = p31[0].read("program").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.program_name, "export-cap");
}

#[test]
fn storage_charge_level_is_read_as_a_fraction_from_either_scale() {
    use oadr::normal::charge_level_fraction;
    assert_eq!(charge_level_fraction(0.33), 0.33);
    assert_eq!(charge_level_fraction(33.0), 0.33);
    assert_eq!(charge_level_fraction(1.0), 1.0);
    assert_eq!(charge_level_fraction(150.0), 1.0);
}

/// Reads a list the way the sync does: refused objects apart, then each normalised (an error
/// there refuses the event too). Answers (events, refused ids).
fn odd(v: Version, name: &str) -> (Vec<Normalised>, Vec<String>) {
    let docs = neutral::event_docs(v, &fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut refused: Vec<String> = docs.refused.iter().map(|r| r.id.clone()).collect();
    let mut good = Vec::new();
    for d in &docs.docs {
        match normalise(d, now(), Options::default()) {
            Ok(n) => good.push(n),
            Err(_) => refused.push(d.id.clone()),
        }
    }
    refused.sort();
    (good, refused)
}

#[test]
fn odd_310_events_are_refused_one_by_one_and_the_good_one_still_reads() {
    let (good, refused) = odd(Version::V310, "v310_odd_events.json");
    assert_eq!(refused, ["#3", "negative", "no-start", "not-a-date"]);
    assert_eq!(good.len(), 1);
    let e = event(&good[0]);
    assert_eq!((e.kind, e.target_kw), (Kind::ExportLimit, 2.5));
    assert_eq!(
        oadr::report::unsupported(&e.report_descriptors),
        ["BASELINE"],
        "listed once"
    );
}

#[test]
fn odd_301_events_are_refused_one_by_one_and_a_zero_setpoint_holds() {
    let (good, refused) = odd(Version::V301, "v301_odd_events.json");
    assert_eq!(refused, ["negative", "not-a-date"]);
    let e = event(&good[0]);
    assert_eq!((e.kind, e.target_kw), (Kind::Charge, 0.0));
}

#[test]
fn a_body_that_is_not_a_list_is_still_an_error() {
    assert!(neutral::event_docs(Version::V310, br#"{"title":"oops"}"#).is_err());
}
