//! Issue 12, finding 10: `/metrics` is not on the public router any more; it has a router of
//! its own that `portal serve` puts on `PORTAL_METRICS_ADDR` (crates/portal/tests/metrics_addr.rs
//! checks both addresses of a running server).

use crate::common;

use axum::{
    body::Body,
    http::{Request, header},
};
use common::spawn;
use http_body_util::BodyExt;
use tower::ServiceExt;

#[tokio::test]
async fn the_public_router_does_not_serve_metrics() {
    for app in spawn().await {
        // Some traffic first, so there would be something to show.
        app.get("/anonymous/config", None).await.expect_code(0);
        let r = app.get("/metrics", None).await;
        assert_eq!(r.status, 404, "[{}] {}", app.backend, r.text());
        assert!(!r.text().contains("portal_http"), "[{}]", app.backend);
    }
}

#[tokio::test]
async fn the_metrics_router_serves_prometheus_text() {
    for app in spawn().await {
        let mut state = app.state.clone();
        let recorder = metrics_exporter_prometheus::PrometheusBuilder::new().build_recorder();
        state.metrics = Some(recorder.handle());
        let response = api::metrics_router(state)
            .oneshot(Request::get("/metrics").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "[{}]", app.backend);
        let content_type = response.headers()[header::CONTENT_TYPE].to_str().unwrap();
        assert!(content_type.starts_with("text/plain"), "[{}]", app.backend);
        let _ = response.into_body().collect().await.unwrap();
    }
}
