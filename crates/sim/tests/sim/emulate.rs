//! The Modbus TCP and Solarman V5 emulators, read and written over real sockets with the
//! project's own codec: reads decode to the model's values, writes land only on writable
//! settings (and the plant follows them), every fault does what it says, and garbage does not
//! stop a server.

#![allow(clippy::unwrap_used)] // a test: a missing value is a failure

use crate::emulate_support;

use std::time::{Duration, Instant};

use devices::{
    decode::RegisterBlock,
    modbus::{
        Request, Response, V5_RESPONSE, rtu_frame, rtu_split, tcp_frame, tcp_frame_len, tcp_split,
        v5_request, v5_response_rtu, v5_split,
    },
    protocol::RegisterType,
};
use emulate_support::{SERIAL, address_of, assert_decodes_to, plan, start};
use sim::emulate::{Emulation, Fault};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

const WAIT: Duration = Duration::from_secs(2);

/// A Modbus TCP client on one connection.
struct Tcp {
    stream: TcpStream,
    transaction: u16,
}

impl Tcp {
    async fn connect(e: &Emulation) -> Tcp {
        let addr = e.tcp.as_ref().unwrap().addr;
        Tcp {
            stream: TcpStream::connect(addr).await.unwrap(),
            transaction: 0,
        }
    }

    /// The raw reply frame, or None when nothing comes within `WAIT` or the server closed.
    async fn exchange(&mut self, unit: u8, pdu: &[u8]) -> Option<Vec<u8>> {
        self.transaction = self.transaction.wrapping_add(1);
        let frame = tcp_frame(self.transaction, unit, pdu);
        self.stream.write_all(&frame).await.ok()?;
        let mut head = [0u8; 7];
        let read = tokio::time::timeout(WAIT, self.stream.read_exact(&mut head)).await;
        if !matches!(read, Ok(Ok(_))) {
            return None;
        }
        let Ok(len) = tcp_frame_len(&head) else {
            return Some(head.to_vec());
        };
        let mut out = head.to_vec();
        out.resize(len, 0);
        self.stream.read_exact(&mut out[7..]).await.ok()?;
        Some(out)
    }

    async fn request(&mut self, unit: u8, request: &Request) -> Option<Response> {
        let reply = self.exchange(unit, &request.to_pdu().unwrap()).await?;
        let (transaction, u, pdu) = tcp_split(&reply).ok()?;
        assert_eq!((transaction, u), (self.transaction, unit));
        Response::from_pdu(pdu).ok()
    }

    async fn read(&mut self, unit: u8, kind: RegisterType, start: u16, count: u16) -> Response {
        let request = match kind {
            RegisterType::Holding => Request::ReadHolding { start, count },
            RegisterType::Input => Request::ReadInput { start, count },
        };
        self.request(unit, &request).await.expect("a reply")
    }
}

fn words(r: Response) -> Vec<u16> {
    match r {
        Response::Registers { values, .. } => values,
        other => panic!("not registers: {other:?}"),
    }
}

fn exception(r: Option<Response>) -> Option<u8> {
    match r {
        Some(Response::Exception { code, .. }) => Some(code),
        _ => None,
    }
}

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

#[tokio::test]
async fn each_fault_over_tcp_does_what_it_says_and_clears() {
    let e = start(None).await;
    let faults = e.tcp.as_ref().unwrap().faults.clone();
    let read = Request::ReadHolding {
        start: 184,
        count: 1,
    };
    let pdu = read.to_pdu().unwrap();
    let mut c = Tcp::connect(&e).await;

    faults.set_server(Some(Fault::Delay(Duration::from_millis(300))));
    let t = Instant::now();
    assert!(c.request(1, &read).await.is_some());
    assert!(t.elapsed() >= Duration::from_millis(300));

    faults.set_server(Some(Fault::Exception(4)));
    assert_eq!(exception(c.request(1, &read).await), Some(4));

    faults.set_server(Some(Fault::BadCrc));
    let reply = c.exchange(1, &pdu).await.unwrap();
    let (_, _, body) = tcp_split(&reply).unwrap();
    assert!(Response::from_pdu(body).is_err(), "a byte count that lies");

    faults.set_server(Some(Fault::Garbage));
    let reply = c.exchange(1, &pdu).await.unwrap();
    assert!(tcp_frame_len(&reply).is_err(), "no MBAP header");

    // A unit's own fault leaves the others alone.
    faults.clear();
    let mut c = Tcp::connect(&e).await;
    faults.set_unit(2, Some(Fault::NoReply));
    assert!(c.request(1, &read).await.is_some());
    assert!(c.exchange(2, &pdu).await.is_none(), "unit 2 never answers");

    faults.set_unit(2, None);
    faults.set_server(Some(Fault::DropConnection));
    let mut c = Tcp::connect(&e).await;
    assert!(c.exchange(1, &pdu).await.is_none());
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(WAIT, c.stream.read_to_end(&mut rest)).await;
    assert!(
        matches!(closed, Ok(Ok(0))),
        "the server closed the connection"
    );

    faults.clear();
    let mut c = Tcp::connect(&e).await;
    assert!(c.request(1, &read).await.is_some(), "recovers once cleared");

    // The CLI's form of the same.
    e.set_fault("tcp:1=exception:2").unwrap();
    assert_eq!(exception(c.request(1, &read).await), Some(2));
    e.set_fault("tcp:1=none").unwrap();
    assert!(exception(c.request(1, &read).await).is_none());
    for bad in ["rtu=drop", "tcp=melt", "tcp:x=drop", "tcp"] {
        assert!(e.set_fault(bad).is_err(), "{bad}");
    }
}

