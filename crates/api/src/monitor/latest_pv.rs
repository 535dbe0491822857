//! The plant list's current PV power and power switch per inverter, kept between requests with
//! the time of the sample they came from. A list reads when each device last reported (small rows) and reads and
//! parses only the samples it has not seen yet: a sample is a hundred-odd values of JSON, and
//! parsing every inverter's on every request was most of the list's cost. Each replica keeps
//! its own.

use domain::ids::DeviceId;
use std::{collections::HashMap, sync::Mutex};

use crate::{AppState, inverters::values::switched_on, readings::Reading};

use super::flow;

/// Most inverters kept; beyond this the map starts again (the next list reads them anew).
const CAPACITY: usize = 200_000;

/// What the list needs of an inverter's newest sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Latest {
    /// PV power, W.
    pub pv: Option<f64>,
    /// Whether it reports itself switched on.
    pub on: bool,
}

/// Device -> (the sample's time, what it said).
#[derive(Debug, Default)]
pub struct LatestPv {
    seen: Mutex<HashMap<DeviceId, (i64, Latest)>>,
}

impl LatestPv {
    /// The PV power (W) and switch of each `(device, newest sample time)`, from the kept value
    /// when the device has not reported since, else from its newest sample.
    pub(crate) async fn power(
        &self,
        app: &AppState,
        newest: &[(DeviceId, i64)],
    ) -> store::Result<HashMap<DeviceId, Latest>> {
        let mut out = HashMap::with_capacity(newest.len());
        let mut unseen = Vec::new();
        if let Ok(seen) = self.seen.lock() {
            for (device, ts) in newest {
                match seen.get(device) {
                    Some((at, w)) if at == ts => {
                        out.insert(*device, *w);
                    }
                    _ => unseen.push(*device),
                }
            }
        }
        if unseen.is_empty() {
            return Ok(out);
        }
        let read: Vec<(DeviceId, i64, Latest)> = app
            .store
            .latest_samples(&unseen)
            .await?
            .into_iter()
            .map(|s| {
                let r = Reading::from_sample(s.ts, &s.payload);
                let latest = Latest {
                    pv: flow::pv_power(&r),
                    on: switched_on(&r),
                };
                (s.device_id, s.ts, latest)
            })
            .collect();
        if let Ok(mut seen) = self.seen.lock() {
            if seen.len() + read.len() > CAPACITY {
                seen.clear();
            }
            for (device, ts, w) in &read {
                seen.insert(*device, (*ts, *w));
            }
        }
        out.extend(read.into_iter().map(|(device, _, w)| (device, w)));
        Ok(out)
    }
}
