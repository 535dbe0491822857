//! The gateway list as a spreadsheet: the same filters and visibility as `GET /gateways`, every
//! matching row (up to `MAX_ROWS`), headers in the caller's language.

use axum::{extract::State, response::Response};
use domain::Lang;
use store::users::UserRow;

use super::{
    list::{ListQuery, VIEW_KEYS, comm_type_name, customers, lldt},
    require_any,
};
use crate::{
    AppState,
    envelope::{ApiResult, current_lang},
    extract::Query,
    xlsx::{self, Sheet},
};

/// More rows than any screen shows; a download beyond it asks the caller to narrow the filters
/// by stopping there.
const MAX_ROWS: i64 = 20_000;
const BATCH: i64 = 500;

fn headers(lang: Lang) -> Vec<String> {
    let (en, zh, es): (&[&str], &[&str], &[&str]) = (
        &[
            "SN",
            "Alias",
            "Status",
            "Plant",
            "Customer",
            "Communication",
            "Signal (dBm)",
            "Software version",
            "Hardware version",
            "Protocol",
            "Model",
            "Upload cycle (s)",
            "Last message (UTC)",
        ],
        &[
            "序列号",
            "别名",
            "状态",
            "电站",
            "客户",
            "通信方式",
            "信号强度 (dBm)",
            "软件版本",
            "硬件版本",
            "协议",
            "型号",
            "上传周期 (秒)",
            "最后消息 (UTC)",
        ],
        &[
            "N.º de serie",
            "Alias",
            "Estado",
            "Planta",
            "Cliente",
            "Comunicación",
            "Señal (dBm)",
            "Versión de software",
            "Versión de hardware",
            "Protocolo",
            "Modelo",
            "Ciclo de envío (s)",
            "Último mensaje (UTC)",
        ],
    );
    let pick = match lang {
        Lang::En => en,
        Lang::Zh => zh,
        Lang::Es => es,
    };
    pick.iter().map(|s| (*s).to_string()).collect()
}

fn status(online: bool, lang: Lang) -> &'static str {
    match (online, lang) {
        (true, Lang::En) => "Online",
        (false, Lang::En) => "Offline",
        (true, Lang::Zh) => "在线",
        (false, Lang::Zh) => "离线",
        (true, Lang::Es) => "En línea",
        (false, Lang::Es) => "Desconectada",
    }
}

/// A spreadsheet file (the answer's body is the file itself).
#[derive(utoipa::ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct GatewaySheet(#[allow(dead_code)] Vec<u8>);

/// `gateways.xlsx`: the gateways the caller may see, with the list's filters.
#[utoipa::path(get, path = "/api/v1/gateways/downLoad", tag = "gateways", params(ListQuery), security(("bearer" = [])),
    responses((status = 200, description = "An .xlsx attachment; 2 without gateway.export", content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = GatewaySheet)))]
pub async fn download(
    State(app): State<AppState>,
    me: crate::session::CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Response> {
    require_any(&me, &VIEW_KEYS)?;
    require_any(
        &me,
        &[
            domain::permissions::GATEWAY_EXPORT,
            domain::permissions::SYS_GATEWAY_EDIT,
        ],
    )?;
    let lang = current_lang();
    let mut sheet = Sheet::new("Gateways", headers(lang));
    let mut offset = 0;
    while offset < MAX_ROWS {
        // A company the caller may not narrow to makes an empty sheet.
        let Some(filter) = q.resolved(&app, &me, BATCH, offset).await? else {
            break;
        };
        let (rows, total) = app
            .store
            .gateways_visible(me.actor.plant_visibility(), me.id(), &filter)
            .await?;
        let owners = customers(&app, &rows).await?;
        for r in &rows {
            let g = &r.gateway;
            let customer = g
                .owner_id
                .and_then(|o| owners.get(&o))
                .map(UserRow::shown_name);
            sheet.push(vec![
                g.sn.as_str().into(),
                g.alias.as_str().into(),
                status(g.online, lang).into(),
                r.plant_name.clone().into(),
                customer.map(String::from).into(),
                comm_type_name(&g.comm_type).into(),
                g.signal.into(),
                g.soft_ver.as_str().into(),
                g.hard_ver.as_str().into(),
                g.protocol.as_str().into(),
                g.model.as_str().into(),
                g.upload_cycle.into(),
                g.last_online.map(lldt).into(),
            ]);
        }
        offset += BATCH;
        if rows.is_empty() || offset >= total {
            break;
        }
    }
    xlsx::download("gateways.xlsx", &[sheet])
}
