//! Gateway sign-in throttling over real sockets (security review: 27,284 wrong keys in 10 s
//! were answered without a pause): wrong keys lock their (address, SN) pair, and then the right
//! key from that address is refused too while another address still signs in; many addresses
//! guessing one SN lock it briefly, except for the address it last signed in from.

use crate::link_common;

use std::{net::Ipv4Addr, time::Duration};

use devices::link::{
    BrokerConfig,
    signin::{Rule, SignInPolicy},
};
use link_common::*;

/// CONNACK return codes (MQTT 3.1.1).
const ACCEPTED: u8 = 0;
const BAD_KEY: u8 = 4;
const NOT_AUTHORIZED: u8 = 5;

fn broker(sn_lock: Duration) -> BrokerConfig {
    let mut b = BrokerConfig::new(loopback(0));
    b.signin = SignInPolicy {
        sn: Rule {
            failures: 20,
            first_lock: sn_lock,
            longest: sn_lock,
        },
        ..SignInPolicy::default()
    };
    b
}

async fn attempt(from: Ipv4Addr, h: &Harness, sn: &str, key: &str) -> std::io::Result<u8> {
    let mut s = tcp_from(from, h.addr).await?;
    sign_in_raw(&mut s, sn, key).await
}

#[tokio::test]
async fn wrong_keys_lock_their_address_for_that_gateway_even_with_the_right_key() -> TestResult {
    let h = harness_with(
        &[("GW1", "right-key-1"), ("GW2", "right-key-2")],
        Answer::Commit,
        broker(Duration::from_secs(5)),
    )
    .await?;
    for guess in 0..5 {
        let code = attempt(lo(7), &h, "GW1", &format!("guess-{guess}")).await?;
        assert_eq!(code, BAD_KEY, "guess {guess} answered {code}");
    }
    // Locked: refused before the key is looked at, the right key included.
    assert_eq!(
        attempt(lo(7), &h, "GW1", "right-key-1").await?,
        NOT_AUTHORIZED
    );
    assert_eq!(attempt(lo(7), &h, "GW1", "guess-x").await?, NOT_AUTHORIZED);
    // The real gateway elsewhere, and another gateway at the same address, are not affected.
    assert_eq!(attempt(lo(8), &h, "GW1", "right-key-1").await?, ACCEPTED);
    assert_eq!(attempt(lo(7), &h, "GW2", "right-key-2").await?, ACCEPTED);
    Ok(())
}

#[tokio::test]
async fn many_addresses_guessing_one_gateway_lock_it_briefly_but_not_where_it_signed_in()
-> TestResult {
    let h = harness_with(
        &[("GW1", "right-key-1")],
        Answer::Commit,
        broker(Duration::from_secs(2)),
    )
    .await?;
    // The gateway signs in from its own address first.
    assert_eq!(attempt(lo(2), &h, "GW1", "right-key-1").await?, ACCEPTED);
    // Twenty addresses, one wrong key each: no pair reaches its bound, the SN does.
    for a in 0..20u8 {
        assert_eq!(attempt(lo(100 + a), &h, "GW1", "wrong").await?, BAD_KEY);
    }
    assert_eq!(
        attempt(lo(3), &h, "GW1", "right-key-1").await?,
        NOT_AUTHORIZED
    );
    assert_eq!(attempt(lo(130), &h, "GW1", "wrong").await?, NOT_AUTHORIZED);
    // Its own address still gets in, and everyone once the short lock has passed.
    assert_eq!(attempt(lo(2), &h, "GW1", "right-key-1").await?, ACCEPTED);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    assert_eq!(attempt(lo(3), &h, "GW1", "right-key-1").await?, ACCEPTED);
    Ok(())
}

#[tokio::test]
async fn a_flood_of_wrong_keys_gets_five_answers_per_address_and_gateway() -> TestResult {
    let h = harness_with(
        &[("GW1", "right-key-1")],
        Answer::Commit,
        broker(Duration::from_secs(5)),
    )
    .await?;
    let mut answered = 0;
    for guess in 0..200 {
        if attempt(lo(9), &h, "GW1", &format!("guess-{guess}")).await? == BAD_KEY {
            answered += 1;
        }
    }
    assert_eq!(answered, 5, "only the first five guesses were checked");
    Ok(())
}
