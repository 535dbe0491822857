//! A plant report as a workbook: sheets Summary, Energy and Events with the report's own
//! figures (the endpoint's answer, not a second computation), headers in the reader's language.

use domain::Lang;

use super::model::{PlantReport, ReportType};
use crate::figures::{
    Figure,
    sheet::{
        AVAILABILITY, CO2, CO2_FACTOR, PERFORMANCE_RATIO, REFERENCE, REFERENCE_YIELD,
        SELF_CONSUMPTION, SELF_SUFFICIENCY, SPECIFIC_YIELD, Words, cells as figure_cells,
        headers as figure_headers, pick, reference_words,
    },
};
use crate::xlsx::{Cell, Sheet};

const SUMMARY: Words = ["Summary", "概要", "Resumen"];
const ENERGY: Words = ["Energy", "电量", "Energía"];
const EVENTS: Words = ["Events", "事件", "Eventos"];
const ITEM: Words = ["Item", "项目", "Concepto"];
const VALUE: Words = ["Value", "数值", "Valor"];

const PERIOD: Words = ["Period", "周期", "Periodo"];
const PLANT: Words = ["Plant", "电站", "Planta"];
const FROM: Words = ["From", "开始日期", "Desde"];
const TO: Words = ["To", "结束日期", "Hasta"];
const PRODUCED: Words = ["Produced (kWh)", "发电量 (kWh)", "Producida (kWh)"];
const CONSUMED: Words = ["Consumed (kWh)", "用电量 (kWh)", "Consumida (kWh)"];
const IMPORTED: Words = [
    "Grid import (kWh)",
    "电网购电 (kWh)",
    "Importación de red (kWh)",
];
const EXPORTED: Words = [
    "Grid export (kWh)",
    "电网售电 (kWh)",
    "Exportación a red (kWh)",
];
const CHARGED: Words = ["Charged (kWh)", "充电量 (kWh)", "Carga (kWh)"];
const DISCHARGED: Words = ["Discharged (kWh)", "放电量 (kWh)", "Descarga (kWh)"];
const GENERATOR: Words = ["Generator (kWh)", "发电机 (kWh)", "Generador (kWh)"];
const GRID_CHARGE: Words = [
    "Battery charged from the grid (kWh)",
    "电池从电网充电量 (kWh)",
    "Batería cargada de la red (kWh)",
];
const INCOME: Words = ["Income", "收益", "Ingresos"];
const PEAK: Words = ["Peak power (W)", "峰值功率 (W)", "Potencia máxima (W)"];
const PEAK_AT: Words = ["Peak power at", "峰值时间", "Hora de la potencia máxima"];
const PREDICTED: Words = ["Predicted (kWh)", "预测发电量 (kWh)", "Prevista (kWh)"];
const RATIO: Words = [
    "Actual / predicted (%)",
    "实际/预测 (%)",
    "Real / prevista (%)",
];
const FAULTS: Words = ["Faults", "故障", "Fallos"];
const WARNINGS: Words = ["Warnings", "告警", "Advertencias"];
const NOTICES: Words = ["Notices", "提示", "Avisos"];
const HOUR: Words = ["Hour", "小时", "Hora"];
const DAY: Words = ["Day", "日", "Día"];
const MONTH: Words = ["Month", "月", "Mes"];
const OPENED: Words = ["Occurred", "发生时间", "Inicio"];
const CLOSED: Words = ["Recovered", "恢复时间", "Recuperación"];
const SN: Words = ["SN", "序列号", "N.º de serie"];
const CODE: Words = ["Code", "代码", "Código"];
const SEVERITY: Words = ["Severity", "级别", "Gravedad"];
const CONTENT: Words = ["Meaning", "含义", "Significado"];

