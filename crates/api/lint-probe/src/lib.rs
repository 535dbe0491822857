//! A deliberate violation, compiled only with `--features probe`: `make lint` checks that
//! clippy refuses it (harness/lint/probe.sh), so the rule "the HTTP crate never writes past a
//! use case" is known to be enforced, not only written down. It lives under crates/api, where
//! clippy reads the same crates/api/clippy.toml as for the HTTP crate.

#[cfg(feature = "probe")]
pub async fn writes_past_the_use_cases(
    store: &store::Store,
    id: domain::ids::ProductId,
    entry: &store::audit::NewAudit<'_>,
) {
    let _ = store.delete_product(id, entry).await;
}
