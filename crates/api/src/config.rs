//! What the HTTP layer needs to know about the installation, read once at start.

use std::path::PathBuf;

use service::mailer::SmtpConfig;

#[derive(Clone)]
pub struct ApiConfig {
    /// This replica's own directory: uploaded files live under it with `files` local.
    pub data_dir: PathBuf,
    /// Where uploaded files (pictures, logos, avatars, firmware) are kept.
    pub files: crate::FilesBackend,
    /// The built web app; `None` serves the API alone.
    pub web_dir: Option<PathBuf>,
    pub access_token_ttl_secs: i64,
    pub refresh_token_ttl_secs: i64,
    /// Use the first `X-Forwarded-For` hop as the client address (behind a trusted proxy only).
    pub trust_proxy: bool,
    /// Up to five hostnames that get the branded theme.
    pub branded_hosts: Vec<String>,
    pub app_android_url: Option<String>,
    pub app_ios_url: Option<String>,
    pub map_tile_url: String,
    pub smtp: Option<SmtpConfig>,
    /// Largest request body accepted, in bytes, on routes without a limit of their own (upload
    /// routes have theirs, see `limits.rs`).
    pub body_limit: usize,
    /// How much longer each throttled sign-in waits per failure past the slow-down threshold
    /// (docs/security.md). 500 ms; tests that need many failures shorten it.
    pub sign_in_delay_step_ms: u64,
    /// `PORTAL_PUBLIC_URL` when set: where a utility's VTN can call the portal back (webhooks).
    pub public_url: Option<String>,
    /// The plant figures' settings: the grid's CO2 factor (`PORTAL_CO2_KG_PER_KWH`).
    pub figures: service::figures::FiguresConfig,
    /// How webhook test deliveries are sent (`PORTAL_WEBHOOK_ALLOW_PRIVATE`).
    pub webhooks: service::webhooks::DeliverySettings,
    /// How Web Push test messages are sent (private addresses, the VAPID subject).
    pub push: service::push::PushSettings,
}

impl std::fmt::Debug for ApiConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiConfig")
            .field("data_dir", &self.data_dir)
            .field("files", &self.files)
            .field("web_dir", &self.web_dir)
            .field("access_token_ttl_secs", &self.access_token_ttl_secs)
            .field("branded_hosts", &self.branded_hosts)
            .field("smtp", &self.smtp)
            .finish_non_exhaustive()
    }
}

/// The release label shown in the menu (docs/overview.md, "Limits").
pub const VERSION_LABEL: &str = "V250120";

impl ApiConfig {
    /// Defaults suitable for tests and a first start; the portal binary layers its config on top.
    pub fn new(data_dir: PathBuf) -> ApiConfig {
        ApiConfig {
            data_dir,
            files: crate::FilesBackend::Local,
            web_dir: None,
            access_token_ttl_secs: 2 * 3600,
            refresh_token_ttl_secs: 30 * 24 * 3600,
            trust_proxy: false,
            branded_hosts: Vec::new(),
            app_android_url: None,
            app_ios_url: None,
            map_tile_url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png".into(),
            smtp: None,
            body_limit: crate::limits::DEFAULT_BODY,
            sign_in_delay_step_ms: 500,
            public_url: None,
            figures: service::figures::FiguresConfig::default(),
            webhooks: service::webhooks::DeliverySettings::default(),
            push: service::push::PushSettings::default(),
        }
    }
}
