//! Deye/Sunsynk hybrid inverter events (docs/device-protocol.md). Fault code Fnn is bit
//! (nn - 1) of the 64-bit fault word (`fault_word_1` bits 0-15 ... `fault_word_4` bits 48-63);
//! warning code Wnn is bit (nn - 1) of the 32-bit `warning_word`.

use super::Category::{self, *};
use super::EventSeverity;

/// Fault-word bits that are not device faults. The word is the inverter's "why I am not
/// producing normally" register, so it also carries state changes and outside conditions:
/// - notices (nothing to repair): F13 working mode changed, F62 a grid operator's DRM stop;
/// - alarms (warnings; the inverter waits and reconnects by itself once the grid is back within
///   limits, and someone may have to look): the grid conditions, and F22 a remote stop someone
///   ordered.
///
/// Every other bit is a fault of the device.
const NOTICES: [u8; 2] = [13, 62];
const ALARMS: [u8; 11] = [22, 35, 36, 37, 38, 42, 43, 44, 45, 47, 48];

/// The severity of fault code Fnn.
pub(super) fn fault_word_severity(n: u8) -> EventSeverity {
    if NOTICES.contains(&n) {
        EventSeverity::Info
    } else if ALARMS.contains(&n) {
        EventSeverity::Warning
    } else {
        EventSeverity::Fault
    }
}

