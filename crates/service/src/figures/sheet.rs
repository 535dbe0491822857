//! The plant figures in a workbook: their column headers (each with its unit), a row's cells
//! (a missing figure is an empty cell, never 0) and a notes sheet saying what each figure was
//! computed from. One wording for every workbook that carries them (the plant generation
//! export, the plant report), in the reader's language.

use domain::Lang;

use super::{Basis, Figure, PlantFigures};
use crate::xlsx::{Cell, Sheet};

/// (en, zh, es) of one text.
pub type Words = [&'static str; 3];

pub fn pick(w: &Words, lang: Lang) -> String {
    match lang {
        Lang::En => w[0],
        Lang::Zh => w[1],
        Lang::Es => w[2],
    }
    .to_string()
}

pub const SPECIFIC_YIELD: Words = [
    "Specific yield (kWh/kWp)",
    "单位装机发电量 (kWh/kWp)",
    "Rendimiento específico (kWh/kWp)",
];
pub const REFERENCE_YIELD: Words = [
    "Reference yield (h)",
    "参考发电小时数 (h)",
    "Rendimiento de referencia (h)",
];
pub const PERFORMANCE_RATIO: Words = [
    "Performance ratio (%)",
    "性能比 PR (%)",
    "Índice de rendimiento PR (%)",
];
pub const REFERENCE: Words = [
    "Irradiation reference",
    "辐照参考",
    "Referencia de irradiación",
];
pub const AVAILABILITY: Words = ["Availability (%)", "可利用率 (%)", "Disponibilidad (%)"];
pub const SELF_CONSUMPTION: Words = ["Self-consumption (%)", "自发自用率 (%)", "Autoconsumo (%)"];
pub const SELF_SUFFICIENCY: Words = ["Self-sufficiency (%)", "自给率 (%)", "Autosuficiencia (%)"];
pub const CO2: Words = ["CO2 avoided (kg)", "CO2 减排量 (kg)", "CO2 evitado (kg)"];
pub const CO2_FACTOR: Words = [
    "CO2 factor (kg/kWh)",
    "CO2 排放因子 (kg/kWh)",
    "Factor de CO2 (kg/kWh)",
];
pub const STATION: Words = ["Weather station", "气象站实测", "Estación meteorológica"];
pub const CLEAR_SKY: Words = [
    "Clear-sky model (upper bound)",
    "晴空模型（上限）",
    "Modelo de cielo despejado (límite superior)",
];
pub const CLEAR_SKY_ASSUMED: Words = [
    "Clear-sky model, orientation assumed (upper bound)",
    "晴空模型，朝向为假设值（上限）",
    "Modelo de cielo despejado, orientación supuesta (límite superior)",
];

const NOTES: Words = ["Figures", "指标说明", "Indicadores"];
const FIGURE: Words = ["Figure", "指标", "Indicador"];
const BASIS: Words = ["Computed from", "计算依据", "Calculado a partir de"];

const YIELD_BASIS: Words = [
    "PV energy of the day / installed capacity (IEC 61724-1 final yield)",
    "当日光伏发电量 / 装机容量（IEC 61724-1 最终产能）",
    "Energía FV del día / potencia instalada (rendimiento final IEC 61724-1)",
];
const REFERENCE_BASIS: Words = [
    "In-plane irradiation / 1 kW/m², from the weather station, else a clear-sky model (an upper bound): see the column Irradiation reference",
    "组件平面辐照量 / 1 kW/m²，来自气象站，否则来自晴空模型（上限）：见“辐照参考”列",
    "Irradiación en el plano / 1 kW/m², de la estación meteorológica o, sin ella, de un modelo de cielo despejado (límite superior): véase la columna Referencia de irradiación",
];
const RATIO_BASIS: Words = [
    "Specific yield / reference yield, over the days with production",
    "单位装机发电量 / 参考发电小时数，仅计有发电数据的日子",
    "Rendimiento específico / rendimiento de referencia, en los días con producción",
];
const AVAILABILITY_BASIS: Words = [
    "Share of the inverters' daylight hours with reports and no fault",
    "逆变器在日照时段内有上报且无故障的时间占比",
    "Parte de las horas de luz de los inversores con datos y sin fallo",
];
const SHARES_BASIS: Words = [
    "Energy flows, the battery's charge from the grid taken out",
    "能量流，扣除电池从电网充入的电量",
    "Flujos de energía, sin la carga de la batería desde la red",
];
const CO2_BASIS: Words = [
    "PV energy × the grid's emission factor",
    "光伏发电量 × 电网排放因子",
    "Energía FV × factor de emisión de la red",
];
const EMPTY_NOTE: Words = [
    "An empty cell: the figure's inputs are missing (not 0)",
    "空单元格：缺少计算该指标所需的数据（不是 0）",
    "Celda vacía: faltan los datos del indicador (no es 0)",
];

/// The figure columns' headers, in the order of [`cells`].
pub fn headers(lang: Lang) -> Vec<String> {
    [
        SPECIFIC_YIELD,
        REFERENCE_YIELD,
        PERFORMANCE_RATIO,
        REFERENCE,
        AVAILABILITY,
        SELF_CONSUMPTION,
        SELF_SUFFICIENCY,
        CO2,
    ]
    .iter()
    .map(|w| pick(w, lang))
    .collect()
}

/// What the reference yield of `f` was computed from, in words; `None` without one.
pub fn reference_words(f: &Figure) -> Option<&'static Words> {
    match f.basis {
        Basis::Station => Some(&STATION),
        Basis::ClearSky => Some(&CLEAR_SKY),
        Basis::ClearSkyAssumed => Some(&CLEAR_SKY_ASSUMED),
        _ => None,
    }
}

