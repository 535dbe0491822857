//! The answer of an action taken on many devices at once (restart gateways, ...): how many
//! succeeded and failed, and each one's own outcome, so one refusal never hides the others.

use serde::Serialize;
use utoipa::ToSchema;

/// Totals of a batch and every item's outcome, in the order asked.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchOutcome<T> {
    pub total: usize,
    pub succeeded: usize,
    /// Items that failed or were refused: `total - succeeded`.
    pub failed: usize,
    pub items: Vec<T>,
}

impl<T> BatchOutcome<T> {
    /// Counts the items for which `success` holds as succeeded and the others as failed.
    pub fn count(items: Vec<T>, success: impl Fn(&T) -> bool) -> Self {
        let succeeded = items.iter().filter(|i| success(i)).count();
        BatchOutcome {
            total: items.len(),
            succeeded,
            failed: items.len() - succeeded,
            items,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_count_successes_and_failures() {
        let b = BatchOutcome::count(vec![1, 2, 3, 4], |i| i % 2 == 0);
        assert_eq!((b.total, b.succeeded, b.failed), (4, 2, 2));
        let json = serde_json::to_value(&b).unwrap();
        assert_eq!(json["items"], serde_json::json!([1, 2, 3, 4]));
    }
}
