//! The worker's other items: a gateway's status message and a device's event message, each
//! stored on its own (they are rare beside telemetry).

use store::telemetry::GatewayStatusUpdate;

use super::{Worker, now_ms};
use crate::{
    events,
    ingest::prepare,
    report::{DeviceEvent, GatewayStatus, PAYLOAD_VERSION},
};

impl Worker {
    pub(super) async fn status(
        &mut self,
        gateway_sn: &str,
        s: &GatewayStatus,
    ) -> Result<(), String> {
        if s.v != PAYLOAD_VERSION {
            return Err(format!("unsupported payload version {}", s.v));
        }
        let short = |v: &Option<String>| v.as_ref().map(|s| s.chars().take(64).collect());
        let update = GatewayStatusUpdate {
            online: s.online,
            soft_ver: short(&s.soft_ver),
            hard_ver: short(&s.hard_ver),
            signal: s.signal.filter(|v| (-200..=100).contains(v)),
            comm_type: short(&s.comm_type),
            upload_cycle: s.upload_cycle.filter(|v| (1..=86_400).contains(v)),
        };
        let gateway = self.gateway_id(gateway_sn).await?;
        self.store
            .update_gateway_status(gateway, &update, now_ms())
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "gateway status");
                crate::report::retry("storage failed")
            })?;
        Ok(())
    }

    pub(super) async fn event(
        &mut self,
        gateway_sn: &str,
        e: &DeviceEvent,
        now: i64,
    ) -> Result<(), String> {
        if e.v != PAYLOAD_VERSION {
            return Err(format!("unsupported payload version {}", e.v));
        }
        prepare::check_ts(e.ts, now)?;
        if e.code.is_empty() || e.code.len() > 32 || e.code.chars().any(|c| c.is_control()) {
            return Err("bad event code".into());
        }
        let gateway = self.gateway_id(gateway_sn).await?;
        let storage = |err: store::StoreError| {
            tracing::error!(error = %err, "event");
            crate::report::retry("storage failed")
        };
        let device = self
            .store
            .device_by_sn(&e.sn)
            .await
            .map_err(storage)?
            .filter(|d| d.gateway_id == Some(gateway))
            .ok_or_else(|| format!("unknown device {}", e.sn))?;
        let severity = events::lookup(device.family, &e.code)
            .map(|d| d.severity.key())
            .unwrap_or("warning");
        match e.action.as_str() {
            "open" => {
                self.store
                    .open_event(device.id, device.plant_id, &e.code, severity, e.ts)
                    .await
                    .map_err(storage)?;
            }
            "close" => {
                self.store
                    .close_event(device.id, &e.code, e.ts)
                    .await
                    .map_err(storage)?;
            }
            other => return Err(format!("unknown event action {other:?}")),
        }
        // Word-driven state is re-read from the store on the next report.
        self.open_words.remove(&device.id);
        Ok(())
    }
}
