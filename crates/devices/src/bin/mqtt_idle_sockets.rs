//! Test tool: opens TCP connections to an MQTT broker and sends nothing on them, as the
//! security review's attacker did, from a process of its own (a client that opens the sockets
//! in the test's own process runs into its own descriptor limits first).
//!
//! `mqtt-idle-sockets <broker host:port> <first source IPv4> <addresses> <per address>`
//! connects `per address` sockets from each of `addresses` consecutive source addresses (any
//! of 127/8 works on Linux), prints `open N` when all are connected, and holds them until its
//! standard input closes.

use std::{
    io::{Read, Write},
    net::{Ipv4Addr, SocketAddr},
};

use tokio::net::{TcpSocket, TcpStream};

type Error = Box<dyn std::error::Error>;

fn arg<T: std::str::FromStr>(args: &[String], i: usize, what: &str) -> Result<T, Error> {
    args.get(i)
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| format!("argument {i}: expected {what}").into())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().collect();
    let broker: SocketAddr = arg(&args, 1, "the broker's host:port")?;
    let first: Ipv4Addr = arg(&args, 2, "the first source IPv4 address")?;
    let addresses: u32 = arg(&args, 3, "the number of source addresses")?;
    let per_address: u32 = arg(&args, 4, "sockets per source address")?;
    let mut held: Vec<TcpStream> = Vec::new();
    for a in 0..addresses {
        let source = Ipv4Addr::from(u32::from(first) + a);
        for _ in 0..per_address {
            let socket = TcpSocket::new_v4()?;
            socket.bind(SocketAddr::from((source, 0)))?;
            held.push(socket.connect(broker).await?);
        }
    }
    let mut out = std::io::stdout();
    writeln!(out, "open {}", held.len())?;
    out.flush()?;
    // Held until the test lets go of our standard input (or exits).
    let mut rest = Vec::new();
    std::io::stdin().read_to_end(&mut rest)?;
    drop(held);
    Ok(())
}
