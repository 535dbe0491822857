//! A fresh PostgreSQL schema at `PORTAL_TEST_DATABASE_URL` for the processes a test starts,
//! dropped when the test ends (left-overs of a killed run are named like every test schema,
//! `t<pid>_<n>_<n>`, and `make clean-test-schemas` removes them).

use super::Error;

pub struct Schema {
    pub name: String,
    /// Opens the schema (as `search_path`), for `PORTAL_DATABASE_URL` and `Store::connect`.
    pub url: String,
}

impl Schema {
    /// `None` when no test PostgreSQL is configured or it does not answer.
    pub async fn create() -> Result<Option<Schema>, Error> {
        match store::testing::postgres_schema_url().await {
            Ok(Some((name, url))) => Ok(Some(Schema { name, url })),
            Ok(None) => Ok(None),
            Err(e) => {
                println!(
                    "PostgreSQL at ${} does not answer: {e}",
                    store::testing::POSTGRES_URL_VAR
                );
                Ok(None)
            }
        }
    }

    pub async fn drop(self) -> Result<(), Error> {
        store::testing::drop_postgres_schema(&self.name).await?;
        Ok(())
    }
}
