//! Telemetry payloads as a gateway sends them: `devices::report::Telemetry` JSON with a fixed
//! set of values per device. The text around the two changing numbers (report time, energy
//! counter) is built once, so the load generator spends little CPU next to the portal.

use std::collections::BTreeMap;

use devices::Value;

/// The energy counter the ingest rolls up (the other values are plain measurements).
pub const ENERGY_KEY: &str = "today_pv_energy";

/// Values of one device reading other than the energy counter, in the order JSON writes them.
fn other_values(values: usize) -> Vec<(String, f64)> {
    (1..values.max(1))
        .map(|k| (format!("v{k}"), 200.0 + k as f64 * 0.25))
        .collect()
}

/// Device SN `d` behind gateway `gateway_sn`.
pub fn device_sn(gateway_sn: &str, d: usize) -> String {
    format!("{gateway_sn}-D{d}")
}

/// Builds the payloads of one gateway.
pub struct Template {
    head: String,
    /// Per device: the JSON up to the energy value, and after it.
    devices: Vec<(String, String)>,
}

impl Template {
    pub fn new(gateway_sn: &str, devices: usize, values: usize) -> Template {
        let others: String = other_values(values)
            .iter()
            .map(|(k, v)| format!(",\"{k}\":{v}"))
            .collect();
        let devices = (0..devices.max(1))
            .map(|d| {
                let sn = device_sn(gateway_sn, d);
                (
                    format!(
                        "{{\"sn\":\"{sn}\",\"family\":\"inverter\",\"type\":2,\
                         \"protocol\":\"deye-hybrid-1ph\",\"values\":{{\"{ENERGY_KEY}\":"
                    ),
                    format!("{others}}}}}"),
                )
            })
            .collect();
        Template {
            head: "{\"v\":1,\"ts\":".into(),
            devices,
        }
    }

    /// The payload of a report at `ts` (ms) with the energy counter at `energy`.
    pub fn render(&self, ts: i64, energy: f64) -> Vec<u8> {
        let mut s = String::with_capacity(self.devices.len() * 1800 + 64);
        s.push_str(&self.head);
        s.push_str(&ts.to_string());
        s.push_str(",\"devices\":[");
        for (i, (before, after)) in self.devices.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(before);
            s.push_str(&format!("{energy:.3}"));
            s.push_str(after);
        }
        s.push_str("]}");
        s.into_bytes()
    }
}

/// The `samples.payload` text ingest stores for one reading: its values as a JSON object.
pub fn stored_payload(values: usize, energy: f64) -> String {
    let mut map: BTreeMap<String, Value> = other_values(values)
        .into_iter()
        .map(|(k, v)| (k, Value::Number(v)))
        .collect();
    map.insert(ENERGY_KEY.into(), Value::Number(energy));
    serde_json::to_string(&map).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use devices::report::Telemetry;

    #[test]
    fn rendered_payload_is_telemetry_with_the_asked_number_of_values() -> anyhow::Result<()> {
        let t = Template::new("GW1", 2, 100);
        let parsed: Telemetry = serde_json::from_slice(&t.render(1_700_000_000_000, 1.5))?;
        assert_eq!(parsed.ts, 1_700_000_000_000);
        assert_eq!(parsed.devices.len(), 2);
        assert_eq!(parsed.devices[1].sn, "GW1-D1");
        assert_eq!(parsed.devices[0].values.len(), 100);
        assert_eq!(parsed.devices[0].values[ENERGY_KEY], Value::Number(1.5));
        let stored: BTreeMap<String, Value> = serde_json::from_str(&stored_payload(100, 1.5))?;
        assert_eq!(stored, parsed.devices[0].values);
        Ok(())
    }
}
