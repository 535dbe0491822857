//! Read planning: which Modbus reads fetch every register a config needs, merged into as few
//! requests as the device allows. The simulator and gateways use it so that decoding and
//! reading always agree on the registers.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::protocol::{MAX_READ_REGISTERS, ProtocolConfig, RegisterType};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadRequest {
    pub kind: RegisterType,
    pub start: u16,
    pub count: u16,
}

impl ReadRequest {
    pub fn function_code(&self) -> u8 {
        self.kind.function_code()
    }
}

/// Groups the config's registers into reads of at most `max_registers` (capped at 125),
/// bridging holes of up to `max_gap` unused registers. Undecodable points are left out.
pub fn plan_reads(config: &ProtocolConfig, max_registers: u16, max_gap: u16) -> Vec<ReadRequest> {
    let max_len = u32::from(max_registers).clamp(1, MAX_READ_REGISTERS);
    let mut wanted = BTreeSet::new();
    for p in &config.points {
        let (Some(kind), Some(count)) = (p.register_kind(), p.register_count()) else {
            continue;
        };
        if count == 0 || count > MAX_READ_REGISTERS {
            continue;
        }
        for i in 0..count {
            if let Ok(address) = u16::try_from(p.register_address(i)) {
                wanted.insert((kind_order(kind), address));
            }
        }
    }
    let mut out: Vec<ReadRequest> = Vec::new();
    for (order, address) in wanted {
        let kind = kind_from_order(order);
        // Addresses arrive sorted within a kind, so within one kind `address` >= `last.start`.
        if let Some(last) = out.last_mut().filter(|last| last.kind == kind) {
            let end = u32::from(last.start) + u32::from(last.count);
            let gap = u32::from(address).saturating_sub(end);
            let new_len = u32::from(address).saturating_sub(u32::from(last.start)) + 1;
            if gap <= u32::from(max_gap) && new_len <= max_len {
                last.count = u16::try_from(new_len).unwrap_or(u16::MAX);
                continue;
            }
        }
        out.push(ReadRequest {
            kind,
            start: address,
            count: 1,
        });
    }
    out
}

// RegisterType has no Ord (it is a wire enum); a small key keeps holding before input.
fn kind_order(kind: RegisterType) -> u8 {
    match kind {
        RegisterType::Holding => 0,
        RegisterType::Input => 1,
    }
}

fn kind_from_order(order: u8) -> RegisterType {
    if order == 0 {
        RegisterType::Holding
    } else {
        RegisterType::Input
    }
}