/// The three sheets of `r`.
pub fn sheets(r: &PlantReport, lang: Lang) -> Vec<Sheet> {
    let w = |words: &Words| pick(words, lang);
    let s = &r.summary;
    let mut summary = Sheet::new(w(&SUMMARY), vec![w(&ITEM), w(&VALUE)]);
    let mut line = |k: &Words, v: Cell| summary.push(vec![w(k).into(), v]);
    line(&PLANT, r.plant.name.clone().into());
    line(&PERIOD, r.date.clone().into());
    line(&FROM, r.from.clone().into());
    line(&TO, r.to.clone().into());
    line(&PRODUCED, s.produced.into());
    line(&CONSUMED, s.consumed.into());
    line(&IMPORTED, s.imported.into());
    line(&EXPORTED, s.exported.into());
    line(&CHARGED, s.charged.into());
    line(&DISCHARGED, s.discharged.into());
    line(&GENERATOR, s.generator.into());
    line(&SELF_CONSUMPTION, s.self_consumption.into());
    line(&SELF_SUFFICIENCY, s.self_sufficiency.into());
    let f = &r.figures;
    let value = |x: &Figure| Cell::from(x.value);
    line(&GRID_CHARGE, f.grid_charge.into());
    line(&SPECIFIC_YIELD, value(&f.specific_yield));
    line(&REFERENCE_YIELD, value(&f.reference_yield));
    line(&PERFORMANCE_RATIO, value(&f.performance_ratio));
    line(
        &REFERENCE,
        reference_words(&f.reference_yield).map(w).into(),
    );
    line(&AVAILABILITY, value(&f.availability));
    line(&CO2, value(&f.co2_avoided));
    line(&CO2_FACTOR, f.co2_factor.into());
    summary.push(vec![
        format!("{} ({})", w(&INCOME), r.plant.currency).into(),
        s.income.into(),
    ]);
    let mut line = |k: &Words, v: Cell| summary.push(vec![w(k).into(), v]);
    line(&PEAK, s.peak_power.into());
    line(&PEAK_AT, s.peak_power_at.clone().into());
    line(&PREDICTED, s.predicted.into());
    line(&RATIO, s.predicted_ratio.into());
    line(&FAULTS, s.events.fault.into());
    line(&WARNINGS, s.events.warning.into());
    line(&NOTICES, s.events.info.into());

    let first = match r.kind {
        ReportType::Day => HOUR,
        ReportType::Month => DAY,
        ReportType::Year => MONTH,
    };
    // A month's days carry each day's figures after their energy.
    let per_day = r.kind == ReportType::Month && r.day_figures.len() == r.energy.len();
    let mut headers: Vec<String> = [
        first, PRODUCED, CONSUMED, IMPORTED, EXPORTED, CHARGED, DISCHARGED, PREDICTED,
    ]
    .iter()
    .map(w)
    .collect();
    if per_day {
        headers.extend(figure_headers(lang));
    }
    let mut energy = Sheet::new(w(&ENERGY), headers);
    for (i, e) in r.energy.iter().enumerate() {
        let mut row = vec![
            e.label.clone().into(),
            e.produced.into(),
            e.consumed.into(),
            e.imported.into(),
            e.exported.into(),
            e.charged.into(),
            e.discharged.into(),
            e.predicted.into(),
        ];
        if let Some(f) = r.day_figures.get(i).filter(|_| per_day) {
            row.extend(figure_cells(f, lang));
        }
        energy.push(row);
    }
    let mut events = Sheet::new(
        w(&EVENTS),
        [OPENED, CLOSED, SN, CODE, SEVERITY, CONTENT]
            .iter()
            .map(w)
            .collect(),
    );
    for e in &r.events {
        events.push(vec![
            e.opened_at.clone().into(),
            e.closed_at.clone().into(),
            e.sn.clone().into(),
            e.code.clone().into(),
            e.severity.clone().into(),
            e.content.clone().into(),
        ]);
    }
    vec![summary, energy, events]
}

/// `<plant>-<date>.xlsx`.
pub fn file_name(r: &PlantReport) -> String {
    format!("{}-{}.xlsx", r.plant.name, r.date)
}
