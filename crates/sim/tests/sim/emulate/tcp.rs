//! Modbus TCP: reads, writes, many inverters behind one port, the client limit, real time.

use super::*;

#[tokio::test]
async fn every_unit_reads_over_modbus_tcp_as_the_model_says() {
    let e = start(None).await;
    let mut c = Tcp::connect(&e).await;
    let devices: Vec<_> = {
        let site = e.site.lock();
        site.devices()
            .iter()
            .map(|d| (d.unit, d.config().clone(), d.values().clone()))
            .collect()
    };
    assert!(devices.len() >= 3, "inverter, meter and battery at least");
    for (unit, config, values) in &devices {
        let mut blocks = Vec::new();
        for r in plan(config) {
            let w = words(c.read(*unit, r.kind, r.start, r.count).await);
            blocks.push(RegisterBlock {
                kind: r.kind,
                start: r.start,
                words: w,
            });
        }
        assert_decodes_to(config, &blocks, values);
    }
    // A second client at the same time is served too.
    let mut other = Tcp::connect(&e).await;
    assert_eq!(
        words(other.read(1, RegisterType::Holding, 184, 1).await),
        words(c.read(1, RegisterType::Holding, 184, 1).await)
    );
    // Registers no point maps read 0; a read past the map is an illegal address; a unit that
    // is not there is a gateway's "target failed to respond".
    let last = *plan(&devices[0].1).last().unwrap();
    let top = last.start + last.count - 1;
    assert_eq!(
        words(c.read(1, RegisterType::Holding, 25, 3).await),
        [0, 0, 0]
    );
    let past = c.read(1, RegisterType::Holding, top, 2).await;
    assert_eq!(exception(Some(past)), Some(2));
    assert_eq!(
        exception(Some(c.read(1, RegisterType::Input, 0, 1).await)),
        Some(2)
    );
    assert_eq!(
        exception(Some(c.read(77, RegisterType::Holding, 0, 1).await)),
        Some(0x0B)
    );
    let counts = e.tcp.as_ref().unwrap().stats.counts();
    assert_eq!(counts.malformed, 0);
    assert!(
        counts.requests >= 10 && counts.connections == 2,
        "{counts:?}"
    );
}

#[tokio::test]
async fn writes_land_only_on_writable_settings_and_the_plant_follows() {
    let e = start(None).await;
    let mut c = Tcp::connect(&e).await;
    let config = e.site.lock().device(1).unwrap().config().clone();
    let mode = address_of(&config, "sysWorkMode");
    let charge = address_of(&config, "batteryMaxCurrentCharge");
    let slot = address_of(&config, "sellTime1");
    let power = address_of(&config, "powerOn");
    assert!(e.site.lock().gateway().model.is_on(0));

    // Accepted: the reply echoes, the image holds it, the settings text says it.
    let r = c
        .request(
            1,
            &Request::WriteMultiple {
                start: mode,
                values: vec![2],
            },
        )
        .await;
    assert_eq!(
        r,
        Some(Response::WriteMultiple {
            start: mode,
            count: 1
        })
    );
    let r = c
        .request(
            1,
            &Request::WriteSingle {
                address: slot,
                value: 2230,
            },
        )
        .await;
    assert_eq!(
        r,
        Some(Response::WriteSingle {
            address: slot,
            value: 2230
        })
    );
    assert_eq!(words(c.read(1, RegisterType::Holding, mode, 1).await), [2]);
    let settings = e.site.lock().device(1).unwrap().settings();
    assert_eq!(settings.get("sysWorkMode").map(String::as_str), Some("2"));
    assert_eq!(settings.get("sellTime1").map(String::as_str), Some("22:30"));

    // Refused: a register no setting owns (running state, 59), the setting's limits, a time
    // that is none, a flag that is neither 0 nor 1 — and nothing changes.
    let too_much = config
        .setting("batteryMaxCurrentCharge")
        .unwrap()
        .0
        .max
        .unwrap() as u16
        + 1;
    let refused = [
        (59, 1, 2),
        (charge, too_much, 3),
        (slot, 2460, 3),
        (power, 5, 3),
        (mode, 3, 3),
    ];
    for (address, value, code) in refused {
        let r = c.request(1, &Request::WriteSingle { address, value }).await;
        assert_eq!(exception(r), Some(code), "write {value} to {address}");
    }
    let r = c
        .request(
            1,
            &Request::WriteMultiple {
                start: power - 1,
                values: vec![0, 1],
            },
        )
        .await;
    assert_eq!(exception(r), Some(2), "a run reaching past the setting");
    assert_eq!(words(c.read(1, RegisterType::Holding, mode, 1).await), [2]);
    assert_eq!(
        exception(
            c.request(
                2,
                &Request::WriteSingle {
                    address: mode,
                    value: 1
                }
            )
            .await
        ),
        Some(2),
        "the meter has no settings"
    );

    // powerOn switches the inverter off: the model follows, and after its next step the
    // inverter reports standby and no output while the switch keeps what was written.
    let r = c
        .request(
            1,
            &Request::WriteSingle {
                address: power,
                value: 0,
            },
        )
        .await;
    assert!(matches!(r, Some(Response::WriteSingle { .. })), "{r:?}");
    assert!(!e.site.lock().gateway().model.is_on(0));
    let later = e.site.lock().at().unwrap() + chrono::Duration::seconds(1);
    e.site.lock().refresh(later);
    let state = words(c.read(1, RegisterType::Holding, 59, 1).await);
    assert_eq!(state, [0], "running state standby");
    let switch = words(c.read(1, RegisterType::Holding, power, 1).await);
    assert_eq!(switch[0] & 1, 0);
    assert_eq!(
        words(c.read(1, RegisterType::Holding, mode, 1).await),
        [2],
        "settings persist"
    );

    // An export limit written over the wire reaches the plant's control.
    let cap = address_of(&config, "solarMaxSellPower");
    let r = c
        .request(
            1,
            &Request::WriteSingle {
                address: cap,
                value: 300,
            },
        )
        .await;
    assert!(matches!(r, Some(Response::WriteSingle { .. })), "{r:?}");
    assert_eq!(
        e.site
            .lock()
            .device(1)
            .unwrap()
            .settings()
            .get("solarMaxSellPower")
            .map(String::as_str),
        Some("300")
    );
}

