//! Configuration: defaults, then an optional TOML file (`--config`), then `PORTAL_*`
//! environment variables. Read once at start into typed values.

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
};

use anyhow::{Context, bail};
use serde::Deserialize;

#[derive(Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub http_addr: String,
    pub data_dir: PathBuf,
    pub database_url: Option<String>,
    pub admin_user: Option<String>,
    pub admin_password: Option<String>,
    pub web_dir: PathBuf,
    pub access_token_ttl_secs: i64,
    pub refresh_token_ttl_secs: i64,
    pub trust_proxy: bool,
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
    pub log: String,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            http_addr: "127.0.0.1:8080".into(),
            data_dir: PathBuf::from("./data"),
            database_url: None,
            admin_user: None,
            admin_password: None,
            web_dir: PathBuf::from("web/dist"),
            access_token_ttl_secs: 2 * 3600,
            refresh_token_ttl_secs: 30 * 24 * 3600,
            trust_proxy: false,
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
            log: "info".into(),
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("http_addr", &self.http_addr)
            .field("data_dir", &self.data_dir)
            .field(
                "database_url",
                &self.database_url.as_deref().map(redact_url),
            )
            .field("admin_user", &self.admin_user)
            .field(
                "admin_password",
                &self.admin_password.as_ref().map(|_| "<redacted>"),
            )
            .field("web_dir", &self.web_dir)
            .field("branded_hosts", &self.branded_hosts)
            .field("smtp_host", &self.smtp_host)
            .field("smtp_password", &"<redacted>")
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
        if let Some(v) = get("DATA_DIR") {
            self.data_dir = v.into();
        }
        if let Some(v) = get("DATABASE_URL") {
            self.database_url = Some(v);
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
        if let Some(v) = get("LOG") {
            self.log = v;
        }
        Ok(())
    }

    fn check(&self) -> anyhow::Result<()> {
        self.http_addr
            .parse::<SocketAddr>()
            .with_context(|| format!("http_addr {:?} is not host:port", self.http_addr))?;
        if self.branded_hosts.len() > 5 {
            bail!(
                "at most five branded hostnames are supported, got {}",
                self.branded_hosts.len()
            );
        }
        if self.access_token_ttl_secs <= 0 || self.refresh_token_ttl_secs <= 0 {
            bail!("token lifetimes must be positive");
        }
        if !["starttls", "tls", "none"].contains(&self.smtp_security.as_str()) {
            bail!("smtp_security must be starttls, tls or none");
        }
        Ok(())
    }

    /// The database URL: the configured one, or a SQLite file in the data directory.
    pub fn database_url(&self) -> String {
        self.database_url
            .clone()
            .unwrap_or_else(|| format!("sqlite://{}", self.data_dir.join("portal.db").display()))
    }

    pub fn api(&self) -> api::ApiConfig {
        let mut c = api::ApiConfig::new(self.data_dir.clone());
        c.web_dir = Some(self.web_dir.clone());
        c.access_token_ttl_secs = self.access_token_ttl_secs;
        c.refresh_token_ttl_secs = self.refresh_token_ttl_secs;
        c.trust_proxy = self.trust_proxy;
        c.branded_hosts = self.branded_hosts.clone();
        c.app_android_url = self.app_android_url.clone();
        c.app_ios_url = self.app_ios_url.clone();
        c.map_tile_url = self.map_tile_url.clone();
        c.smtp = self.smtp_host.clone().map(|host| api::config::SmtpConfig {
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
    fn database_defaults_to_sqlite_in_the_data_dir() {
        let c = Config {
            data_dir: "/var/lib/portal".into(),
            ..Config::default()
        };
        assert_eq!(c.database_url(), "sqlite:///var/lib/portal/portal.db");
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
    fn secrets_do_not_show_in_debug_output() {
        let c = Config {
            admin_password: Some("hunter22".into()),
            database_url: Some("postgres://u:pw@db/portal".into()),
            ..Config::default()
        };
        let shown = format!("{c:?}");
        assert!(
            !shown.contains("hunter22") && !shown.contains(":pw@"),
            "{shown}"
        );
    }
}
