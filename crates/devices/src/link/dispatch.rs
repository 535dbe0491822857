//! Sending commands to devices through their gateways. The database is the command's record, so
//! any replica can send, receive the reply, time it out or report it.

use domain::ids::CommandId;
use std::{sync::Arc, time::Duration};

use rumqttc::{AsyncClient, QoS};
use store::{
    Store, StoreError,
    commands::{CommandRow, NewCommand},
};

use super::comm_log::{CommLog, Downlink};
use crate::report::{Command, PAYLOAD_VERSION, topic};

/// An upgrade behind a gateway that is offline fails once its device has been silent this long
/// (a gateway that drops and comes straight back keeps its upgrades: they run on the gateway).
pub const UPGRADE_GATEWAY_GONE_AFTER: Duration = Duration::from_secs(10);
/// An upgrade fails when its device reports no progress for this long (devices report about
/// once a second, see docs/device-protocol.md)...
pub const UPGRADE_SILENCE: Duration = Duration::from_secs(60);
/// ...and a gateway's own upgrade after this long (a gateway may reboot to flash).
pub const UPGRADE_SILENCE_GATEWAY: Duration = Duration::from_secs(300);

/// Commands refused while the device has an upgrade in progress.
const REFUSED_WHILE_UPGRADING: [&str; 5] =
    ["upgrade", "power_on", "power_off", "restart", "modbus_raw"];

/// Fails the upgrades whose device stopped answering as of `now`: behind a gateway that is
/// offline (silent for [`UPGRADE_GATEWAY_GONE_AFTER`]), or silent for [`UPGRADE_SILENCE`]
/// ([`UPGRADE_SILENCE_GATEWAY`] for a gateway's own). Without this an upgrade whose gateway
/// went away showed "sending" until its command's 15-minute deadline (issue 13). Answers how
/// many commands it failed; the caller brings their upgrades in step.
pub async fn sweep_upgrades(store: &Store, now: i64) -> Result<u64, StoreError> {
    let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    let n = store
        .fail_stalled_upgrades(&store::upgrades::Stalled {
            now,
            gone_before: now - ms(UPGRADE_GATEWAY_GONE_AFTER),
            silent_before: now - ms(UPGRADE_SILENCE),
            gateway_silent_before: now - ms(UPGRADE_SILENCE_GATEWAY),
            gateway_gone: super::replies::GATEWAY_GONE,
            no_progress: super::replies::NO_PROGRESS,
        })
        .await?;
    if n > 0 {
        metrics::counter!("portal_upgrades_stalled_total").increment(n);
        tracing::info!(n, "upgrades failed: their device stopped answering");
    }
    Ok(n)
}

#[derive(Debug, thiserror::Error)]
pub enum DispatchError {
    #[error("unknown gateway {0}")]
    UnknownGateway(String),
    /// The spec's "device offline (turn on power or check network)".
    #[error("gateway {0} is offline")]
    Offline(String),
    /// The spec's "device is upgrading".
    #[error("device {0} is upgrading")]
    Upgrading(String),
    #[error("command timeout must be between 1 s and 1 day")]
    BadTimeout,
    #[error("could not publish the command: {0}")]
    Publish(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What the commands table keeps of a command's params.
#[derive(Debug, Clone, Copy)]
enum Recorded {
    Params,
    Nothing,
}

/// A command checked by [`Dispatcher::prepare`], to be recorded and then published. Not
/// `Debug`: the payload may carry a secret.
pub struct Prepared {
    gateway_sn: String,
    command: Command,
    recorded_params: String,
    payload: Vec<u8>,
    /// The payload as the communication log keeps it: without the parameters when they are
    /// not recorded either (a new gateway key); `None` when it is `payload` itself.
    logged_payload: Option<Vec<u8>>,
    now: i64,
    deadline: i64,
}

impl Prepared {
    /// The command's row, as the use case records it.
    pub fn record(&self) -> NewCommand<'_> {
        NewCommand {
            correlation_id: &self.command.id,
            gateway_sn: &self.gateway_sn,
            device_sn: &self.command.sn,
            kind: &self.command.kind,
            params: &self.recorded_params,
            now: self.now,
            deadline: self.deadline,
        }
    }
}

#[derive(Clone)]
pub struct Dispatcher {
    store: Store,
    mqtt: AsyncClient,
    /// Where published commands are noted for the communication log (none outside a link).
    comm: Option<Arc<CommLog>>,
    /// Where the link says an upgrade ended (replies, the sweeper).
    ends: super::UpgradeEnds,
}

impl Dispatcher {
    pub fn new(store: Store, mqtt: AsyncClient) -> Dispatcher {
        Dispatcher {
            store,
            mqtt,
            comm: None,
            ends: super::UpgradeEnds::default(),
        }
    }