/// One row's figure cells, under [`headers`].
pub fn cells(f: &PlantFigures, lang: Lang) -> Vec<Cell> {
    let value = |x: &Figure| Cell::from(x.value);
    vec![
        value(&f.specific_yield),
        value(&f.reference_yield),
        value(&f.performance_ratio),
        reference_words(&f.reference_yield)
            .map(|w| pick(w, lang))
            .into(),
        value(&f.availability),
        value(&f.self_consumption),
        value(&f.self_sufficiency),
        value(&f.co2_avoided),
    ]
}

/// The sheet that says what each figure column was computed from, with the CO2 factor used.
pub fn notes(lang: Lang, co2_factor: f64) -> Sheet {
    let w = |words: &Words| pick(words, lang);
    let mut sheet = Sheet::new(w(&NOTES), vec![w(&FIGURE), w(&BASIS)]);
    for (figure, basis) in [
        (SPECIFIC_YIELD, YIELD_BASIS),
        (REFERENCE_YIELD, REFERENCE_BASIS),
        (PERFORMANCE_RATIO, RATIO_BASIS),
        (AVAILABILITY, AVAILABILITY_BASIS),
        (SELF_CONSUMPTION, SHARES_BASIS),
        (SELF_SUFFICIENCY, SHARES_BASIS),
        (CO2, CO2_BASIS),
    ] {
        sheet.push(vec![w(&figure).into(), w(&basis).into()]);
    }
    sheet.push(vec![w(&CO2_FACTOR).into(), co2_factor.into()]);
    sheet.push(vec![Cell::Empty, w(&EMPTY_NOTE).into()]);
    sheet
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_header_names_its_unit_or_is_the_reference_in_every_language() {
        for lang in [Lang::En, Lang::Zh, Lang::Es] {
            let h = headers(lang);
            assert_eq!(h.len(), 8);
            for (i, text) in h.iter().enumerate() {
                assert!(i == 3 || text.ends_with(')'), "{text}");
            }
        }
    }

    #[test]
    fn a_missing_figure_is_an_empty_cell() {
        let f = PlantFigures {
            from: "2026-11-01".into(),
            to: "2026-11-01".into(),
            capacity: 5.0,
            pv_energy: None,
            specific_yield: Figure::missing(),
            reference_yield: Figure::of(Some(2.5), Basis::ClearSky),
            performance_ratio: Figure::missing(),
            availability: Figure::of(Some(0.0), Basis::Reports),
            self_consumption: Figure::missing(),
            self_sufficiency: Figure::missing(),
            co2_avoided: Figure::missing(),
            co2_factor: 0.4,
            irradiation: Some(2.5),
            ratio_days: 0,
            days: 1,
            orientation: None,
            grid_charge: None,
            daylight_hours: None,
            available_hours: None,
        };
        let c = cells(&f, Lang::En);
        assert_eq!(c[0], Cell::Empty);
        assert_eq!(c[1], Cell::Number(2.5));
        assert_eq!(c[3], Cell::Text("Clear-sky model (upper bound)".into()));
        assert_eq!(c[4], Cell::Number(0.0), "a real 0 stays 0");
        assert_eq!(c[7], Cell::Empty);
        assert_eq!(notes(Lang::Es, 0.4).rows.len(), 9);
    }
}
