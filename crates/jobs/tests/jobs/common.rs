//! A fresh store per backend, migrated, as the jobs find it at start.

use store::{Backend, Store};

pub async fn stores() -> Vec<(&'static str, Store)> {
    store::testing::all()
        .await
        .expect("test stores")
        .into_iter()
        .map(|s| {
            let backend = match s.backend() {
                Backend::Sqlite => "sqlite",
                Backend::Postgres => "postgres",
            };
            (backend, s)
        })
        .collect()
}
