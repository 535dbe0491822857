//! The portal's HTTP router in this process over a bench's store, as `portal serve` builds it
//! without MQTT or background jobs: what the read benchmarks send their requests to.

use std::sync::Arc;

use axum::Router;
use store::Store;

/// The router over `store`, its uploaded files under a temp folder named `files`.
pub async fn in_process_router(files: &str, store: &Store) -> anyhow::Result<Router> {
    store.sync_builtin_roles(domain::time::now_ms()).await?;
    let keys = api::Keys::load_or_create(store)
        .await
        .map_err(|e| anyhow::anyhow!("keys: {e}"))?;
    let data_dir = std::env::temp_dir().join("portal-bench").join(files);
    std::fs::create_dir_all(&data_dir)?;
    let state = api::AppState {
        store: store.clone(),
        config: Arc::new(api::ApiConfig::new(data_dir)),
        keys: Arc::new(keys),
        mailer: Arc::new(service::mailer::Mailer::new(None).map_err(|e| anyhow::anyhow!("{e}"))?),
        metrics: None,
        commands: None,
        latest: None,
        caches: Default::default(),
        vtn_nudges: Default::default(),
    };
    Ok(api::router(state))
}
