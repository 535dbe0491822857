//! Faults an emulated server injects on request: per server (every unit it serves) or per
//! unit, set from tests through a [`Faults`] handle or from `portal emulate --fault`.

use std::{
    collections::BTreeMap,
    str::FromStr,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

/// One way a device or a link misbehaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The reply comes this much later than it would.
    Delay(Duration),
    /// The request is taken and never answered.
    NoReply,
    /// The reply's CRC is wrong (RTU, and the RTU frame inside V5). Modbus TCP has no CRC:
    /// there the reply's byte count is off by one, a frame no client can take.
    BadCrc,
    /// Every request is answered with this Modbus exception code.
    Exception(u8),
    /// Reads are answered; every write (functions 6 and 16) gets this exception code, as a
    /// device in a state that forbids changes answers (a running grid-code test, a lock).
    RefuseWrites(u8),
    /// The TCP connection is closed when a request arrives (RTU: no reply, as for a bus
    /// cut mid-frame).
    DropConnection,
    /// The V5 reply carries another logger serial (other transports ignore it).
    WrongSerial,
    /// Bytes that are no frame at all come instead of the reply.
    Garbage,
}

impl FromStr for Fault {
    type Err = String;

    /// `delay:MS`, `no-reply`, `bad-crc`, `exception:CODE`, `refuse-writes:CODE`, `drop`,
    /// `wrong-serial`, `garbage`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (kind, arg) = match text.split_once(':') {
            Some((k, a)) => (k, Some(a)),
            None => (text, None),
        };
        let number = |what: &str| -> Result<u64, String> {
            arg.and_then(|a| a.parse().ok())
                .ok_or_else(|| format!("`{kind}` needs a number: {kind}:{what}"))
        };
        Ok(match kind {
            "delay" => Fault::Delay(Duration::from_millis(number("MS")?)),
            "no-reply" => Fault::NoReply,
            "bad-crc" => Fault::BadCrc,
            "exception" => Fault::Exception(exception_code(number("CODE")?)?),
            "refuse-writes" => Fault::RefuseWrites(exception_code(number("CODE")?)?),
            "drop" => Fault::DropConnection,
            "wrong-serial" => Fault::WrongSerial,
            "garbage" => Fault::Garbage,
            other => {
                return Err(format!(
                    "unknown fault `{other}` (delay:MS, no-reply, bad-crc, exception:CODE, \
                     refuse-writes:CODE, drop, wrong-serial, garbage)"
                ));
            }
        })
    }
}

fn exception_code(n: u64) -> Result<u8, String> {
    u8::try_from(n)
        .ok()
        .filter(|c| (1..=0x7F).contains(c))
        .ok_or_else(|| "an exception code is 1..=127".to_string())
}

#[derive(Debug, Default)]
struct Board {
    server: Option<Fault>,
    units: BTreeMap<u8, Fault>,
}

/// The faults of one server, shared between the server's tasks and whoever injects them.
/// A unit's own fault wins over the server's.
#[derive(Debug, Clone, Default)]
pub struct Faults(Arc<Mutex<Board>>);

impl Faults {
    fn board(&self) -> std::sync::MutexGuard<'_, Board> {
        // A panic elsewhere cannot leave a fault board half-written: take it as it is.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Every unit of the server misbehaves so (`None` clears it).
    pub fn set_server(&self, fault: Option<Fault>) {
        self.board().server = fault;
    }

    /// One unit misbehaves so (`None` clears it).
    pub fn set_unit(&self, unit: u8, fault: Option<Fault>) {
        let mut board = self.board();
        match fault {
            Some(f) => board.units.insert(unit, f),
            None => board.units.remove(&unit),
        };
    }

    pub fn clear(&self) {
        *self.board() = Board::default();
    }

    /// The fault a request to `unit` meets now, if any.
    pub fn for_unit(&self, unit: u8) -> Option<Fault> {
        let board = self.board();
        board.units.get(&unit).copied().or(board.server)
    }
}

/// Junk standing in for a reply (at most 64 bytes): no V5 start byte, no MBAP protocol id 0,
/// and (for any length over 3) no valid RTU CRC in practice.
pub fn garbage(len: usize) -> Vec<u8> {
    (0..len.clamp(1, 64))
        .map(|i| {
            if i % 2 == 0 {
                0xFF - (i / 2) as u8
            } else {
                i as u8
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_parse_and_a_unit_wins_over_its_server() {
        assert_eq!(
            "delay:250".parse(),
            Ok(Fault::Delay(Duration::from_millis(250)))
        );
        assert_eq!("exception:4".parse(), Ok(Fault::Exception(4)));
        assert_eq!("refuse-writes:3".parse(), Ok(Fault::RefuseWrites(3)));
        assert!("exception:200".parse::<Fault>().is_err());
        assert!("delay".parse::<Fault>().is_err());
        assert!("melt".parse::<Fault>().is_err());
        let f = Faults::default();
        f.set_server(Some(Fault::NoReply));
        f.set_unit(2, Some(Fault::Garbage));
        assert_eq!(
            (f.for_unit(1), f.for_unit(2)),
            (Some(Fault::NoReply), Some(Fault::Garbage))
        );
        f.clear();
        assert_eq!(f.for_unit(2), None);
    }
}
