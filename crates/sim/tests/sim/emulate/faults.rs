//! Faults over TCP, and garbage that closes one connection only.

use super::*;

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