    /// Shares `ends` with the link's reply handling (see [`Dispatcher::upgrade_ends`]).
    pub(crate) fn with_upgrade_ends(mut self, ends: super::UpgradeEnds) -> Dispatcher {
        self.ends = ends;
        self
    }

    /// Says when an upgrade ended in this process: a device's final reply, or this
    /// dispatcher's sweeper failing a stalled one. The upgrade queue waits on it.
    pub fn upgrade_ends(&self) -> &super::UpgradeEnds {
        &self.ends
    }

    /// Notes every command it publishes in `comm` (the communication log).
    pub(crate) fn with_comm_log(mut self, comm: Arc<CommLog>) -> Dispatcher {
        self.comm = Some(comm);
        self
    }

    /// Sends `kind` with `params` to `device_sn` behind `gateway_sn` (the gateway's own SN for
    /// gateway commands) and answers the command's id. Refused when the gateway is offline.
    pub async fn send(
        &self,
        gateway_sn: &str,
        device_sn: &str,
        kind: &str,
        params: serde_json::Value,
        timeout: Duration,
    ) -> Result<CommandId, DispatchError> {
        let command = self
            .prepare(gateway_sn, device_sn, kind, params, timeout)
            .await?;
        self.record_and_publish(&command).await
    }

    /// [`Dispatcher::send`] for a command whose params carry a secret (a gateway's next key):
    /// they go to the gateway only, and the commands table records `{}` in their place.
    pub async fn send_secret(
        &self,
        gateway_sn: &str,
        device_sn: &str,
        kind: &str,
        params: serde_json::Value,
        timeout: Duration,
    ) -> Result<CommandId, DispatchError> {
        let command = self
            .prepare_recording(
                gateway_sn,
                device_sn,
                kind,
                params,
                Recorded::Nothing,
                timeout,
            )
            .await?;
        self.record_and_publish(&command).await
    }

    /// A command on its own: recorded, then published.
    async fn record_and_publish(&self, command: &Prepared) -> Result<CommandId, DispatchError> {
        let id = self.store.insert_command(&command.record()).await?;
        self.publish(command, id).await?;
        Ok(id)
    }

    /// Checks that `kind` may go to `device_sn` behind `gateway_sn` now (the gateway online,
    /// no upgrade running where one forbids it) and builds the command without recording or
    /// sending it: a use case records it with its own rows in one transaction
    /// ([`Prepared::record`]), then hands it to [`Dispatcher::publish`].
    pub async fn prepare(
        &self,
        gateway_sn: &str,
        device_sn: &str,
        kind: &str,
        params: serde_json::Value,
        timeout: Duration,
    ) -> Result<Prepared, DispatchError> {
        self.prepare_recording(
            gateway_sn,
            device_sn,
            kind,
            params,
            Recorded::Params,
            timeout,
        )
        .await
    }

    async fn prepare_recording(
        &self,
        gateway_sn: &str,
        device_sn: &str,
        kind: &str,
        params: serde_json::Value,
        recorded: Recorded,
        timeout: Duration,
    ) -> Result<Prepared, DispatchError> {
        if timeout < Duration::from_secs(1) || timeout > Duration::from_secs(86_400) {
            return Err(DispatchError::BadTimeout);
        }
        let gateway = self
            .store
            .gateway_by_sn(gateway_sn)
            .await?
            .ok_or_else(|| DispatchError::UnknownGateway(gateway_sn.into()))?;
        if !gateway.online {
            return Err(DispatchError::Offline(gateway_sn.into()));
        }
        let now = super::now_ms();
        if REFUSED_WHILE_UPGRADING.contains(&kind)
            && self
                .store
                .has_open_command(device_sn, "upgrade", now)
                .await?
        {
            return Err(DispatchError::Upgrading(device_sn.into()));
        }
        let timeout_ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        let command = Command {
            v: PAYLOAD_VERSION,
            id: format!("{:032x}", rand::random::<u128>()),
            sn: device_sn.into(),
            kind: kind.into(),
            params,
            timeout_ms,
        };
        let payload =
            serde_json::to_vec(&command).map_err(|e| DispatchError::Publish(e.to_string()))?;
        let (recorded_params, logged_payload) = match recorded {
            Recorded::Params => (command.params.to_string(), None),
            Recorded::Nothing => {
                let redacted = Command {
                    params: serde_json::json!({}),
                    ..command.clone()
                };
                let bytes = serde_json::to_vec(&redacted)
                    .map_err(|e| DispatchError::Publish(e.to_string()))?;
                ("{}".to_string(), Some(bytes))
            }
        };
        Ok(Prepared {
            gateway_sn: gateway_sn.into(),
            recorded_params,
            payload,
            logged_payload,
            now,
            deadline: now.saturating_add(i64::try_from(timeout_ms).unwrap_or(i64::MAX)),
            command,
        })
    }

