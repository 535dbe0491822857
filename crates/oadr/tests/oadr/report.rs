//! Reports built for both versions parse with the reference wire types.

use oadr::Version;
use oadr::neutral::Descriptor;
use oadr::report::{Input, Point, Resource, build};

fn descriptor(payload_type: &str, aggregate: bool) -> Descriptor {
    Descriptor {
        payload_type: payload_type.into(),
        reading_type: None,
        units: None,
        aggregate,
    }
}

fn resources() -> Vec<Resource> {
    let p = |id, v| Point {
        interval_id: id,
        start: 1_795_453_200 + id * 3600,
        end: 1_795_456_800 + id * 3600,
        value: v,
    };
    vec![
        Resource {
            name: "plant-1".into(),
            points: vec![p(0, 0.5), p(1, 0.7)],
        },
        Resource {
            name: "plant-2".into(),
            points: vec![p(0, 0.3), p(1, 0.1)],
        },
    ]
}

fn input<'a>(version: Version, d: &'a Descriptor) -> Input<'a> {
    Input {
        version,
        event_id: "event-1",
        program_id: "program-1",
        client_name: "portal",
        descriptor: d,
        resources: resources(),
    }
}

#[test]
fn a_310_report_has_no_program_id_and_parses_as_a_report_request() {
    let d = descriptor("USAGE", false);
    let r = build(input(Version::V310, &d));
    assert!(r.get("programID").is_none());
    assert_eq!(r["reportName"], "event-1-USAGE");
    assert_eq!(r["payloadDescriptors"][0]["units"], "KWH");
    let parsed: openleadr_wire::report::ReportRequest =
        serde_json::from_str(&r.to_string()).unwrap_or_else(|e| panic!("{e}: {r}"));
    assert_eq!(parsed.resources.len(), 2);
}

#[test]
fn a_301_report_carries_the_program_id_and_parses_as_report_content() {
    let d = descriptor("DEMAND", false);
    let r = build(input(Version::V301, &d));
    assert_eq!(r["programID"], "program-1");
    assert_eq!(r["payloadDescriptors"][0]["readingType"], "MEAN");
    let parsed: oadr30_wire::report::ReportContent =
        serde_json::from_str(&r.to_string()).unwrap_or_else(|e| panic!("{e}: {r}"));
    assert_eq!(parsed.resources.len(), 2);
}

#[test]
fn an_aggregated_charge_level_report_averages_the_plants() {
    let d = descriptor("STORAGE_CHARGE_LEVEL", true);
    let r = build(input(Version::V310, &d));
    let res = r["resources"].as_array().cloned().unwrap_or_default();
    assert_eq!(res.len(), 1);
    assert_eq!(res[0]["resourceName"], "AGGREGATED_REPORT");
    assert_eq!(res[0]["intervals"][0]["payloads"][0]["values"][0], 0.4);
    assert_eq!(
        res[0]["intervals"][1]["intervalPeriod"]["duration"],
        "PT3600S"
    );
}
