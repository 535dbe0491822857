//! Configuration: defaults, then an optional TOML file (`--config`), then `PORTAL_*`
//! environment variables. Read once at start into typed values.

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    time::Duration,
};

use anyhow::{Context, bail};
use serde::Deserialize;

/// The log filter unless `PORTAL_LOG` says otherwise. rmqtt writes an `info` line for every
/// connection it opens or closes, which a flood of idle sockets would turn into a flood of log.
pub const DEFAULT_LOG: &str = "info,rmqtt=warn,rmqtt_net=warn";

#[derive(Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub http_addr: String,
    /// Where `/metrics` is served: loopback by default, `off` for nowhere. Never the public
    /// address.
    pub metrics_addr: String,
    pub data_dir: PathBuf,
    pub database_url: Option<String>,
    /// Where uploaded files are kept: `local` (the data directory), `database`, or empty for
    /// the default of the database in use (see [`Config::files`]).
    pub files: String,
    pub admin_user: Option<String>,
    pub admin_password: Option<String>,
    pub web_dir: PathBuf,
    pub access_token_ttl_secs: i64,
    pub refresh_token_ttl_secs: i64,
    pub trust_proxy: bool,
    /// HTTP: a connection that has started a request has this many seconds to send its whole
    /// head (slowloris).
    pub http_header_timeout_secs: i64,
    /// HTTP: a connection waiting for a request (new, or kept alive) with nothing received
    /// for this many seconds is closed.
    pub http_idle_timeout_secs: i64,
    /// HTTP: connections one source address (IPv4, or IPv6 /64) may hold; more are closed at
    /// accept. Behind `trust_proxy` every client has the proxy's address.
    pub http_max_connections_per_address: i64,
    /// HTTP: connections in all (lowered at start to half the open-file limit).
    pub http_max_connections: i64,
    pub branded_hosts: Vec<String>,
    pub app_android_url: Option<String>,
    pub app_ios_url: Option<String>,
    pub map_tile_url: String,
    pub smtp_host: Option<String>,
    pub smtp_port: u16,
    pub smtp_username: String,
    pub smtp_password: String,
    pub smtp_from: String,
    pub smtp_security: String,
    /// Where people reach the web app, for links in e-mails; empty derives it from
    /// `http_addr`.
    pub public_url: String,
    /// At most one alarm e-mail per recipient, plant and kind in this many minutes.
    pub alarm_quiet_minutes: i64,
    /// How often the alarm job looks for alarms and recoveries (seconds).
    pub alarm_interval_secs: i64,
    /// Deliver webhooks to loopback, private and link-local addresses too
    /// (`PORTAL_WEBHOOK_ALLOW_PRIVATE`); off, such addresses are refused (SSRF).
    pub webhook_allow_private: bool,
    /// The VAPID subject push services may reach the operator by (`PORTAL_PUSH_SUBJECT`,
    /// `mailto:` or `https:`); empty: the public URL when it is https, else the mail sender.
    pub push_subject: String,
    /// How often the mail worker sends what is due in the outbox (seconds).
    pub mail_interval_secs: i64,
    /// Seconds between demand-response dispatch passes (`PORTAL_DR_TICK_SECS`).
    pub dr_tick_secs: i64,
    /// Hours after a plant-local day ends before its samples are compacted into blocks
    /// (`PORTAL_HISTORY_GRACE_HOURS`).
    pub history_grace_hours: i64,
    /// Milliseconds a batch of reports from gateways at a calm pace waits for more before it
    /// is written (`PORTAL_INGEST_CALM_WAIT_MS`; `devices::ingest::IngestOptions::calm_wait`).
    pub ingest_calm_wait_ms: i64,
    /// Years compacted samples are kept; 0 keeps them forever (`PORTAL_HISTORY_KEEP_YEARS`).
    pub history_keep_years: i64,
    /// Seconds between looks for days to compact (`PORTAL_HISTORY_INTERVAL_SECS`).
    pub history_interval_secs: i64,
    /// Days a closed alarm case (with its history) is kept after it closed; 0 keeps them
    /// forever (`PORTAL_ALARM_CASES_KEEP_DAYS`).
    pub alarm_cases_keep_days: i64,
    pub log: String,
    /// Run the MQTT broker for devices inside this process (else use `mqtt_url`).
    pub mqtt_embedded: bool,
    /// Where the embedded broker listens.
    pub mqtt_addr: String,
    /// When `mqtt_addr` is taken, listen on the next free port (printed) instead of failing.
    pub mqtt_addr_fallback: bool,
    /// The external broker, `mqtt://host:port`, when `mqtt_embedded` is false.
    pub mqtt_url: Option<String>,
    pub mqtt_username: Option<String>,
    pub mqtt_password: Option<String>,
    /// The portal's MQTT client id; unique and stable per replica (default `portal-{hostname}`).
    pub mqtt_client_id: Option<String>,
    /// Shared-subscription group that spreads device messages over replicas; empty subscribes
    /// without `$share` (brokers that lack shared subscriptions).
    pub mqtt_shared_group: String,
    /// Embedded broker: a connection that has not completed its CONNECT this many seconds
    /// after it was accepted is closed.
    pub mqtt_connect_timeout_secs: i64,
    /// Embedded broker: connections per source address still in their handshake (strict).
    pub mqtt_max_handshakes_per_address: i64,
    /// Embedded broker: connections per source address in all (loose: many gateways can share
    /// one address behind carrier-grade NAT).
    pub mqtt_max_connections_per_address: i64,
    /// Embedded broker: count failed sign-ins per source address (and per address and SN) and
    /// lock them; off behind a TLS proxy, where every gateway has the proxy's address and only
    /// the per-SN count still means something.
    pub mqtt_signin_per_address: bool,
    /// Days of history `serve --demo` writes for its plants on the first start.
    pub demo_history_days: i64,
    /// `serve --demo` gives its plants their faults (docs/simulator.md): a soiled plant, a
    /// shaded string, a silent inverter.
    pub demo_faults: bool,
    /// The longest a simulated firmware upgrade of `serve --demo` takes, in seconds (each takes
    /// between half of it and all of it): real loggers take minutes, the demo 10 to 20 s, and
    /// a browser test of a batch of ten less.
    pub demo_upgrade_secs: i64,
    /// How long a restarted gateway of `serve --demo` stays away before it signs in again, in
    /// seconds: a real logger takes about 30, a browser test of a restart less.
    pub demo_reboot_secs: i64,
    /// Capture the communication log (`PORTAL_COMM_LOG=off` switches it off).
    pub comm_log: bool,
    /// Hours the communication log keeps a message.
    pub comm_log_hours: i64,
    /// Messages the communication log keeps per gateway (its newest).
    pub comm_log_per_gateway: i64,
    /// The grid's emission factor, kg CO2 per kWh, behind the plant figures' "CO2 avoided"
    /// (`PORTAL_CO2_KG_PER_KWH`; 0.4 by default, docs/figures.md).
    pub co2_kg_per_kwh: f64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            http_addr: "127.0.0.1:8080".into(),
            metrics_addr: "127.0.0.1:9464".into(),
            data_dir: PathBuf::from("./data"),
            database_url: None,
            files: String::new(),
            admin_user: None,
            admin_password: None,
            web_dir: PathBuf::from("web/dist"),
            access_token_ttl_secs: 2 * 3600,
            refresh_token_ttl_secs: 30 * 24 * 3600,
            trust_proxy: false,
            http_header_timeout_secs: 20,
            http_idle_timeout_secs: 60,
            http_max_connections_per_address: 256,
            http_max_connections: 8192,
            branded_hosts: Vec::new(),
            app_android_url: None,
            app_ios_url: None,
            map_tile_url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png".into(),
            smtp_host: None,
            smtp_port: 587,
            smtp_username: String::new(),
            smtp_password: String::new(),
            smtp_from: "portal@localhost".into(),
            smtp_security: "starttls".into(),
            public_url: String::new(),
            alarm_quiet_minutes: 60,
            alarm_interval_secs: 30,
            webhook_allow_private: false,
            push_subject: String::new(),
            mail_interval_secs: 10,
            dr_tick_secs: 15,
            history_grace_hours: 2,
            ingest_calm_wait_ms: devices::ingest::DEFAULT_CALM_WAIT.as_millis() as i64,
            history_keep_years: 0,
            history_interval_secs: 600,
            alarm_cases_keep_days: 365,
            log: DEFAULT_LOG.into(),
            mqtt_embedded: true,
            mqtt_addr: "127.0.0.1:1883".into(),
            mqtt_addr_fallback: true,
            mqtt_url: None,
            mqtt_username: None,
            mqtt_password: None,
            mqtt_client_id: None,
            mqtt_shared_group: "portal".into(),
            mqtt_connect_timeout_secs: devices::link::CONNECT_TIMEOUT.as_secs() as i64,
            mqtt_max_handshakes_per_address: i64::from(
                devices::link::gate::Limits::default().handshakes_per_address,
            ),
            mqtt_max_connections_per_address: i64::from(
                devices::link::gate::Limits::default().connections_per_address,
            ),
            mqtt_signin_per_address: true,
            demo_history_days: 364,
            demo_faults: true,
            demo_upgrade_secs: 20,
            demo_reboot_secs: 30,
            comm_log: true,
            comm_log_hours: 72,
            comm_log_per_gateway: 1000,
            co2_kg_per_kwh: domain::kpi::DEFAULT_CO2_KG_PER_KWH,
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("http_addr", &self.http_addr)
            .field("metrics_addr", &self.metrics_addr)
            .field("data_dir", &self.data_dir)
            .field(
                "database_url",
                &self.database_url.as_deref().map(redact_url),
            )
            .field("files", &self.files)
            .field("admin_user", &self.admin_user)
            .field(
                "admin_password",
                &self.admin_password.as_ref().map(|_| "<redacted>"),
            )
            .field("web_dir", &self.web_dir)
            .field("branded_hosts", &self.branded_hosts)
            .field("smtp_host", &self.smtp_host)
            .field("smtp_password", &"<redacted>")
            .field("mqtt_embedded", &self.mqtt_embedded)
            .field("mqtt_addr", &self.mqtt_addr)
            .field("mqtt_url", &self.mqtt_url.as_deref().map(redact_url))
            .field("mqtt_username", &self.mqtt_username)
            .field(
                "mqtt_password",
                &self.mqtt_password.as_ref().map(|_| "<redacted>"),
            )
            .finish_non_exhaustive()
    }
}

