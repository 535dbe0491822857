//! The Solarman V5 stick: its serial, its faults, garbage before a frame.

use super::*;

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
