//! Modbus TCP server: MBAP frames, several unit ids behind one port (a Modbus TCP gateway in
//! front of an RS485 bus), several clients at once, each answered in order.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use devices::modbus::{MBAP_LEN, tcp_frame, tcp_frame_len, tcp_split};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};

use super::{
    faults::{Fault, Faults, garbage},
    link::{Outcome, Stats, accept, serve},
    site::SiteHandle,
};

/// An absent unit: what a Modbus TCP gateway answers when the device behind it is silent.
const GATEWAY_TARGET_FAILED: u8 = 0x0B;
/// A client that sends nothing this long is dropped, as devices drop idle connections.
const IDLE: Duration = Duration::from_secs(120);
/// The largest MBAP frame: header and a 253-byte PDU.
const MAX_FRAME: usize = MBAP_LEN + 253;

/// Serves clients until the task is aborted.
pub async fn run(
    listener: TcpListener,
    site: SiteHandle,
    faults: Faults,
    stats: Arc<Stats>,
    max_clients: usize,
) {
    let counts = stats.clone();
    accept(listener, counts, max_clients, move |stream, peer| {
        let (site, faults, stats) = (site.clone(), faults.clone(), stats.clone());
        async move { client(stream, peer, &site, &faults, &stats).await }
    })
    .await;
}

async fn client(
    mut stream: TcpStream,
    peer: SocketAddr,
    site: &SiteHandle,
    faults: &Faults,
    stats: &Stats,
) {
    let _ = stream.set_nodelay(true);
    let mut frame = [0u8; MAX_FRAME];
    loop {
        let header = &mut frame[..MBAP_LEN];
        match tokio::time::timeout(IDLE, stream.read_exact(header)).await {
            Ok(Ok(_)) => {}
            _ => return,
        }
        // A header that cannot be an MBAP header leaves no way to find the next frame in
        // the stream: the connection is closed, as Modbus TCP servers do.
        let Ok(len) = tcp_frame_len(header) else {
            stats.malformed();
            tracing::debug!(%peer, "modbus tcp: bad MBAP header, connection closed");
            return;
        };
        if stream.read_exact(&mut frame[MBAP_LEN..len]).await.is_err() {
            return;
        }
        let Ok((transaction, unit, pdu)) = tcp_split(&frame[..len]) else {
            stats.malformed();
            return;
        };
        let reply = match serve(site, faults, stats, unit, pdu) {
            Outcome::Silent => continue,
            Outcome::Drop => return,
            Outcome::Absent => tcp_frame(
                transaction,
                unit,
                &[
                    pdu.first().copied().unwrap_or(0) | 0x80,
                    GATEWAY_TARGET_FAILED,
                ],
            ),
            Outcome::Reply { pdu, fault } => match fault {
                Some(Fault::Delay(d)) => {
                    tokio::time::sleep(d).await;
                    tcp_frame(transaction, unit, &pdu)
                }
                Some(Fault::Garbage) => garbage(pdu.len() + MBAP_LEN),
                Some(Fault::BadCrc) => {
                    // No CRC in Modbus TCP: the nearest harm is a PDU whose byte count lies.
                    let mut bad = pdu;
                    if let Some(b) = bad.get_mut(1) {
                        *b = b.wrapping_add(1);
                    }
                    tcp_frame(transaction, unit, &bad)
                }
                _ => tcp_frame(transaction, unit, &pdu),
            },
        };
        stats.reply();
        if stream.write_all(&reply).await.is_err() {
            return;
        }
    }
}
