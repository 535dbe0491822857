//! The import templates: a workbook with the header row the import reads and one example row.

use axum::{extract::State, response::Response};
use domain::DomainError;

use super::{batch::ModeQuery, download::GatewaySheet, require_any};
use crate::{
    AppState,
    envelope::ApiResult,
    extract::Query,
    session::CurrentUser,
    xlsx::{self, Cell, Sheet},
};

/// `gateway-register-template.xlsx` (`mode=register`: SN, Key, Model, Communication type,
/// Protocol; internal staff with `sys.gateway.view`) or `gateway-import-template.xlsx` (the
/// claim import: SN, Key, Plant ID; `gateway.import`).
#[utoipa::path(get, path = "/api/v1/gateway/import/template", tag = "gateways", params(ModeQuery), security(("bearer" = [])),
    responses((status = 200, description = "An .xlsx attachment; 2, 4 mode", content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = GatewaySheet)))]
pub async fn template(
    State(_app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ModeQuery>,
) -> ApiResult<Response> {
    let text = |cells: &[&str]| cells.iter().map(|c| Cell::from(*c)).collect::<Vec<_>>();
    let header = |cells: &[&str]| cells.iter().map(|c| (*c).to_string()).collect::<Vec<_>>();
    let (file, sheet) = match q.mode.as_deref().map(str::trim) {
        Some("register") => {
            if !me.actor.is_internal() {
                return Err(domain::Code::NoPermission.into());
            }
            require_any(&me, &[domain::permissions::SYS_GATEWAY_VIEW])?;
            let mut sheet = Sheet::new(
                "Gateways",
                header(&["SN", "Key", "Model", "Communication type", "Protocol"]),
            );
            sheet.push(text(&[
                "GW-2026-0001",
                "KEY12345",
                "LOGGER-4G",
                "4g",
                "deye-hybrid-1ph",
            ]));
            ("gateway-register-template.xlsx", sheet)
        }
        None | Some("") | Some("claim") => {
            require_any(&me, &[domain::permissions::GATEWAY_IMPORT])?;
            let mut sheet = Sheet::new("Gateways", header(&["SN", "Key", "Plant ID"]));
            sheet.push(text(&["GW-2026-0001", "KEY12345", ""]));
            ("gateway-import-template.xlsx", sheet)
        }
        Some(_) => return Err(DomainError::invalid("mode").into()),
    };
    xlsx::download(file, &[sheet])
}