/// (number, category, [en, zh, es]) of every fault bit.
pub(super) const FAULTS: &[(u8, Category, [&str; 3])] = &[
    (
        1,
        DcSide,
        [
            "DC input reversed",
            "直流输入反接",
            "Entrada de CC invertida",
        ],
    ),
    (
        2,
        Insulation,
        [
            "DC insulation fault (permanent)",
            "直流绝缘故障（永久）",
            "Fallo de aislamiento de CC (permanente)",
        ],
    ),
    (
        3,
        Insulation,
        [
            "DC leakage current",
            "直流漏电流",
            "Corriente de fuga de CC",
        ],
    ),
    (
        4,
        Insulation,
        ["GFDI ground fault", "GFDI 接地故障", "Fallo a tierra GFDI"],
    ),
    (
        5,
        Internal,
        [
            "Memory read error",
            "存储器读取错误",
            "Error de lectura de memoria",
        ],
    ),
    (
        6,
        Internal,
        [
            "Memory write error",
            "存储器写入错误",
            "Error de escritura de memoria",
        ],
    ),
    (
        7,
        DcSide,
        [
            "DC/DC soft-start failure",
            "DC/DC 软启动失败",
            "Fallo del arranque suave CC/CC",
        ],
    ),
    (
        8,
        Insulation,
        [
            "GFDI grounding contact failure",
            "GFDI 接地触点故障",
            "Fallo del contacto de tierra GFDI",
        ],
    ),
    (
        9,
        Internal,
        [
            "IGBT failure (excess voltage drop)",
            "IGBT 故障（压降过大）",
            "Fallo de IGBT (caída de tensión excesiva)",
        ],
    ),
    (
        10,
        Internal,
        [
            "Auxiliary power supply failure",
            "辅助电源故障",
            "Fallo de la fuente auxiliar",
        ],
    ),
    (
        11,
        Internal,
        [
            "AC main contactor error",
            "交流主接触器错误",
            "Error del contactor principal de CA",
        ],
    ),
    (
        12,
        Internal,
        [
            "AC auxiliary contactor error",
            "交流辅助接触器错误",
            "Error del contactor auxiliar de CA",
        ],
    ),
    (
        13,
        Settings,
        [
            "Working mode changed",
            "工作模式已改变",
            "Modo de trabajo cambiado",
        ],
    ),
    (
        14,
        DcSide,
        [
            "DC over-current (software)",
            "直流过流（软件）",
            "Sobrecorriente de CC (software)",
        ],
    ),
    (
        15,
        AcSide,
        [
            "AC over-current (software)",
            "交流过流（软件）",
            "Sobrecorriente de CA (software)",
        ],
    ),
    (
        16,
        Insulation,
        [
            "DC ground leakage current",
            "直流对地漏电流",
            "Corriente de fuga a tierra de CC",
        ],
    ),
    (
        17,
        Internal,
        ["Reserved fault 17", "保留故障 17", "Fallo reservado 17"],
    ),
    (
        18,
        AcSide,
        [
            "AC over-current (hardware trip)",
            "交流过流（硬件保护）",
            "Sobrecorriente de CA (disparo por hardware)",
        ],
    ),
    (
        19,
        Internal,
        [
            "Aggregate hardware fault",
            "综合硬件故障",
            "Fallo de hardware general",
        ],
    ),
    (
        20,
        DcSide,
        ["DC over-current", "直流过流", "Sobrecorriente de CC"],
    ),
    (
        21,
        DcSide,
        [
            "HV DC bus over-current",
            "高压直流母线过流",
            "Sobrecorriente del bus de CC de alta tensión",
        ],
    ),
    (
        22,
        Settings,
        [
            "Remote emergency stop",
            "远程紧急停机",
            "Parada de emergencia remota",
        ],
    ),
    (
        23,
        AcSide,
        [
            "AC leakage or transient over-current",
            "交流漏电或瞬时过流",
            "Fuga de CA o sobrecorriente transitoria",
        ],
    ),
    (
        24,
        Insulation,
        [
            "DC insulation impedance low",
            "直流绝缘阻抗低",
            "Impedancia de aislamiento de CC baja",
        ],
    ),
    (
        25,
        DcSide,
        [
            "DC feedback fault",
            "直流反馈故障",
            "Fallo de realimentación de CC",
        ],
    ),
    (
        26,
        DcSide,
        [
            "DC bus imbalance",
            "直流母线不平衡",
            "Desequilibrio del bus de CC",
        ],
    ),
    (
        27,
        Insulation,
        [
            "DC-side insulation error",
            "直流侧绝缘错误",
            "Error de aislamiento en el lado de CC",
        ],
    ),
    (
        28,
        DcSide,
        [
            "Inverter 1 DC high",
            "逆变器 1 直流过高",
            "CC alta en el inversor 1",
        ],
    ),
    (
        29,
        Communication,
        [
            "Parallel communication cable or AC load switch fault",
            "并机通信线或交流负载开关故障",
            "Fallo del cable de comunicación en paralelo o del interruptor de carga de CA",
        ],
    ),
    (
        30,
        Internal,
        [
            "AC main contactor failure",
            "交流主接触器失效",
            "Fallo del contactor principal de CA",
        ],
    ),
    (
        31,
        Internal,
        [
            "Relay open circuit",
            "继电器开路",
            "Relé en circuito abierto",
        ],
    ),
    (
        32,
        DcSide,
        [
            "Inverter 2 DC high",
            "逆变器 2 直流过高",
            "CC alta en el inversor 2",
        ],
    ),
    (
        33,
        AcSide,
        ["AC over-current", "交流过流", "Sobrecorriente de CA"],
    ),
    (
        34,
        AcSide,
        [
            "AC overload (backup output)",
            "交流过载（备用输出）",
            "Sobrecarga de CA (salida de respaldo)",
        ],
    ),
    (35, Grid, ["No AC grid", "无交流电网", "Sin red de CA"]),
    (
        36,
        Grid,
        [
            "Grid phase error",
            "电网相位错误",
            "Error de fase de la red",
        ],
    ),
    (
        37,
        Grid,
        [
            "Three-phase voltage unbalance",
            "三相电压不平衡",
            "Desequilibrio de tensión trifásica",
        ],
    ),
    (
        38,
        Grid,
        [
            "Three-phase current unbalance",
            "三相电流不平衡",
            "Desequilibrio de corriente trifásica",
        ],
    ),
    (
        39,
        AcSide,
        [
            "AC over-current (one cycle)",
            "交流过流（单周期）",
            "Sobrecorriente de CA (un ciclo)",
        ],
    ),
    (
        40,
        DcSide,
        [
            "DC over-current (hardware)",
            "直流过流（硬件）",
            "Sobrecorriente de CC (hardware)",
        ],
    ),
    (
        41,
        Communication,
        [
            "Parallel system stopped",
            "并机系统停机",
            "Sistema en paralelo detenido",
        ],
    ),
    (
        42,
        Grid,
        [
            "AC line low voltage",
            "交流线电压过低",
            "Tensión de línea de CA baja",
        ],
    ),
    (
        43,
        Grid,
        [
            "AC line V/W over-voltage",
            "交流线 V/W 过压",
            "Sobretensión de línea de CA V/W",
        ],
    ),
    (
        44,
        Grid,
        [
            "AC line V/W low voltage",
            "交流线 V/W 欠压",
            "Subtensión de línea de CA V/W",
        ],
    ),
    (
        45,
        Grid,
        [
            "AC line U/V over-voltage",
            "交流线 U/V 过压",
            "Sobretensión de línea de CA U/V",
        ],
    ),
    (
        46,
        Battery,
        ["Battery 1 fault", "电池 1 故障", "Fallo de la batería 1"],
    ),
    (
        47,
        Grid,
        [
            "Grid frequency too high or out of range",
            "电网频率过高或超出范围",
            "Frecuencia de red demasiado alta o fuera de rango",
        ],
    ),
    (
        48,
        Grid,
        [
            "Grid frequency too low",
            "电网频率过低",
            "Frecuencia de red demasiado baja",
        ],
    ),
    (
        49,
        Battery,
        ["Battery 2 fault", "电池 2 故障", "Fallo de la batería 2"],
    ),
    (
        50,
        AcSide,
        [
            "Phase-V grid current DC component high",
            "V 相电网电流直流分量过高",
            "Componente de CC alta en la corriente de red de la fase V",
        ],
    ),
    (
        51,
        AcSide,
        [
            "Phase-W grid current DC component high",
            "W 相电网电流直流分量过高",
            "Componente de CC alta en la corriente de red de la fase W",
        ],
    ),
    (
        52,
        DcSide,
        [
            "DC voltage too high",
            "直流电压过高",
            "Tensión de CC demasiado alta",
        ],
    ),
    (
        53,
        DcSide,
        [
            "DC voltage too low",
            "直流电压过低",
            "Tensión de CC demasiado baja",
        ],
    ),
    (
        54,
        Battery,
        [
            "Battery 1 over-voltage",
            "电池 1 过压",
            "Sobretensión de la batería 1",
        ],
    ),
    (
        55,
        Battery,
        [
            "Battery 2 over-voltage",
            "电池 2 过压",
            "Sobretensión de la batería 2",
        ],
    ),
    (
        56,
        Battery,
        [
            "Battery 1 under-voltage (single-phase: DC bus low)",
            "电池 1 欠压（单相：直流母线过低）",
            "Subtensión de la batería 1 (monofásico: bus de CC bajo)",
        ],
    ),
    (
        57,
        Battery,
        [
            "Battery 2 under-voltage",
            "电池 2 欠压",
            "Subtensión de la batería 2",
        ],
    ),
    (
        58,
        Communication,
        [
            "BMS communication lost",
            "BMS 通信丢失",
            "Comunicación con el BMS perdida",
        ],
    ),
    (
        59,
        AcSide,
        [
            "Grid phase-V over-current",
            "电网 V 相过流",
            "Sobrecorriente de red en la fase V",
        ],
    ),
    (
        60,
        AcSide,
        [
            "Grid phase-W over-current",
            "电网 W 相过流",
            "Sobrecorriente de red en la fase W",
        ],
    ),
    (
        61,
        AcSide,
        [
            "Reactor phase-A over-current",
            "电抗器 A 相过流",
            "Sobrecorriente del reactor en la fase A",
        ],
    ),
    (
        62,
        Settings,
        ["DRM stop active", "DRM 停机指令生效", "Parada DRM activa"],
    ),
    (
        63,
        DcSide,
        [
            "Arc fault detected",
            "检测到电弧故障",
            "Fallo de arco detectado",
        ],
    ),
    (
        64,
        Temperature,
        [
            "Heat-sink over-temperature",
            "散热器过温",
            "Sobretemperatura del disipador",
        ],
    ),
];

/// (number, category, [en, zh, es]) of every known warning bit.
pub(super) const WARNINGS: &[(u8, Category, [&str; 3])] = &[
    (
        2,
        Temperature,
        ["Fan failure", "风扇故障", "Fallo del ventilador"],
    ),
    (
        3,
        Grid,
        ["Grid phase failure", "电网缺相", "Fallo de fase de la red"],
    ),
    (
        4,
        Communication,
        [
            "Meter (CT) communication failure",
            "电表（CT）通信故障",
            "Fallo de comunicación del medidor (TC)",
        ],
    ),
    (
        31,
        Communication,
        [
            "Lithium battery / BMS link lost",
            "锂电池 / BMS 连接丢失",
            "Enlace con la batería de litio / BMS perdido",
        ],
    ),
    (
        32,
        Communication,
        [
            "Parallel communication quality poor",
            "并机通信质量差",
            "Calidad de comunicación en paralelo deficiente",
        ],
    ),
];
