//! The workbook the monthly report e-mail attaches (`jobs::monthly_reports` queues the
//! e-mail): the plant's month report as the download builds it, for the subscriber.

use chrono_tz::Tz;
use domain::{Lang, policy::Actor};
use service::reports::{WorkbookFuture, Workbooks};
use store::plants::PlantRow;

use super::{build, period::Period, sheet};
use crate::{AppState, monitor::PlantCtx};

impl Workbooks for AppState {
    fn month<'a>(
        &'a self,
        actor: &'a Actor,
        plant: PlantRow,
        tz: Tz,
        (year, month): (i32, u32),
        lang: Lang,
    ) -> WorkbookFuture<'a> {
        Box::pin(async move {
            let ctx = PlantCtx {
                tz,
                devices: self.store.plant_devices(plant.id).await?,
                plant,
            };
            let report = build::build(self, actor, &ctx, Period::Month(year, month), lang).await?;
            let bytes = crate::xlsx::workbook(&sheet::sheets(&report, lang))?;
            Ok((sheet::file_name(&report), bytes))
        })
    }
}