/// One Modbus TCP port in front of a hundred inverters: every one polled (its whole map) from
/// one connection, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_inverters_answer_behind_one_tcp_port() {
    let e = Emulation::start(sim::emulate::EmulateOptions {
        site: sim::emulate::commercial_site(100, 1),
        configs: devices::protocol::shipped().unwrap(),
        step: Some(Duration::from_secs(1)),
        tcp: Some("127.0.0.1:0".parse().unwrap()),
        v5: None,
        rtu: None,
    })
    .await
    .unwrap();
    let config = e.site.lock().device(1).unwrap().config().clone();
    let mut c = Tcp::connect(&e).await;
    let t = Instant::now();
    let mut reads = 0;
    for unit in 1..=100u8 {
        for r in plan(&config) {
            let w = words(c.read(unit, r.kind, r.start, r.count).await);
            assert_eq!(w.len(), usize::from(r.count));
            reads += 1;
        }
    }
    println!(
        "modbus tcp: 100 inverters, {reads} reads in {:?}",
        t.elapsed()
    );
    assert_eq!(e.site.lock().devices().len(), 104);
}

/// A device has few sockets: past the limit a new client is closed at once, and a place
/// frees when a client leaves.
#[tokio::test]
async fn clients_past_the_limit_are_closed_and_places_free_up() {
    let e = start(None).await;
    let read = Request::ReadHolding {
        start: 184,
        count: 1,
    };
    let mut held = Vec::new();
    for _ in 0..sim::emulate::MAX_CLIENTS {
        let mut c = Tcp::connect(&e).await;
        assert!(c.request(1, &read).await.is_some());
        held.push(c);
    }
    let mut extra = Tcp::connect(&e).await;
    assert!(extra.request(1, &read).await.is_none(), "one too many");
    held.pop();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut next = Tcp::connect(&e).await;
    assert!(next.request(1, &read).await.is_some());
}

/// Left running, the model steps in real time and the registers follow each step.
#[tokio::test]
async fn the_plant_steps_in_real_time() {
    let e = Emulation::start(sim::emulate::EmulateOptions {
        site: sim::fleet::demo_fleet(1, 3).remove(0),
        configs: emulate_support::configs(),
        step: Some(Duration::from_millis(50)),
        tcp: None,
        v5: None,
        rtu: None,
    })
    .await
    .unwrap();
    let first = e.site.lock().at().unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let later = e.site.lock().at().unwrap();
    let stepped = (later - first).num_milliseconds();
    assert!((250..=1000).contains(&stepped), "{stepped} ms");
}
