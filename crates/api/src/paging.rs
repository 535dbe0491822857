//! Lists: the `page` and `limit` of a query, and the page every list answers.

use axum::{extract::FromRequestParts, http::request::Parts};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    envelope::ApiError,
    extract::{Query, num},
};

/// The most rows one page may hold.
pub const MAX_LIMIT: i64 = 100;
/// Rows per page when the query does not say.
pub const DEFAULT_LIMIT: i64 = 10;

/// `page` (from 1) and `limit` (1 to [`MAX_LIMIT`], [`DEFAULT_LIMIT`] when absent) of a list
/// query, read leniently like every query (a bad or missing value takes the default). Extract it
/// beside the list's own filters: both read the same query string.
#[derive(Debug, Clone, Copy, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Paging {
    /// The page, from 1.
    #[serde(default, deserialize_with = "num::opt_i64")]
    page: Option<i64>,
    /// Rows per page, 1 to 100 (10 when absent).
    #[serde(default, deserialize_with = "num::opt_i64")]
    limit: Option<i64>,
}

impl Paging {
    pub fn new(page: i64, limit: i64) -> Self {
        Paging {
            page: Some(page),
            limit: Some(limit),
        }
    }

    pub fn page(&self) -> i64 {
        self.page.unwrap_or(1).max(1)
    }

    pub fn limit(&self) -> i64 {
        self.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT)
    }

    /// Rows before this page.
    pub fn offset(&self) -> i64 {
        (self.page() - 1) * self.limit()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Paging {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Query(paging) = Query::<Paging>::from_request_parts(parts, state).await?;
        Ok(paging)
    }
}

/// One page of a list: `infos` are the rows of page `pageNumber` of `pageSize` rows, of
/// `total` in all.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Page<T> {
    pub page_size: i64,
    pub page_number: i64,
    pub total: i64,
    pub infos: Vec<T>,
}

impl<T> Page<T> {
    pub fn new(paging: Paging, total: i64, infos: Vec<T>) -> Self {
        Page {
            page_size: paging.limit(),
            page_number: paging.page(),
            total,
            infos,
        }
    }

    /// Every row on one page.
    pub fn whole(infos: Vec<T>) -> Self {
        let n = infos.len() as i64;
        Page {
            page_size: n,
            page_number: 1,
            total: n,
            infos,
        }
    }
}