#[tokio::test]
async fn garbage_on_tcp_closes_that_connection_only_and_is_counted() {
    let e = start(None).await;
    let addr = e.tcp.as_ref().unwrap().addr;
    let mut junk = TcpStream::connect(addr).await.unwrap();
    junk.write_all(&[0xFF; 4096]).await.unwrap();
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(WAIT, junk.read_to_end(&mut rest)).await;
    // Closed with unread junk in its buffer, the server's side resets the connection.
    assert!(matches!(closed, Ok(Ok(0) | Err(_))), "{closed:?}");
    assert!(rest.is_empty());
    // A PDU the server cannot parse inside a good header is skipped without an answer, and
    // the connection goes on.
    let mut c = Tcp::connect(&e).await;
    assert!(c.exchange(1, &[3, 0]).await.is_none());
    assert_eq!(
        exception(
            c.request(1, &Request::ReadHolding { start: 0, count: 1 })
                .await
        ),
        None
    );
    // An unknown function code is an illegal function.
    let reply = c.exchange(1, &[0x2B, 0x0E, 1, 0, 0]).await.unwrap();
    assert_eq!(tcp_split(&reply).unwrap().2, [0xAB, 1]);
    assert!(e.tcp.as_ref().unwrap().stats.counts().malformed >= 2);
}

/// A V5 client on one connection.
struct V5 {
    stream: TcpStream,
}

impl V5 {
    async fn connect(e: &Emulation) -> V5 {
        V5 {
            stream: TcpStream::connect(e.v5.as_ref().unwrap().addr)
                .await
                .unwrap(),
        }
    }

    /// Sends `frame` and returns the answering frame, or None on silence or a closed socket.
    async fn exchange(&mut self, frame: &[u8]) -> Option<Vec<u8>> {
        self.stream.write_all(frame).await.ok()?;
        let mut head = [0u8; 3];
        let read = tokio::time::timeout(WAIT, self.stream.read_exact(&mut head)).await;
        if !matches!(read, Ok(Ok(_))) {
            return None;
        }
        let Ok(len) = devices::modbus::v5_frame_len(&head) else {
            let mut rest = vec![0u8; 64];
            let n = self.stream.read(&mut rest).await.unwrap_or(0);
            return Some([&head[..], &rest[..n]].concat());
        };
        let mut out = head.to_vec();
        out.resize(len, 0);
        self.stream.read_exact(&mut out[3..]).await.ok()?;
        Some(out)
    }

    async fn read(
        &mut self,
        sequence: u16,
        serial: u32,
        unit: u8,
        start: u16,
        count: u16,
    ) -> Option<Vec<u8>> {
        let pdu = Request::ReadHolding { start, count }.to_pdu().unwrap();
        self.exchange(&v5_request(sequence, serial, &rtu_frame(unit, &pdu)))
            .await
    }
}

/// The registers of a V5 reply, after checking its frame.
fn v5_words(frame: &[u8], sequence: u16) -> Vec<u16> {
    let f = v5_split(frame).unwrap();
    assert_eq!((f.control, f.logger), (V5_RESPONSE, SERIAL));
    assert_eq!(
        f.sequence.to_le_bytes()[0],
        sequence.to_le_bytes()[0],
        "first byte echoed"
    );
    let (_, pdu) = rtu_split(v5_response_rtu(f.payload).unwrap()).unwrap();
    words(Response::from_pdu(pdu).unwrap())
}