    /// Publishes a prepared command recorded as `id`. Only after the record is committed: a
    /// reply can never arrive for a command we do not know. A command that cannot be
    /// published is failed in the record.
    pub async fn publish(&self, prepared: &Prepared, id: CommandId) -> Result<(), DispatchError> {
        let Prepared {
            gateway_sn,
            command,
            ..
        } = prepared;
        let cmd_topic = topic(gateway_sn, "cmd");
        if let Err(e) = self
            .mqtt
            .publish(
                cmd_topic.as_str(),
                QoS::AtLeastOnce,
                false,
                prepared.payload.clone(),
            )
            .await
        {
            self.store
                .fail_command(id, "not published", super::now_ms())
                .await?;
            return Err(DispatchError::Publish(e.to_string()));
        }
        if let Some(comm) = &self.comm {
            comm.downlink(&Downlink {
                gateway_sn,
                topic: &cmd_topic,
                payload: prepared
                    .logged_payload
                    .as_deref()
                    .unwrap_or(&prepared.payload),
                command_id: id,
            });
        }
        let kind = command.kind.as_str();
        metrics::counter!("portal_commands_sent_total", "kind" => kind.to_string()).increment(1);
        tracing::info!(
            gateway = gateway_sn.as_str(),
            device = command.sn.as_str(),
            kind,
            %id,
            "command sent"
        );
        Ok(())
    }

    /// The command as recorded now.
    pub async fn get(&self, id: CommandId) -> Result<Option<CommandRow>, StoreError> {
        self.store.command(id).await
    }

    /// Polls the database until the command is final or `timeout` passes, and answers it as it
    /// stands then (`None` for an unknown id). A command past its deadline is timed out here
    /// even if no sweeper has run.
    pub async fn wait(
        &self,
        id: CommandId,
        timeout: Duration,
    ) -> Result<Option<CommandRow>, StoreError> {
        let until = tokio::time::Instant::now() + timeout;
        let mut pause = Duration::from_millis(20);
        loop {
            let Some(row) = self.store.command(id).await? else {
                return Ok(None);
            };
            if row.status().is_final() {
                return Ok(Some(row));
            }
            if row.deadline < super::now_ms() {
                self.store.time_out_commands(super::now_ms()).await?;
                continue;
            }
            if tokio::time::Instant::now() >= until {
                return Ok(Some(row));
            }
            tokio::time::sleep(pause.min(until - tokio::time::Instant::now())).await;
            pause = (pause * 2).min(Duration::from_millis(250));
        }
    }

    /// Every `every`, for as long as the task runs: marks overdue commands timed out, and fails
    /// the upgrades whose device stopped answering (see [`sweep_upgrades`]). Any number of
    /// replicas may run it.
    pub fn spawn_sweeper(&self, every: Duration) -> tokio::task::JoinHandle<()> {
        let store = self.store.clone();
        let ends = self.ends.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                tick.tick().await;
                let timed_out = match store.time_out_commands(super::now_ms()).await {
                    Ok(n) => {
                        if n > 0 {
                            metrics::counter!("portal_commands_timed_out_total").increment(n);
                            tracing::info!(n, "commands timed out");
                        }
                        n
                    }
                    Err(e) => {
                        tracing::warn!(%e, "command sweeper failed");
                        0
                    }
                };
                let stalled = match sweep_upgrades(&store, super::now_ms()).await {
                    Ok(n) => n,
                    Err(e) => {
                        tracing::warn!(%e, "stalled upgrades not swept");
                        0
                    }
                };
                // Upgrades carried by those commands end as failed.
                if timed_out + stalled > 0 {
                    match super::replies::sync_ended_upgrades(&store).await {
                        Ok(0) => {}
                        Ok(_) => ends.ended(),
                        Err(e) => tracing::warn!(%e, "upgrades not brought in step"),
                    }
                }
            }
        })
    }
}
