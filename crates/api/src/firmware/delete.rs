//! Deleting firmware, one or many: refused while an upgrade queued, sending or upgrading uses it
//! (4 `inUse`). The rows go in one transaction; each file is removed after its row is gone.

use axum::extract::{Path, State};
use domain::DomainError;
use domain::ids::FirmwareId;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use super::{require_change, storage};
use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope, current_lang},
    extract::{Body, Query, num},
    session::CurrentUser,
    users::path_id,
};
use domain::time::now_ms;
use service::firmware::edit_key;

/// At most this many ids in one batch.
const BATCH_MAX: usize = 200;

/// Why one firmware of a batch was not deleted.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeleteRefusal {
    pub id: i64,
    pub code: i64,
    pub msg: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchDeleted {
    pub deleted: usize,
    pub refused: Vec<DeleteRefusal>,
}

/// Deletes what of `ids` the caller may and nothing uses (the use case), then their files;
/// answers the refusals.
async fn delete_many(
    app: &AppState,
    me: &CurrentUser,
    ids: &[FirmwareId],
) -> ApiResult<BatchDeleted> {
    let out = service::firmware::delete(&app.store, &me.actor, ids, now_ms()).await?;
    for row in &out.deleted {
        // The row is gone: nothing names the file any more.
        storage::remove(app.files(), &row.stored_name).await;
    }
    let lang = current_lang();
    let refused = out
        .refused
        .into_iter()
        .map(|(id, e)| DeleteRefusal {
            id: id.0,
            code: e.code.number(),
            msg: e.message(lang),
        })
        .collect();
    Ok(BatchDeleted {
        deleted: out.deleted.len(),
        refused,
    })
}

/// Deletes one firmware; 4 `inUse` while an upgrade uses it, 4 `id` when it is gone.
#[utoipa::path(get, path = "/api/v1/firmware/{id}/delete", tag = "firmware",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Deleted; 2, 4 id/inUse", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    let id = path_id(&id)?;
    let out = delete_many(&app, &me, &[id]).await?;
    match out.refused.first() {
        None => Ok(Done),
        Some(_) => {
            // Answer the one refusal as itself.
            let row = app.store.firmware(id).await?;
            let Some(row) = row else {
                return Err(DomainError::invalid("id").into());
            };
            require_change(&me, edit_key(&row.target))?;
            Err(DomainError::invalid("inUse").into())
        }
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchDeleteBody {
    /// Firmware ids: a list or a comma-separated string.
    #[serde(default)]
    pub ids: Option<Value>,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct BatchDeleteQuery {
    /// Comma-separated firmware ids.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub ids: Option<String>,
}

fn id_list(raw: Option<&Value>) -> ApiResult<Vec<FirmwareId>> {
    let parse = |s: &str| s.trim().parse::<i64>().ok();
    let ids: Option<Vec<i64>> = match raw {
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_i64().or_else(|| v.as_str().and_then(parse)))
            .collect(),
        Some(Value::String(s)) => s
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(parse)
            .collect(),
        Some(Value::Number(n)) => n.as_i64().map(|n| vec![n]),
        _ => None,
    };
    match ids {
        Some(ids) if !ids.is_empty() && ids.len() <= BATCH_MAX => {
            Ok(ids.into_iter().map(FirmwareId).collect())
        }
        _ => Err(DomainError::invalid("ids").into()),
    }
}

/// Deletes several firmware: how many went, and each refusal (`inUse`, `id`, 2).
#[utoipa::path(post, path = "/api/v1/firmware/batchDelete", tag = "firmware",
    request_body = BatchDeleteBody, security(("bearer" = [])),
    responses((status = 200, description = "The count and refusals; 2, 4 ids", body = Envelope<BatchDeleted>)))]
pub async fn batch_delete_post(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(body): Body<BatchDeleteBody>,
) -> ApiResult<Data<BatchDeleted>> {
    let ids = id_list(body.ids.as_ref())?;
    Ok(Data(delete_many(&app, &me, &ids).await?))
}

/// The same as the POST, with `?ids=1,2` (the spec's form).
#[utoipa::path(get, path = "/api/v1/firmware/batchDelete", tag = "firmware",
    params(BatchDeleteQuery), security(("bearer" = [])),
    responses((status = 200, description = "The count and refusals; 2, 4 ids", body = Envelope<BatchDeleted>)))]
pub async fn batch_delete_get(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<BatchDeleteQuery>,
) -> ApiResult<Data<BatchDeleted>> {
    let ids = id_list(q.ids.map(Value::String).as_ref())?;
    Ok(Data(delete_many(&app, &me, &ids).await?))
}