/// Hides the password part of a database URL.
fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://<redacted>{}", &url[..scheme], &url[at..])
        }
        _ => url.to_string(),
    }
}

/// `mqtt://host[:port]` (or `tcp://`) into host and port (1883 by default).
fn parse_mqtt_url(url: &str) -> anyhow::Result<(String, u16)> {
    let rest = url
        .strip_prefix("mqtt://")
        .or_else(|| url.strip_prefix("tcp://"))
        .with_context(|| {
            format!("mqtt_url {url:?}: expected mqtt://host:port (TLS: put a TLS proxy in front)")
        })?;
    let rest = rest.trim_end_matches('/');
    if rest.contains(['@', '/']) {
        bail!("mqtt_url: give credentials in PORTAL_MQTT_USERNAME/PASSWORD, not in the URL");
    }
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || h.starts_with('[') => (
            h,
            p.parse::<u16>()
                .with_context(|| format!("mqtt_url {url:?}: bad port"))?,
        ),
        _ => (rest, 1883),
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        bail!("mqtt_url {url:?}: no host");
    }
    Ok((host.to_string(), port))
}

/// This machine's name, for a client id that stays the same across restarts.
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "local".into())
}

impl Config {
    pub fn load(file: Option<&Path>) -> anyhow::Result<Config> {
        let mut config = match file {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                toml::from_str(&text).with_context(|| format!("parsing {}", path.display()))?
            }
            None => Config::default(),
        };
        config.apply_env(|key| std::env::var(key).ok())?;
        config.check()?;
        Ok(config)
    }

    /// Overrides from `PORTAL_<FIELD>` variables; empty values are ignored.
    pub fn apply_env(&mut self, var: impl Fn(&str) -> Option<String>) -> anyhow::Result<()> {
        let get = |name: &str| var(&format!("PORTAL_{name}")).filter(|v| !v.trim().is_empty());
        let num = |name: &str| -> anyhow::Result<Option<i64>> {
            get(name)
                .map(|v| v.trim().parse().with_context(|| format!("PORTAL_{name}")))
                .transpose()
        };
        let flag = |name: &str| get(name).map(|v| matches!(v.trim(), "1" | "true" | "yes" | "on"));
        if let Some(v) = get("HTTP_ADDR") {
            self.http_addr = v;
        }
        if let Some(v) = get("METRICS_ADDR") {
            self.metrics_addr = v.trim().to_string();
        }
        if let Some(v) = get("DATA_DIR") {
            self.data_dir = v.into();
        }
        if let Some(v) = get("DATABASE_URL") {
            self.database_url = Some(v);
        }
        if let Some(v) = get("FILES") {
            self.files = v;
        }
        if let Some(v) = get("ADMIN_USER") {
            self.admin_user = Some(v);
        }
        if let Some(v) = get("ADMIN_PASSWORD") {
            self.admin_password = Some(v);
        }
        if let Some(v) = get("WEB_DIR") {
            self.web_dir = v.into();
        }
        if let Some(v) = num("ACCESS_TOKEN_TTL_SECS")? {
            self.access_token_ttl_secs = v;
        }
        if let Some(v) = num("REFRESH_TOKEN_TTL_SECS")? {
            self.refresh_token_ttl_secs = v;
        }
        if let Some(v) = flag("TRUST_PROXY") {
            self.trust_proxy = v;
        }
        if let Some(v) = num("HTTP_HEADER_TIMEOUT_SECS")? {
            self.http_header_timeout_secs = v;
        }
        if let Some(v) = num("HTTP_IDLE_TIMEOUT_SECS")? {
            self.http_idle_timeout_secs = v;
        }
        if let Some(v) = num("HTTP_MAX_CONNECTIONS_PER_ADDRESS")? {
            self.http_max_connections_per_address = v;
        }
        if let Some(v) = num("HTTP_MAX_CONNECTIONS")? {
            self.http_max_connections = v;
        }
        if let Some(v) = get("BRANDED_HOSTS") {
            self.branded_hosts = v
                .split(',')
                .map(|h| h.trim().to_lowercase())
                .filter(|h| !h.is_empty())
                .collect();
        }
        if let Some(v) = get("APP_ANDROID_URL") {
            self.app_android_url = Some(v);
        }
        if let Some(v) = get("APP_IOS_URL") {
            self.app_ios_url = Some(v);
        }
        if let Some(v) = get("MAP_TILE_URL") {
            self.map_tile_url = v;
        }
        if let Some(v) = get("SMTP_HOST") {
            self.smtp_host = Some(v);
        }
        if let Some(v) = num("SMTP_PORT")? {
            self.smtp_port = u16::try_from(v).context("PORTAL_SMTP_PORT")?;
        }
        if let Some(v) = get("SMTP_USERNAME") {
            self.smtp_username = v;
        }
        if let Some(v) = get("SMTP_PASSWORD") {
            self.smtp_password = v;
        }
        if let Some(v) = get("SMTP_FROM") {
            self.smtp_from = v;
        }
        if let Some(v) = get("SMTP_SECURITY") {
            self.smtp_security = v;
        }
        if let Some(v) = get("CO2_KG_PER_KWH") {
            self.co2_kg_per_kwh = v
                .trim()
                .parse()
                .context("PORTAL_CO2_KG_PER_KWH: a number of kg per kWh")?;
        }
        if let Some(v) = get("PUBLIC_URL") {
            self.public_url = v.trim().to_string();
        }
        if let Some(v) = num("ALARM_QUIET_MINUTES")? {
            self.alarm_quiet_minutes = v;
        }
        if let Some(v) = num("ALARM_INTERVAL_SECS")? {
            self.alarm_interval_secs = v;
        }
        if let Some(v) = flag("WEBHOOK_ALLOW_PRIVATE") {
            self.webhook_allow_private = v;
        }
        if let Some(v) = get("PUSH_SUBJECT") {
            let v = v.trim().to_string();
            if !v.is_empty() && !v.starts_with("mailto:") && !v.starts_with("https://") {
                bail!("PORTAL_PUSH_SUBJECT must start with mailto: or https://");
            }
            self.push_subject = v;
        }
        if let Some(v) = num("MAIL_INTERVAL_SECS")? {
            self.mail_interval_secs = v;
        }
        if let Some(v) = num("DR_TICK_SECS")? {
            self.dr_tick_secs = v;
        }
        if let Some(v) = num("INGEST_CALM_WAIT_MS")? {
            self.ingest_calm_wait_ms = v;
        }
        if let Some(v) = num("HISTORY_GRACE_HOURS")? {
            self.history_grace_hours = v;
        }
        if let Some(v) = num("HISTORY_KEEP_YEARS")? {
            self.history_keep_years = v;
        }
        if let Some(v) = num("HISTORY_INTERVAL_SECS")? {
            self.history_interval_secs = v;
        }
        if let Some(v) = num("ALARM_CASES_KEEP_DAYS")? {
            self.alarm_cases_keep_days = v;
        }
        if let Some(v) = get("LOG") {
            self.log = v;
        }
        if let Some(v) = flag("MQTT_EMBEDDED") {
            self.mqtt_embedded = v;
        }
        if let Some(v) = get("MQTT_ADDR") {
            self.mqtt_addr = v;
        }
        if let Some(v) = flag("MQTT_ADDR_FALLBACK") {
            self.mqtt_addr_fallback = v;
        }
        if let Some(v) = get("MQTT_URL") {
            self.mqtt_url = Some(v);
        }
        if let Some(v) = get("MQTT_USERNAME") {
            self.mqtt_username = Some(v);
        }
        if let Some(v) = get("MQTT_PASSWORD") {
            self.mqtt_password = Some(v);
        }
        if let Some(v) = get("MQTT_CLIENT_ID") {
            self.mqtt_client_id = Some(v);
        }
        // An empty group is meaningful (no shared subscriptions), so it is read even when empty.
        if let Some(v) = var("PORTAL_MQTT_SHARED_GROUP") {
            self.mqtt_shared_group = v.trim().to_string();
        }
        if let Some(v) = num("MQTT_CONNECT_TIMEOUT_SECS")? {
            self.mqtt_connect_timeout_secs = v;
        }
        if let Some(v) = num("MQTT_MAX_HANDSHAKES_PER_ADDRESS")? {
            self.mqtt_max_handshakes_per_address = v;
        }
        if let Some(v) = num("MQTT_MAX_CONNECTIONS_PER_ADDRESS")? {
            self.mqtt_max_connections_per_address = v;
        }
        if let Some(v) = flag("MQTT_SIGNIN_PER_ADDRESS") {
            self.mqtt_signin_per_address = v;
        }
        if let Some(v) = num("DEMO_HISTORY_DAYS")? {
            self.demo_history_days = v;
        }
        if let Some(v) = flag("DEMO_FAULTS") {
            self.demo_faults = v;
        }
        if let Some(v) = num("DEMO_UPGRADE_SECS")? {
            self.demo_upgrade_secs = v;
        }
        if let Some(v) = num("DEMO_REBOOT_SECS")? {
            self.demo_reboot_secs = v;
        }
        if let Some(v) = flag("COMM_LOG") {
            self.comm_log = v;
        }
        if let Some(v) = num("COMM_LOG_HOURS")? {
            self.comm_log_hours = v;
        }
        if let Some(v) = num("COMM_LOG_PER_GATEWAY")? {
            self.comm_log_per_gateway = v;
        }
        Ok(())
    }

    fn check(&self) -> anyhow::Result<()> {
        self.http_addr
            .parse::<SocketAddr>()
            .with_context(|| format!("http_addr {:?} is not host:port", self.http_addr))?;
        self.metrics()?;
        self.files()?;
        self.http()?;
        if self.branded_hosts.len() > 5 {
            bail!(
                "at most five branded hostnames are supported, got {}",
                self.branded_hosts.len()
            );
        }
        if !(0..=3660).contains(&self.demo_history_days) {
            bail!("demo_history_days must be between 0 and 3660");
        }
        if !(2..=3600).contains(&self.demo_upgrade_secs) {
            bail!("demo_upgrade_secs must be between 2 and 3600");
        }
        if !(1..=600).contains(&self.demo_reboot_secs) {
            bail!("demo_reboot_secs must be between 1 and 600");
        }
        if self.access_token_ttl_secs <= 0 || self.refresh_token_ttl_secs <= 0 {
            bail!("token lifetimes must be positive");
        }
        if !["starttls", "tls", "none"].contains(&self.smtp_security.as_str()) {
            bail!("smtp_security must be starttls, tls or none");
        }
        let url = self.public_url.as_str();
        if !(url.is_empty() || url.starts_with("http://") || url.starts_with("https://")) {
            bail!("public_url must start with http:// or https://");
        }
        if !(0..=7 * 24 * 60).contains(&self.alarm_quiet_minutes) {
            bail!("alarm_quiet_minutes must be between 0 and 10080 (a week)");
        }
        if !(1..=3600).contains(&self.alarm_interval_secs)
            || !(1..=3600).contains(&self.mail_interval_secs)
        {
            bail!("alarm_interval_secs and mail_interval_secs must be between 1 and 3600");
        }
        if !(1..=3600).contains(&self.dr_tick_secs) {
            bail!("dr_tick_secs must be between 1 and 3600");
        }
        if !(0..=1000).contains(&self.ingest_calm_wait_ms) {
            bail!("ingest_calm_wait_ms must be between 0 (no wait) and 1000");
        }
        if !(0..=168).contains(&self.history_grace_hours) {
            bail!("history_grace_hours must be between 0 and 168 (a week)");
        }
        if !(0..=100).contains(&self.history_keep_years) {
            bail!("history_keep_years must be between 0 (keep forever) and 100");
        }
        if !(10..=86_400).contains(&self.history_interval_secs) {
            bail!("history_interval_secs must be between 10 and 86400");
        }
        if !(0..=36_600).contains(&self.alarm_cases_keep_days) {
            bail!(
                "alarm_cases_keep_days (PORTAL_ALARM_CASES_KEEP_DAYS) must be between 0 (keep forever) and 36600"
            );
        }
        if !(0.0..=5.0).contains(&self.co2_kg_per_kwh) {
            bail!("co2_kg_per_kwh must be between 0 and 5 (kg CO2 per kWh)");
        }
        if self.mqtt_embedded {
            self.mqtt_addr.parse::<SocketAddr>().with_context(|| {
                format!(
                    "mqtt_addr (PORTAL_MQTT_ADDR) {:?} is not host:port",
                    self.mqtt_addr
                )
            })?;
        } else {
            let url = self.mqtt_url.as_deref().context(
                "mqtt_embedded is false: set mqtt_url (PORTAL_MQTT_URL=mqtt://host:port)",
            )?;
            parse_mqtt_url(url)?;
        }
        if self.mqtt_shared_group.contains(['/', '+', '#']) {
            bail!("mqtt_shared_group must be one topic level without wildcards");
        }
        self.mqtt_limits()?;
        if !(1..=24 * 366).contains(&self.comm_log_hours) {
            bail!("comm_log_hours (PORTAL_COMM_LOG_HOURS) must be between 1 and 8784");
        }
        if !(1..=1_000_000).contains(&self.comm_log_per_gateway) {
            bail!(
                "comm_log_per_gateway (PORTAL_COMM_LOG_PER_GATEWAY) must be between 1 and 1000000"
            );
        }
        Ok(())
    }

    /// The communication log's settings.
    pub fn comm_log(&self) -> devices::link::CommLogConfig {
        devices::link::CommLogConfig {
            enabled: self.comm_log,
            retention: std::time::Duration::from_secs(self.comm_log_hours.unsigned_abs() * 3600),
            per_gateway: self.comm_log_per_gateway,
            ..devices::link::CommLogConfig::default()
        }
    }

    /// Where to serve `/metrics`; `None` when switched off (`off`).
    pub fn metrics(&self) -> anyhow::Result<Option<SocketAddr>> {
        if self.metrics_addr.eq_ignore_ascii_case("off") {
            return Ok(None);
        }
        let addr = self.metrics_addr.parse::<SocketAddr>().with_context(|| {
            format!(
                "metrics_addr (PORTAL_METRICS_ADDR) {:?} is not host:port or off",
                self.metrics_addr
            )
        })?;
        Ok(Some(addr))
    }

    /// The database URL: the configured one, or a SQLite file in the data directory.
    pub fn database_url(&self) -> String {
        self.database_url
            .clone()
            .unwrap_or_else(|| format!("sqlite://{}", self.data_dir.join("portal.db").display()))
    }

    /// Where uploaded files are kept. By default in the database on PostgreSQL, the deployment
    /// that runs replicas (each with a data directory of its own), and under the data directory
    /// on SQLite, where one process serves everything (docs/decisions.md).
    pub fn files(&self) -> anyhow::Result<api::FilesBackend> {
        match self.files.trim().to_ascii_lowercase().as_str() {
            "local" => Ok(api::FilesBackend::Local),
            "database" => Ok(api::FilesBackend::Database),
            "" if self.database_url().starts_with("postgres") => Ok(api::FilesBackend::Database),
            "" => Ok(api::FilesBackend::Local),
            other => bail!("files (PORTAL_FILES) {other:?}: expected local or database"),
        }
    }

    /// The HTTP server's timeouts and connection bounds, checked (before the open-file limit
    /// lowers them, [`crate::http::Limits::within`]).
    pub fn http(&self) -> anyhow::Result<crate::http::Limits> {
        let secs = |v: i64, max: i64, name: &str| {
            if !(1..=max).contains(&v) {
                bail!("{name} must be between 1 and {max}");
            }
            Ok(Duration::from_secs(v.unsigned_abs()))
        };
        let count = |v: i64, name: &str| {
            u32::try_from(v)
                .ok()
                .filter(|v| (1..=1_000_000).contains(v))
                .with_context(|| format!("{name} must be between 1 and 1000000"))
        };
        let limits = crate::http::Limits {
            timeouts: crate::http::Timeouts {
                header: secs(
                    self.http_header_timeout_secs,
                    300,
                    "http_header_timeout_secs (PORTAL_HTTP_HEADER_TIMEOUT_SECS)",
                )?,
                idle: secs(
                    self.http_idle_timeout_secs,
                    3600,
                    "http_idle_timeout_secs (PORTAL_HTTP_IDLE_TIMEOUT_SECS)",
                )?,
            },
            per_address: count(
                self.http_max_connections_per_address,
                "http_max_connections_per_address (PORTAL_HTTP_MAX_CONNECTIONS_PER_ADDRESS)",
            )?,
            total: count(
                self.http_max_connections,
                "http_max_connections (PORTAL_HTTP_MAX_CONNECTIONS)",
            )?,
        };
        if limits.per_address > limits.total {
            bail!("http_max_connections_per_address must be at most http_max_connections");
        }
        Ok(limits)
    }

    /// The embedded broker's CONNECT deadline and per-address bounds, checked.
    fn mqtt_limits(&self) -> anyhow::Result<(std::time::Duration, devices::link::gate::Limits)> {
        if !(1..=120).contains(&self.mqtt_connect_timeout_secs) {
            bail!("mqtt_connect_timeout_secs must be between 1 and 120");
        }
        let bound = |v: i64, name: &str| {
            u32::try_from(v)
                .ok()
                .filter(|&v| v >= 1)
                .with_context(|| format!("{name} must be between 1 and {}", u32::MAX))
        };
        let limits = devices::link::gate::Limits {
            handshakes_per_address: bound(
                self.mqtt_max_handshakes_per_address,
                "mqtt_max_handshakes_per_address",
            )?,
            connections_per_address: bound(
                self.mqtt_max_connections_per_address,
                "mqtt_max_connections_per_address",
            )?,
        };
        if limits.connections_per_address < limits.handshakes_per_address {
            bail!(
                "mqtt_max_connections_per_address must be at least mqtt_max_handshakes_per_address"
            );
        }
        let timeout = std::time::Duration::from_secs(self.mqtt_connect_timeout_secs.unsigned_abs());
        Ok((timeout, limits))
    }

    /// The device link's settings: the embedded broker, or the external one of `mqtt_url`.
    pub fn link(&self) -> anyhow::Result<devices::link::LinkConfig> {
        use devices::link::{BrokerChoice, BrokerConfig, ClientConfig};
        let client_id = self
            .mqtt_client_id
            .clone()
            .unwrap_or_else(|| format!("portal-{}", hostname()));
        let (broker, mut client) = if self.mqtt_embedded {
            let addr: SocketAddr = self.mqtt_addr.parse().context("PORTAL_MQTT_ADDR")?;
            let mut broker = BrokerConfig::new(addr);
            broker.fallback = self.mqtt_addr_fallback;
            (broker.connect_timeout, broker.limits) = self.mqtt_limits()?;
            broker.signin.per_address = self.mqtt_signin_per_address;
            // Host, port and credentials are the embedded broker's, filled in at start.
            let client = ClientConfig::new("127.0.0.1", addr.port(), client_id);
            (BrokerChoice::Embedded(broker), client)
        } else {
            let url = self.mqtt_url.as_deref().context("PORTAL_MQTT_URL")?;
            let (host, port) = parse_mqtt_url(url)?;
            let mut client = ClientConfig::new(host, port, client_id);
            client.username = self.mqtt_username.clone();
            client.password = self.mqtt_password.clone();
            (BrokerChoice::External, client)
        };
        client.shared_group = Some(self.mqtt_shared_group.clone()).filter(|g| !g.is_empty());
        Ok(devices::link::LinkConfig {
            broker,
            client,
            sweep_every: std::time::Duration::from_secs(5),
            comm_log: self.comm_log(),
        })
    }

    /// Where people reach the web app: `public_url`, else `http://` and the HTTP address
    /// (`localhost` for an address that listens on every interface).
    pub fn public_url(&self) -> String {
        if !self.public_url.is_empty() {
            return self.public_url.trim_end_matches('/').to_string();
        }
        match self.http_addr.parse::<SocketAddr>() {
            Ok(a) if a.ip().is_unspecified() => format!("http://localhost:{}", a.port()),
            Ok(a) => format!("http://{a}"),
            Err(_) => format!("http://{}", self.http_addr),
        }
    }

    /// The alarm job's settings.
    pub fn alarms(&self) -> jobs::alarms::AlarmSettings {
        jobs::alarms::AlarmSettings {
            quiet_ms: self.alarm_quiet_minutes * 60_000,
            public_url: self.public_url(),
        }
    }

    /// How webhook deliveries are sent.
    pub fn webhooks(&self) -> service::webhooks::DeliverySettings {
        service::webhooks::DeliverySettings {
            allow_private: self.webhook_allow_private,
            timeout: None,
        }
    }

    /// How Web Push messages are sent: private addresses as for webhooks; the VAPID subject
    /// as set, else the public URL when it is https, else `mailto:` the mail sender.
    pub fn push(&self) -> service::push::PushSettings {
        let public = self.public_url();
        let subject = if !self.push_subject.is_empty() {
            self.push_subject.clone()
        } else if public.starts_with("https://") {
            public
        } else {
            let from = self.smtp_from.trim();
            let address = match (from.find('<'), from.rfind('>')) {
                (Some(a), Some(b)) if a < b => &from[a + 1..b],
                _ => from,
            };
            format!("mailto:{}", address.trim())
        };
        service::push::PushSettings {
            allow_private: self.webhook_allow_private,
            timeout: None,
            subject,
        }
    }

    /// Compaction and retention of sample history.
    pub fn history(&self) -> devices::history::HistoryOptions {
        const YEAR_SECS: u64 = 31_557_600; // 365.25 days
        devices::history::HistoryOptions {
            grace: Duration::from_secs(self.history_grace_hours.unsigned_abs() * 3600),
            keep: (self.history_keep_years > 0)
                .then(|| Duration::from_secs(self.history_keep_years.unsigned_abs() * YEAR_SECS)),
            every: Duration::from_secs(self.history_interval_secs.unsigned_abs()),
        }
    }

    /// What housekeeping keeps.
    pub fn keep(&self) -> jobs::housekeeping::Keep {
        jobs::housekeeping::Keep {
            closed_cases: (self.alarm_cases_keep_days > 0).then(|| {
                Duration::from_secs(self.alarm_cases_keep_days.unsigned_abs() * 24 * 3600)
            }),
        }
    }

    pub fn api(&self) -> api::ApiConfig {
        let mut c = api::ApiConfig::new(self.data_dir.clone());
        // Checked at start (`check`); the fallback is never reached there.
        c.files = self.files().unwrap_or_default();
        c.web_dir = Some(self.web_dir.clone());
        c.access_token_ttl_secs = self.access_token_ttl_secs;
        c.refresh_token_ttl_secs = self.refresh_token_ttl_secs;
        c.trust_proxy = self.trust_proxy;
        c.branded_hosts = self.branded_hosts.clone();
        c.app_android_url = self.app_android_url.clone();
        c.app_ios_url = self.app_ios_url.clone();
        c.map_tile_url = self.map_tile_url.clone();
        // Only a URL someone set: the fallback (the HTTP address) is rarely reachable by a VTN.
        c.public_url = (!self.public_url.is_empty())
            .then(|| self.public_url.trim_end_matches('/').to_string());
        c.webhooks = self.webhooks();
        c.push = self.push();
        c.figures = service::figures::FiguresConfig {
            co2_kg_per_kwh: self.co2_kg_per_kwh,
        };
        c.smtp = self
            .smtp_host
            .clone()
            .map(|host| service::mailer::SmtpConfig {
                host,
                port: self.smtp_port,
                username: self.smtp_username.clone(),
                password: self.smtp_password.clone(),
                from: self.smtp_from.clone(),
                security: self.smtp_security.clone(),
            });
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_overrides_the_file_and_defaults() {
        let mut c: Config =
            toml::from_str("http_addr = \"0.0.0.0:9000\"\nlog = \"debug\"").unwrap_or_default();
        assert_eq!(c.http_addr, "0.0.0.0:9000");
        c.apply_env(|k| match k {
            "PORTAL_HTTP_ADDR" => Some("127.0.0.1:9100".into()),
            "PORTAL_BRANDED_HOSTS" => Some("Brand.example.com, other.example.com".into()),
            "PORTAL_LOG" => Some(String::new()),
            _ => None,
        })
        .unwrap_or_default();
        assert_eq!(c.http_addr, "127.0.0.1:9100");
        assert_eq!(
            c.branded_hosts,
            vec!["brand.example.com", "other.example.com"]
        );
        assert_eq!(c.log, "debug", "empty variables are ignored");
        assert!(c.check().is_ok());
    }

    #[test]
    fn metrics_are_served_on_loopback_unless_moved_or_switched_off() {
        let c = Config::default();
        let addr = c.metrics().unwrap().unwrap();
        assert!(addr.ip().is_loopback());
        assert_ne!(addr.to_string(), c.http_addr);
        let mut c = Config::default();
        c.apply_env(|k| (k == "PORTAL_METRICS_ADDR").then(|| "off".into()))
            .unwrap();
        assert_eq!(c.metrics().unwrap(), None);
        c.apply_env(|k| (k == "PORTAL_METRICS_ADDR").then(|| "10.0.0.5:9100".into()))
            .unwrap();
        assert_eq!(c.metrics().unwrap().unwrap().port(), 9100);
        c.metrics_addr = "public".into();
        assert!(c.check().is_err());
    }

    #[test]
    fn the_co2_factor_is_0_4_unless_the_operator_sets_the_grids() {
        let mut c = Config::default();
        assert_eq!(c.api().figures.co2_kg_per_kwh, 0.4);
        c.apply_env(|k| (k == "PORTAL_CO2_KG_PER_KWH").then(|| "0.25".into()))
            .unwrap();
        assert_eq!(c.api().figures.co2_kg_per_kwh, 0.25);
        assert!(c.check().is_ok());
        assert!(
            c.apply_env(|k| (k == "PORTAL_CO2_KG_PER_KWH").then(|| "lots".into()))
                .is_err()
        );
        c.co2_kg_per_kwh = -1.0;
        assert!(c.check().is_err());
    }

    #[test]
    fn database_defaults_to_sqlite_in_the_data_dir() {
        let c = Config {
            data_dir: "/var/lib/portal".into(),
            ..Config::default()
        };
        assert_eq!(c.database_url(), "sqlite:///var/lib/portal/portal.db");
    }

    #[test]
    fn files_live_in_the_database_on_postgresql_and_in_the_data_dir_on_sqlite() {
        let mut c = Config::default();
        assert_eq!(c.files().unwrap(), api::FilesBackend::Local);
        c.database_url = Some("postgres://db/portal".into());
        assert_eq!(c.files().unwrap(), api::FilesBackend::Database);
        assert_eq!(c.api().files, api::FilesBackend::Database);
        c.apply_env(|k| (k == "PORTAL_FILES").then(|| "Local".into()))
            .unwrap();
        assert_eq!(c.files().unwrap(), api::FilesBackend::Local);
        let mut c = Config::default();
        c.apply_env(|k| (k == "PORTAL_FILES").then(|| "database".into()))
            .unwrap();
        assert_eq!(c.files().unwrap(), api::FilesBackend::Database);
        c.files = "s3".into();
        assert!(c.check().is_err());
    }

    #[test]
    fn bad_values_are_reported_not_ignored() {
        let mut c = Config::default();
        assert!(
            c.apply_env(|k| (k == "PORTAL_SMTP_PORT").then(|| "http".into()))
                .is_err()
        );
        let c = Config {
            http_addr: "nonsense".into(),
            ..Config::default()
        };
        assert!(c.check().is_err());
        assert!(toml::from_str::<Config>("no_such_key = 1").is_err());
    }

    #[test]
    fn demo_history_is_a_year_unless_configured_within_ten_years() {
        assert_eq!(Config::default().demo_history_days, 364);
        let mut c = Config::default();
        c.apply_env(|k| (k == "PORTAL_DEMO_HISTORY_DAYS").then(|| "40".into()))
            .unwrap();
        assert_eq!(c.demo_history_days, 40);
        assert!(c.check().is_ok());
        c.demo_history_days = 4000;
        assert!(c.check().is_err());
    }

    #[test]
    fn a_demo_gateway_reboots_in_half_a_minute_unless_configured_up_to_ten() {
        assert_eq!(Config::default().demo_reboot_secs, 30);
        let mut c = Config::default();
        c.apply_env(|k| (k == "PORTAL_DEMO_REBOOT_SECS").then(|| "5".into()))
            .unwrap();
        assert_eq!(c.demo_reboot_secs, 5);
        assert!(c.check().is_ok());
        c.demo_reboot_secs = 0;
        assert!(c.check().is_err());
        c.demo_reboot_secs = 601;
        assert!(c.check().is_err());
    }

    #[test]
    fn calm_reports_wait_20_ms_for_company_unless_configured_up_to_a_second() {
        assert_eq!(Config::default().ingest_calm_wait_ms, 20);
        let mut c = Config::default();
        c.apply_env(|k| (k == "PORTAL_INGEST_CALM_WAIT_MS").then(|| "0".into()))
            .unwrap();
        assert_eq!(c.ingest_calm_wait_ms, 0);
        assert!(c.check().is_ok());
        c.ingest_calm_wait_ms = -1;
        assert!(c.check().is_err());
        c.ingest_calm_wait_ms = 1001;
        assert!(c.check().is_err());
    }

    #[test]
    fn the_embedded_broker_is_the_default_and_an_external_one_needs_a_url() {
        let c = Config::default();
        assert!(c.check().is_ok());
        let link = c.link().unwrap();
        assert!(
            matches!(link.broker, devices::link::BrokerChoice::Embedded(ref b)
            if b.addr.port() == 1883 && b.fallback)
        );
        assert_eq!(link.client.shared_group.as_deref(), Some("portal"));

        let mut c = Config::default();
        c.apply_env(|k| match k {
            "PORTAL_MQTT_EMBEDDED" => Some("false".into()),
            "PORTAL_MQTT_URL" => Some("mqtt://broker.example:1884".into()),
            "PORTAL_MQTT_USERNAME" => Some("portal".into()),
            "PORTAL_MQTT_PASSWORD" => Some("pw".into()),
            "PORTAL_MQTT_SHARED_GROUP" => Some(String::new()),
            _ => None,
        })
        .unwrap();
        assert!(c.check().is_ok());
        let link = c.link().unwrap();
        assert!(matches!(link.broker, devices::link::BrokerChoice::External));
        assert_eq!(
            (link.client.host.as_str(), link.client.port),
            ("broker.example", 1884)
        );
        assert_eq!(link.client.username.as_deref(), Some("portal"));
        assert_eq!(link.client.shared_group, None);

        c.mqtt_url = None;
        assert!(c.check().is_err(), "external without a URL");
        c.mqtt_url = Some("mqtts://x".into());
        assert!(c.check().is_err());
        assert_eq!(parse_mqtt_url("mqtt://h").unwrap(), ("h".into(), 1883));
        assert_eq!(
            parse_mqtt_url("tcp://[::1]:1999").unwrap(),
            ("::1".into(), 1999)
        );
        assert!(parse_mqtt_url("mqtt://u:p@h:1").is_err());
    }

    #[test]
    fn the_embedded_brokers_connect_deadline_and_per_address_bounds_are_settings() {
        let link = Config::default().link().unwrap();
        let devices::link::BrokerChoice::Embedded(b) = link.broker else {
            panic!("embedded by default");
        };
        assert_eq!(b.connect_timeout, std::time::Duration::from_secs(5));
        assert_eq!(
            (
                b.limits.handshakes_per_address,
                b.limits.connections_per_address
            ),
            (64, 5000)
        );

        let mut c = Config::default();
        c.apply_env(|k| match k {
            "PORTAL_MQTT_CONNECT_TIMEOUT_SECS" => Some("10".into()),
            "PORTAL_MQTT_MAX_HANDSHAKES_PER_ADDRESS" => Some("16".into()),
            "PORTAL_MQTT_MAX_CONNECTIONS_PER_ADDRESS" => Some("20000".into()),
            _ => None,
        })
        .unwrap();
        assert!(c.check().is_ok());
        let devices::link::BrokerChoice::Embedded(b) = c.link().unwrap().broker else {
            panic!("embedded");
        };
        assert_eq!(b.connect_timeout, std::time::Duration::from_secs(10));
        assert_eq!(
            (
                b.limits.handshakes_per_address,
                b.limits.connections_per_address
            ),
            (16, 20000)
        );

        for (key, value) in [
            ("PORTAL_MQTT_CONNECT_TIMEOUT_SECS", "0"),
            ("PORTAL_MQTT_CONNECT_TIMEOUT_SECS", "600"),
            ("PORTAL_MQTT_MAX_HANDSHAKES_PER_ADDRESS", "0"),
            ("PORTAL_MQTT_MAX_CONNECTIONS_PER_ADDRESS", "-1"),
            ("PORTAL_MQTT_MAX_CONNECTIONS_PER_ADDRESS", "10"),
        ] {
            let mut c = Config::default();
            c.apply_env(|k| (k == key).then(|| value.into())).unwrap();
            assert!(c.check().is_err(), "{key}={value}");
        }
    }

    #[test]
    fn http_timeouts_and_connection_bounds_are_settings_within_ranges() {
        let limits = Config::default().http().unwrap();
        assert_eq!(
            (limits.timeouts.header, limits.timeouts.idle),
            (Duration::from_secs(20), Duration::from_secs(60))
        );
        assert_eq!((limits.per_address, limits.total), (256, 8192));

        let mut c = Config::default();
        c.apply_env(|k| match k {
            "PORTAL_HTTP_HEADER_TIMEOUT_SECS" => Some("5".into()),
            "PORTAL_HTTP_IDLE_TIMEOUT_SECS" => Some("120".into()),
            "PORTAL_HTTP_MAX_CONNECTIONS_PER_ADDRESS" => Some("4000".into()),
            "PORTAL_HTTP_MAX_CONNECTIONS" => Some("4000".into()),
            _ => None,
        })
        .unwrap();
        assert!(c.check().is_ok());
        let limits = c.http().unwrap();
        assert_eq!(limits.timeouts.header, Duration::from_secs(5));
        assert_eq!(limits.timeouts.idle, Duration::from_secs(120));
        assert_eq!((limits.per_address, limits.total), (4000, 4000));

        for (key, value) in [
            ("PORTAL_HTTP_HEADER_TIMEOUT_SECS", "0"),
            ("PORTAL_HTTP_HEADER_TIMEOUT_SECS", "301"),
            ("PORTAL_HTTP_IDLE_TIMEOUT_SECS", "0"),
            ("PORTAL_HTTP_IDLE_TIMEOUT_SECS", "3601"),
            ("PORTAL_HTTP_MAX_CONNECTIONS_PER_ADDRESS", "0"),
            ("PORTAL_HTTP_MAX_CONNECTIONS_PER_ADDRESS", "9000"),
            ("PORTAL_HTTP_MAX_CONNECTIONS", "-1"),
            ("PORTAL_HTTP_MAX_CONNECTIONS", "2000000"),
        ] {
            let mut c = Config::default();
            c.apply_env(|k| (k == key).then(|| value.into())).unwrap();
            assert!(c.check().is_err(), "{key}={value}");
        }
    }

    #[test]
    fn the_push_subject_is_set_or_the_https_public_url_or_the_mail_sender() {
        let mut c = Config {
            smtp_from: "Solar Portal <alerts@example.com>".into(),
            ..Config::default()
        };
        assert_eq!(c.push().subject, "mailto:alerts@example.com");
        c.public_url = "https://portal.example.com/".into();
        assert_eq!(c.push().subject, "https://portal.example.com");
        c.push_subject = "mailto:ops@example.com".into();
        assert_eq!(c.push().subject, "mailto:ops@example.com");
    }

    #[test]
    fn links_in_e_mails_use_the_public_url_or_the_http_address() {
        let mut c = Config::default();
        assert_eq!(c.public_url(), "http://127.0.0.1:8080");
        c.http_addr = "0.0.0.0:80".into();
        assert_eq!(c.public_url(), "http://localhost:80");
        c.apply_env(|k| match k {
            "PORTAL_PUBLIC_URL" => Some("https://portal.example.com/".into()),
            "PORTAL_ALARM_QUIET_MINUTES" => Some("15".into()),
            _ => None,
        })
        .unwrap();
        assert!(c.check().is_ok());
        let alarms = c.alarms();
        assert_eq!(alarms.public_url, "https://portal.example.com");
        assert_eq!(alarms.quiet_ms, 15 * 60_000);
        assert_eq!(Config::default().alarms().quiet_ms, 60 * 60_000);
        c.public_url = "portal.example.com".into();
        assert!(c.check().is_err());
        let c = Config {
            alarm_interval_secs: 0,
            ..Config::default()
        };
        assert!(c.check().is_err());
    }

    #[test]
    fn closed_alarm_cases_are_kept_a_year_unless_configured() {
        const DAY: u64 = 24 * 3600;
        let mut c = Config::default();
        c.check().unwrap();
        assert_eq!(c.keep().closed_cases, Some(Duration::from_secs(365 * DAY)));
        let days = |v: &'static str| {
            move |k: &str| (k == "PORTAL_ALARM_CASES_KEEP_DAYS").then(|| v.into())
        };
        c.apply_env(days("30")).unwrap();
        c.check().unwrap();
        assert_eq!(c.keep().closed_cases, Some(Duration::from_secs(30 * DAY)));
        c.apply_env(days("0")).unwrap();
        c.check().unwrap();
        assert_eq!(c.keep().closed_cases, None, "0 keeps them forever");
        c.apply_env(days("-1")).unwrap();
        assert!(c.check().is_err());
    }

    #[test]
    fn the_communication_log_is_on_for_72_hours_and_1000_messages_unless_configured() {
        let mut c = Config::default();
        c.check().unwrap();
        let log = c.comm_log();
        assert!(log.enabled);
        assert_eq!(log.retention, std::time::Duration::from_secs(72 * 3600));
        assert_eq!(log.per_gateway, 1000);
        c.apply_env(|k| match k {
            "PORTAL_COMM_LOG" => Some("off".into()),
            "PORTAL_COMM_LOG_HOURS" => Some("24".into()),
            "PORTAL_COMM_LOG_PER_GATEWAY" => Some("50".into()),
            _ => None,
        })
        .unwrap();
        c.check().unwrap();
        let log = c.link().unwrap().comm_log;
        assert!(!log.enabled);
        assert_eq!(log.retention, std::time::Duration::from_secs(24 * 3600));
        assert_eq!(log.per_gateway, 50);
        for (key, value) in [
            ("PORTAL_COMM_LOG_HOURS", "0"),
            ("PORTAL_COMM_LOG_PER_GATEWAY", "0"),
        ] {
            let mut c = Config::default();
            c.apply_env(|k| (k == key).then(|| value.into())).unwrap();
            assert!(c.check().is_err(), "{key}={value}");
        }
    }

    #[test]
    fn secrets_do_not_show_in_debug_output() {
        let c = Config {
            admin_password: Some("hunter22".into()),
            database_url: Some("postgres://u:pw@db/portal".into()),
            mqtt_password: Some("mqttpw".into()),
            ..Config::default()
        };
        let shown = format!("{c:?}");
        assert!(
            !shown.contains("hunter22") && !shown.contains(":pw@") && !shown.contains("mqttpw"),
            "{shown}"
        );
    }
}
