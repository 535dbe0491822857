//! Events of batteries, meters, weather stations and combiner boxes. The BMS alarm and fault
//! words are the portal's own `bms-lv-stack` layout (bit n = code nn + 1); meters and weather
//! stations have no status word and send these codes as event messages. A combiner's
//! `status_word` carries its fuse, surge-protector and switch states; its weak-string event
//! follows a word ingest derives from the string currents (`ingest::prepare`).

use super::{Category, EventSeverity, WordBit};
use crate::protocol::DeviceFamily;

pub(super) struct Other {
    pub family: DeviceFamily,
    pub code: &'static str,
    pub severity: EventSeverity,
    pub word: Option<WordBit>,
    pub category: Category,
    pub meaning: [&'static str; 3],
}

const fn bms(
    code: &'static str,
    severity: EventSeverity,
    key: &'static str,
    bit: u8,
    category: Category,
    meaning: [&'static str; 3],
) -> Other {
    Other {
        family: DeviceFamily::Battery,
        code,
        severity,
        word: Some(WordBit { key, bit }),
        category,
        meaning,
    }
}

const fn message(
    family: DeviceFamily,
    code: &'static str,
    severity: EventSeverity,
    category: Category,
    meaning: [&'static str; 3],
) -> Other {
    Other {
        family,
        code,
        severity,
        word: None,
        category,
        meaning,
    }
}

const fn combiner(
    code: &'static str,
    severity: EventSeverity,
    key: &'static str,
    bit: u8,
    category: Category,
    meaning: [&'static str; 3],
) -> Other {
    Other {
        family: DeviceFamily::Combiner,
        code,
        severity,
        word: Some(WordBit { key, bit }),
        category,
        meaning,
    }
}

/// The word ingest derives for a combiner: bit 0 set while a string is weak.
pub const WEAK_STRING_WORD: &str = "weak_string_alarm";

use Category::*;
use DeviceFamily::{Combiner, Meter, WeatherStation};
use EventSeverity::{Fault, Warning};

pub(super) const OTHERS: &[Other] = &[
    bms(
        "BA01",
        Warning,
        "alarm_word",
        0,
        Battery,
        ["Cell voltage high", "电芯电压偏高", "Tensión de celda alta"],
    ),
    bms(
        "BA02",
        Warning,
        "alarm_word",
        1,
        Battery,
        ["Cell voltage low", "电芯电压偏低", "Tensión de celda baja"],
    ),
    bms(
        "BA03",
        Warning,
        "alarm_word",
        2,
        Temperature,
        [
            "Battery temperature high",
            "电池温度偏高",
            "Temperatura de la batería alta",
        ],
    ),
    bms(
        "BA04",
        Warning,
        "alarm_word",
        3,
        Temperature,
        [
            "Battery temperature low",
            "电池温度偏低",
            "Temperatura de la batería baja",
        ],
    ),
    bms(
        "BA05",
        Warning,
        "alarm_word",
        4,
        Battery,
        [
            "Charge current high",
            "充电电流偏大",
            "Corriente de carga alta",
        ],
    ),
    bms(
        "BA06",
        Warning,
        "alarm_word",
        5,
        Battery,
        [
            "Discharge current high",
            "放电电流偏大",
            "Corriente de descarga alta",
        ],
    ),
    bms(
        "BA07",
        Warning,
        "alarm_word",
        6,
        Battery,
        ["State of charge low", "电量偏低", "Estado de carga bajo"],
    ),
    bms(
        "BA08",
        Warning,
        "alarm_word",
        7,
        Battery,
        [
            "Cell voltage imbalance",
            "电芯电压不均衡",
            "Desequilibrio de tensión entre celdas",
        ],
    ),
    bms(
        "BF01",
        Fault,
        "fault_word",
        0,
        Battery,
        [
            "Cell over-voltage protection",
            "电芯过压保护",
            "Protección por sobretensión de celda",
        ],
    ),
    bms(
        "BF02",
        Fault,
        "fault_word",
        1,
        Battery,
        [
            "Cell under-voltage protection",
            "电芯欠压保护",
            "Protección por subtensión de celda",
        ],
    ),
    bms(
        "BF03",
        Fault,
        "fault_word",
        2,
        Temperature,
        [
            "Over-temperature protection",
            "过温保护",
            "Protección por sobretemperatura",
        ],
    ),
    bms(
        "BF04",
        Fault,
        "fault_word",
        3,
        Battery,
        [
            "Short-circuit protection",
            "短路保护",
            "Protección contra cortocircuito",
        ],
    ),
    bms(
        "BF05",
        Fault,
        "fault_word",
        4,
        Communication,
        [
            "Slave pack communication lost",
            "从机电池包通信丢失",
            "Comunicación con un módulo esclavo perdida",
        ],
    ),
    bms(
        "BF06",
        Fault,
        "fault_word",
        5,
        Internal,
        [
            "Battery relay failure",
            "电池继电器故障",
            "Fallo del relé de la batería",
        ],
    ),
    message(
        Meter,
        "M01",
        Warning,
        Communication,
        [
            "Meter communication lost",
            "电表通信丢失",
            "Comunicación con el medidor perdida",
        ],
    ),
    message(
        Meter,
        "M02",
        Warning,
        Grid,
        [
            "Voltage out of range",
            "电压超出范围",
            "Tensión fuera de rango",
        ],
    ),
    message(
        Meter,
        "M03",
        Fault,
        Grid,
        ["Phase loss", "缺相", "Pérdida de fase"],
    ),
    message(
        Meter,
        "M04",
        Warning,
        Settings,
        [
            "CT direction reversed",
            "CT 方向接反",
            "Sentido del TC invertido",
        ],
    ),
    message(
        WeatherStation,
        "WS01",
        Warning,
        Communication,
        [
            "Weather station communication lost",
            "气象站通信丢失",
            "Comunicación con la estación meteorológica perdida",
        ],
    ),
    message(
        WeatherStation,
        "WS02",
        Fault,
        Sensor,
        [
            "Irradiance sensor fault",
            "辐照度传感器故障",
            "Fallo del sensor de irradiancia",
        ],
    ),
    message(
        WeatherStation,
        "WS03",
        Warning,
        Sensor,
        [
            "Temperature sensor fault",
            "温度传感器故障",
            "Fallo del sensor de temperatura",
        ],
    ),
    message(
        WeatherStation,
        "WS04",
        Warning,
        Sensor,
        [
            "Wind sensor fault",
            "风速传感器故障",
            "Fallo del sensor de viento",
        ],
    ),
    combiner(
        "CB01",
        Fault,
        "status_word",
        0,
        DcSide,
        [
            "String fuse blown",
            "组串熔断器熔断",
            "Fusible de cadena fundido",
        ],
    ),
    combiner(
        "CB02",
        Warning,
        "status_word",
        1,
        Grid,
        [
            "Surge protector tripped",
            "防雷器动作",
            "Protector contra sobretensiones disparado",
        ],
    ),
    combiner(
        "CB03",
        Warning,
        "status_word",
        2,
        Settings,
        [
            "DC switch open",
            "直流开关断开",
            "Interruptor de CC abierto",
        ],
    ),
    combiner(
        "CB04",
        Warning,
        WEAK_STRING_WORD,
        0,
        DcSide,
        [
            "String current low (below half of the other strings)",
            "组串电流偏低（低于其他组串的一半）",
            "Corriente de cadena baja (menos de la mitad que las demás)",
        ],
    ),
    message(
        Combiner,
        "CB05",
        Warning,
        Communication,
        [
            "Combiner box communication lost",
            "汇流箱通信丢失",
            "Comunicación con la caja de conexiones perdida",
        ],
    ),
];
