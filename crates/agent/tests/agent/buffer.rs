//! The disk buffer: readings survive a reopen in order, a torn tail is cut off, acknowledged
//! segments go, and the bound thins the backlog (every second reading, the oldest kept).

use crate::support;

use agent::buffer::Buffer;
use support::temp_dir;

fn all(b: &mut Buffer) -> Vec<(u64, Vec<u8>)> {
    let mut out = Vec::new();
    let mut after = b.acked();
    while let Some((seq, payload)) = b.next_after(after).expect("read") {
        assert!(seq > after, "in order");
        after = seq;
        out.push((seq, payload));
    }
    out
}

#[test]
fn readings_survive_a_reopen_and_a_torn_tail_is_cut() {
    let dir = temp_dir("buffer-reopen");
    {
        let mut b = Buffer::open(&dir, 1 << 20).expect("open");
        for i in 0..10 {
            b.append(format!("reading {i}").as_bytes()).expect("append");
        }
        b.ack(3);
        b.save_cursor().expect("cursor");
    }
    // A power cut in the middle of the next append.
    let seg = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "seg"))
        .expect("segment");
    let mut bytes = std::fs::read(&seg).expect("seg");
    bytes.extend_from_slice(&[0xA7, 50, 0, 0, 0, 11, 0]);
    std::fs::write(&seg, bytes).expect("torn");
    let mut b = Buffer::open(&dir, 1 << 20).expect("reopen");
    assert_eq!(b.acked(), 3);
    let left = all(&mut b);
    assert_eq!(
        left.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        (4..=10).collect::<Vec<_>>()
    );
    assert_eq!(left[0].1, b"reading 3");
    assert_eq!(b.append(b"after").expect("append"), 11, "numbering goes on");
    assert_eq!(all(&mut b).last().map(|(s, _)| *s), Some(11));
}

#[test]
fn acknowledged_segments_are_deleted() {
    let dir = temp_dir("buffer-ack");
    let mut b = Buffer::open(&dir, 1 << 20).expect("open");
    let payload = vec![b'x'; 10_000];
    for _ in 0..30 {
        b.append(&payload).expect("append");
    }
    let before = b.bytes();
    b.ack(30);
    assert!(
        b.bytes() < before / 2,
        "{} of {before} bytes left",
        b.bytes()
    );
    assert!(all(&mut b).is_empty());
    assert_eq!(b.append(b"next").expect("append"), 31);
    assert_eq!(all(&mut b).len(), 1);
}

#[test]
fn the_bound_thins_the_backlog_evenly_and_keeps_the_oldest() {
    let dir = temp_dir("buffer-bound");
    let bound = 256 * 1024;
    let mut b = Buffer::open(&dir, bound).expect("open");
    let payload = vec![b'r'; 1000];
    for _ in 0..2000 {
        b.append(&payload).expect("append");
        assert!(b.bytes() <= bound, "{} bytes over the bound", b.bytes());
    }
    assert!(b.thinnings >= 3, "thinned {} times", b.thinnings);
    let left = all(&mut b);
    assert_eq!(
        left.first().map(|(s, _)| *s),
        Some(1),
        "the oldest reading stays"
    );
    assert_eq!(
        left.last().map(|(s, _)| *s),
        Some(2000),
        "the newest reading stays"
    );
    assert!(
        left.len() >= 60 && left.len() < 260,
        "{} readings kept",
        left.len()
    );
    assert_eq!(b.dropped as usize + left.len(), 2000);
    // Spread over the whole outage at one even step: no stretch of it is left empty.
    let gaps: Vec<u64> = left.windows(2).map(|w| w[1].0 - w[0].0).collect();
    let step = gaps.iter().copied().max().unwrap_or(0);
    assert!(
        step <= 64,
        "largest gap {step} readings: {gaps:?}, {} thinnings",
        b.thinnings
    );
    assert!(
        gaps[..gaps.len() / 2].iter().all(|g| *g == step),
        "the older half is at one step: {gaps:?}"
    );
    // On disk the same after a reopen.
    drop(b);
    let mut b = Buffer::open(&dir, bound).expect("reopen");
    assert_eq!(all(&mut b).len(), left.len());
}

/// The bound documented in docs/agent.md: a site with one Deye hybrid, a three-phase meter and
/// a battery stack, read every 5 minutes, fills the default 64 MiB in how many days.
#[test]
fn the_default_bound_holds_weeks_of_a_typical_site() {
    let configs = devices::protocol::shipped().expect("shipped");
    let config = |code: &str| {
        configs
            .iter()
            .find(|c| c.code == code)
            .expect("config")
            .clone()
    };
    let mut readings = Vec::new();
    for (sn, code) in [
        ("2305121234", "deye-hybrid-1ph"),
        ("MTR0000001", "meter-3ph"),
        ("BAT0000001", "bms-lv-stack"),
    ] {
        let c = config(code);
        // Five-digit words: the longest JSON a register takes.
        let raw = devices::decode::plan_reads(&c, 125, 10)
            .into_iter()
            .map(|r| devices::RegisterBlock {
                kind: r.kind,
                start: r.start,
                words: vec![54321; usize::from(r.count)],
            })
            .collect();
        readings.push(devices::report::DeviceReading {
            sn: sn.into(),
            family: "inverter".into(),
            type_code: 2,
            protocol: code.into(),
            model: "SUN-5K-SG03LP1-EU".into(),
            parent: None,
            values: Default::default(),
            raw,
        });
    }
    let payloads = agent::poller::telemetry_payloads(1_700_000_000_000, readings);
    let bytes: usize = payloads.iter().map(|p| p.len() + 17).sum();
    let per_day = bytes * 288;
    let days = (64 * 1024 * 1024) as f64 / per_day as f64;
    println!("a reading: {bytes} bytes on disk, {per_day} per day, 64 MiB = {days:.1} days");
    assert!(days >= 14.0, "64 MiB hold only {days:.1} days");
}