#[tokio::test]
async fn the_v5_stick_answers_for_its_serial_like_a_real_one() {
    let e = start(None).await;
    let mut c = V5::connect(&e).await;
    let (config, values) = {
        let site = e.site.lock();
        let d = site.device(1).unwrap();
        (d.config().clone(), d.values().clone())
    };
    let mut blocks = Vec::new();
    for (i, r) in plan(&config).into_iter().enumerate() {
        let sequence = 0x0100 * i as u16 + 0x37;
        let reply = c.read(sequence, SERIAL, 1, r.start, r.count).await.unwrap();
        blocks.push(RegisterBlock {
            kind: r.kind,
            start: r.start,
            words: v5_words(&reply, sequence),
        });
    }
    assert_decodes_to(&config, &blocks, &values);

    // Behind the stick the devices are on RS485 at 9600 baud: 125 registers take the wire
    // time of an 8-byte request and a 255-byte reply.
    let t = Instant::now();
    let reply = c.read(0x99, SERIAL, 1, 150, 125).await.unwrap();
    assert_eq!(v5_words(&reply, 0x99).len(), 125);
    let wire = Duration::from_secs_f64(263.0 * 10.0 / 9600.0);
    assert!(t.elapsed() >= wire, "{:?}", t.elapsed());

    // The battery behind the same stick, on its unit id.
    let battery = e.site.lock().device(3).unwrap().config().clone();
    let r = plan(&battery)[0];
    let reply = c.read(9, SERIAL, 3, r.start, r.count).await.unwrap();
    assert_eq!(v5_words(&reply, 9).len(), usize::from(r.count));

    // Another serial: silence. A unit nobody answers: the stick's empty `05 00` answer.
    assert!(c.read(1, SERIAL + 1, 1, 184, 1).await.is_none());
    let empty = c.read(2, SERIAL, 99, 184, 1).await.unwrap();
    let f = v5_split(&empty).unwrap();
    assert_eq!(&f.payload[14..], &[0x05, 0x00]);
    assert!(v5_response_rtu(f.payload).is_err());
    let counts = e.v5.as_ref().unwrap().stats.counts();
    assert_eq!((counts.ignored, counts.malformed), (1, 0), "{counts:?}");
}

#[tokio::test]
async fn v5_faults_and_garbage_before_a_frame() {
    let e = start(None).await;
    let faults = e.v5.as_ref().unwrap().faults.clone();
    let mut c = V5::connect(&e).await;

    faults.set_server(Some(Fault::WrongSerial));
    let reply = c.read(5, SERIAL, 1, 184, 1).await.unwrap();
    assert_eq!(v5_split(&reply).unwrap().logger, SERIAL + 1);

    faults.set_server(Some(Fault::BadCrc));
    let reply = c.read(6, SERIAL, 1, 184, 1).await.unwrap();
    let rtu = v5_response_rtu(v5_split(&reply).unwrap().payload)
        .unwrap()
        .to_vec();
    assert!(rtu_split(&rtu).is_err(), "the RTU CRC is wrong");

    faults.set_server(Some(Fault::Exception(6)));
    let reply = c.read(7, SERIAL, 1, 184, 1).await.unwrap();
    let rtu = v5_response_rtu(v5_split(&reply).unwrap().payload)
        .unwrap()
        .to_vec();
    assert_eq!(rtu_split(&rtu).unwrap().1, [0x83, 6]);

    faults.set_server(Some(Fault::NoReply));
    assert!(c.read(8, SERIAL, 1, 184, 1).await.is_none());

    faults.set_server(Some(Fault::Garbage));
    let reply = c.read(9, SERIAL, 1, 184, 1).await.unwrap();
    assert!(v5_split(&reply).is_err());

    faults.set_server(Some(Fault::DropConnection));
    let mut dropped = V5::connect(&e).await;
    assert!(dropped.read(1, SERIAL, 1, 184, 1).await.is_none());

    // Junk (a megabyte of it, with stray start bytes) and then a good request on the same
    // connection: the junk is skipped and counted, the request answered.
    faults.clear();
    let mut c = V5::connect(&e).await;
    let mut junk: Vec<u8> = (0..1_000_000u32).map(|i| (i % 251) as u8).collect();
    junk.extend_from_slice(&[0xA5, 0xFF, 0xFF, 0xA5, 0x02]);
    c.stream.write_all(&junk).await.unwrap();
    let reply = c.read(0x42, SERIAL, 1, 184, 1).await.unwrap();
    assert_eq!(v5_words(&reply, 0x42).len(), 1);
    assert!(e.v5.as_ref().unwrap().stats.counts().malformed > 100);
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
