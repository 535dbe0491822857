//! Importing predicted generation: the valid rows are stored together, or (the database
//! failing half way) none of them.

use crate::common::{actor, failed_in_store, plant};
use domain::ids::PlantId;
use domain::user::BuiltinRole;
use service::predictions::{self, Cells};
use store::testing::{TestResult, each_backend};

fn row(plant: PlantId, day: &str, kwh: &str) -> Cells {
    [
        plant.to_string(),
        "2026".into(),
        "3".into(),
        day.into(),
        kwh.into(),
    ]
}

/// The second row fails: the first, written before it, goes too.
const FAIL_DAY_2_SQLITE: &str = "CREATE TRIGGER injected_day_2 BEFORE INSERT ON \
    predicted_generation WHEN NEW.day = 2 BEGIN SELECT RAISE(ABORT, 'injected'); END";
const FAIL_DAY_2_POSTGRES: &str = "CREATE FUNCTION injected_day_2() RETURNS trigger \
    LANGUAGE plpgsql AS $$ BEGIN IF NEW.day = 2 THEN RAISE EXCEPTION 'injected'; END IF; \
    RETURN NEW; END $$; CREATE TRIGGER injected_day_2 BEFORE INSERT ON predicted_generation \
    FOR EACH ROW EXECUTE FUNCTION injected_day_2();";

#[tokio::test]
async fn valid_rows_are_stored_and_refused_ones_answered() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let id = plant(&s, &ann, "Ann home").await?;
        let rows = [
            row(id, "1", "10"),
            row(id, "1", "11"),
            row(PlantId(id.0 + 100), "2", "5"),
        ];
        let outcomes = predictions::import(&s, &ann, &rows, false, 5).await?;
        let refused: Vec<Option<String>> = outcomes
            .iter()
            .map(|o| o.as_ref().err().and_then(|e| e.detail.clone()))
            .collect();
        assert_eq!(refused[0], None);
        assert_eq!(refused[1].as_deref(), Some("row repeated in the file"));
        assert_eq!(refused[2].as_deref(), Some("plantId"));
        assert_eq!(s.plant_predictions(id, 2026).await?.len(), 1);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_import_failing_half_way_stores_no_row() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let id = plant(&s, &ann, "Ann home").await?;
        let script = match s.backend() {
            store::Backend::Sqlite => FAIL_DAY_2_SQLITE,
            store::Backend::Postgres => FAIL_DAY_2_POSTGRES,
        };
        s.run_script_for_tests(script).await?;
        let rows = [row(id, "1", "10"), row(id, "2", "11")];
        let r = predictions::import(&s, &ann, &rows, false, 5).await;
        assert!(failed_in_store(&r), "{r:?}");
        assert!(s.plant_predictions(id, 2026).await?.is_empty());
        Ok(())
    })
    .await
}
