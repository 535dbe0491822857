//! The event catalogue: per device family, every event code with its meaning, what to do about
//! it and its severity (fault, warning or notice), in English, Chinese and Spanish. Codes tied
//! to a status word (inverter fault and warning words, battery alarm and fault words) are opened
//! and closed by ingest from telemetry; the others arrive as event messages from the gateway.

mod inverter;
mod others;

pub use others::WEAK_STRING_WORD;

use std::sync::LazyLock;

use domain::Lang;

use crate::protocol::DeviceFamily;

/// How much an event needs attention: the device statuses' Fault and Warning (the register
/// maps' "alarm"), and notices: state changes worth recording that need nobody (a working mode
/// change). Notices neither change a device's status nor count as unread messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventSeverity {
    Info,
    Warning,
    Fault,
}

impl EventSeverity {
    /// The stored and wire name.
    pub fn key(self) -> &'static str {
        match self {
            EventSeverity::Info => "info",
            EventSeverity::Warning => "warning",
            EventSeverity::Fault => "fault",
        }
    }

    /// The wire level: 1 notice, 2 warning, 3 fault.
    pub fn level(self) -> i64 {
        match self {
            EventSeverity::Info => 1,
            EventSeverity::Warning => 2,
            EventSeverity::Fault => 3,
        }
    }

    /// From the stored name (anything unknown reads as a warning, the old default).
    pub fn from_key(key: &str) -> EventSeverity {
        match key {
            "info" => EventSeverity::Info,
            "fault" => EventSeverity::Fault,
            _ => EventSeverity::Warning,
        }
    }
}

/// A bit of a status word that raises an event while it is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WordBit {
    pub key: &'static str,
    pub bit: u8,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EventDef {
    pub family: DeviceFamily,
    pub code: String,
    pub severity: EventSeverity,
    pub word: Option<WordBit>,
    /// en, zh, es.
    pub meaning: [&'static str; 3],
    /// en, zh, es.
    pub solution: [&'static str; 3],
}

fn lang_index(lang: Lang) -> usize {
    match lang {
        Lang::En => 0,
        Lang::Zh => 1,
        Lang::Es => 2,
    }
}

impl EventDef {
    pub fn meaning(&self, lang: Lang) -> &'static str {
        self.meaning[lang_index(lang)]
    }
    pub fn solution(&self, lang: Lang) -> &'static str {
        self.solution[lang_index(lang)]
    }
}

/// What kind of trouble an event is; each kind shares one solution text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Category {
    DcSide,
    AcSide,
    Grid,
    Insulation,
    Internal,
    Battery,
    Communication,
    Temperature,
    Settings,
    Sensor,
}

impl Category {
    fn solution(self) -> [&'static str; 3] {
        match self {
            Category::DcSide => [
                "Check the PV strings' wiring, polarity and open-circuit voltage against the inverter's input range; restart the inverter. Call the installer if it recurs.",
                "检查光伏组串的接线、极性和开路电压是否在逆变器输入范围内；重启逆变器。若反复出现，请联系安装商。",
                "Compruebe el cableado, la polaridad y la tensión en circuito abierto de las cadenas FV frente al rango de entrada del inversor; reinicie el inversor. Si se repite, llame al instalador.",
            ],
            Category::AcSide => [
                "Reduce the connected load, check the AC wiring and breakers, then restart the inverter. Call the installer if it recurs.",
                "减少所接负载，检查交流接线和断路器，然后重启逆变器。若反复出现，请联系安装商。",
                "Reduzca la carga conectada, revise el cableado y los interruptores de CA y reinicie el inversor. Si se repite, llame al instalador.",
            ],
            Category::Grid => [
                "Check the grid voltage and frequency at the connection point and the grid breaker; the inverter reconnects by itself when the grid is back within limits.",
                "检查并网点的电网电压、频率和电网断路器；电网恢复正常后逆变器会自动重新并网。",
                "Compruebe la tensión y la frecuencia de la red en el punto de conexión y su interruptor; el inversor se reconecta solo cuando la red vuelve a sus límites.",
            ],
            Category::Insulation => [
                "Switch off, then check the PV cables, connectors and modules for damaged insulation or moisture and the earth connection. Call the installer.",
                "关机后检查光伏电缆、连接器和组件的绝缘是否破损或受潮，以及接地连接。请联系安装商。",
                "Apague el equipo y revise cables, conectores y módulos FV en busca de aislamiento dañado o humedad, así como la conexión a tierra. Llame al instalador.",
            ],
            Category::Internal => [
                "Restart the inverter (AC and DC off for five minutes). If the fault stays, contact after-sales service with the serial number.",
                "重启逆变器（断开交流和直流五分钟）。若故障仍在，请携序列号联系售后服务。",
                "Reinicie el inversor (CA y CC desconectadas cinco minutos). Si el fallo persiste, contacte con el servicio posventa con el número de serie.",
            ],
            Category::Battery => [
                "Check the battery's breaker, cables and BMS state and the battery settings (type, voltages, currents); restart the battery and the inverter.",
                "检查电池断路器、电缆和 BMS 状态以及电池设置（类型、电压、电流）；重启电池和逆变器。",
                "Revise el interruptor, los cables y el estado del BMS de la batería y su configuración (tipo, tensiones, corrientes); reinicie la batería y el inversor.",
            ],
            Category::Communication => [
                "Check the communication cable and its connectors at both ends and the device addresses; the event clears when the link is back.",
                "检查通信线两端及其连接器和设备地址；通信恢复后事件自动清除。",
                "Revise el cable de comunicación y sus conectores en ambos extremos y las direcciones de los equipos; el evento se borra al recuperar el enlace.",
            ],
            Category::Temperature => [
                "Make sure the device is ventilated, out of direct sun and its fan turns; it resumes full power when it cools down.",
                "确保设备通风良好、避免阳光直射且风扇运转正常；温度降低后将恢复满功率运行。",
                "Asegúrese de que el equipo esté ventilado, sin sol directo y con el ventilador girando; recupera la potencia total al enfriarse.",
            ],
            Category::Settings => [
                "Check the device's settings and any remote stop or grid-operator (DRM) command; no repair is needed if the change was intended.",
                "检查设备设置以及是否有远程停机或电网调度（DRM）指令；如为有意更改则无需处理。",
                "Revise la configuración del equipo y cualquier orden de parada remota o del operador de red (DRM); si el cambio fue intencionado no hace falta reparar nada.",
            ],
            Category::Sensor => [
                "Check the sensor's cable and mounting and clean the sensor; replace it if the readings stay implausible.",
                "检查传感器的电缆和安装并清洁传感器；若读数仍不合理，请更换传感器。",
                "Revise el cable y el montaje del sensor y límpielo; sustitúyalo si las lecturas siguen siendo inverosímiles.",
            ],
        }
    }
}

fn def(
    family: DeviceFamily,
    code: String,
    severity: EventSeverity,
    word: Option<WordBit>,
    category: Category,
    meaning: [&'static str; 3],
) -> EventDef {
    EventDef {
        family,
        code,
        severity,
        word,
        meaning,
        solution: category.solution(),
    }
}

const FAULT_WORDS: [&str; 4] = [
    "fault_word_1",
    "fault_word_2",
    "fault_word_3",
    "fault_word_4",
];

static CATALOGUE: LazyLock<Vec<EventDef>> = LazyLock::new(|| {
    let mut all = Vec::new();
    for &(n, category, meaning) in inverter::FAULTS {
        let bit = n - 1;
        all.push(def(
            DeviceFamily::Inverter,
            format!("F{n:02}"),
            inverter::fault_word_severity(n),
            Some(WordBit {
                key: FAULT_WORDS[usize::from(bit / 16)],
                bit: bit % 16,
            }),
            category,
            meaning,
        ));
    }
    for &(n, category, meaning) in inverter::WARNINGS {
        all.push(def(
            DeviceFamily::Inverter,
            format!("W{n:02}"),
            EventSeverity::Warning,
            Some(WordBit {
                key: "warning_word",
                bit: n - 1,
            }),
            category,
            meaning,
        ));
    }
    for e in others::OTHERS {
        all.push(def(
            e.family,
            e.code.to_string(),
            e.severity,
            e.word,
            e.category,
            e.meaning,
        ));
    }
    all
});

/// Every event of every family.
pub fn catalogue() -> &'static [EventDef] {
    &CATALOGUE
}

/// The events of one family.
pub fn of_family(family: DeviceFamily) -> impl Iterator<Item = &'static EventDef> {
    catalogue().iter().filter(move |e| e.family == family)
}

pub fn lookup(family: DeviceFamily, code: &str) -> Option<&'static EventDef> {
    catalogue()
        .iter()
        .find(|e| e.family == family && e.code == code)
}

/// The word-driven events a report speaks about: each with whether its bit is set. Events
/// whose word the report does not carry are left out (neither opened nor closed).
pub fn word_events(
    family: DeviceFamily,
    value: impl Fn(&str) -> Option<f64>,
) -> Vec<(&'static EventDef, bool)> {
    of_family(family)
        .filter_map(|e| {
            let word = e.word?;
            let raw = value(word.key)?;
            if !raw.is_finite() || raw < 0.0 || raw > f64::from(u32::MAX) {
                return None;
            }
            // Exact for every u32 word.
            let bits = raw as u64;
            Some((e, bits >> word.bit & 1 == 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn every_event_has_a_meaning_and_a_solution_in_all_three_languages() {
        assert!(catalogue().len() > 80);
        for e in catalogue() {
            for lang in [Lang::En, Lang::Zh, Lang::Es] {
                assert!(!e.meaning(lang).trim().is_empty(), "{} {lang:?}", e.code);
                assert!(!e.solution(lang).trim().is_empty(), "{} {lang:?}", e.code);
            }
            assert_ne!(e.meaning[0], e.meaning[1], "{} zh untranslated", e.code);
            assert_ne!(e.meaning[0], e.meaning[2], "{} es untranslated", e.code);
        }
    }

    #[test]
    fn codes_are_unique_per_family_and_every_family_has_events() {
        let mut seen = HashSet::new();
        for e in catalogue() {
            assert!(seen.insert((e.family, e.code.as_str())), "{}", e.code);
        }
        for family in DeviceFamily::ALL {
            assert!(of_family(family).count() >= 3, "{family:?}");
        }
    }

    #[test]
    fn all_64_fault_bits_and_the_known_warning_bits_are_covered() {
        let fault_word: Vec<_> = of_family(DeviceFamily::Inverter)
            .filter(|e| e.word.is_some_and(|w| w.key.starts_with("fault_word")))
            .collect();
        assert_eq!(fault_word.len(), 64);
        let f64_ = lookup(DeviceFamily::Inverter, "F64").map(|e| e.word);
        assert_eq!(
            f64_,
            Some(Some(WordBit {
                key: "fault_word_4",
                bit: 15
            }))
        );
        let f01 = lookup(DeviceFamily::Inverter, "F01").and_then(|e| e.word);
        assert_eq!(
            f01,
            Some(WordBit {
                key: "fault_word_1",
                bit: 0
            })
        );
        let w31 = lookup(DeviceFamily::Inverter, "W31").and_then(|e| e.word);
        assert_eq!(
            w31,
            Some(WordBit {
                key: "warning_word",
                bit: 30
            })
        );
    }

    #[test]
    fn a_fault_word_bit_is_not_always_a_fault() {
        let severity = |code: &str| lookup(DeviceFamily::Inverter, code).map(|e| e.severity);
        // A working mode change and a grid operator's stop are notices, not faults.
        assert_eq!(severity("F13"), Some(EventSeverity::Info));
        assert_eq!(severity("F62"), Some(EventSeverity::Info));
        // The grid out of range is an alarm: the inverter waits and reconnects by itself.
        for code in ["F35", "F36", "F42", "F47", "F48"] {
            assert_eq!(severity(code), Some(EventSeverity::Warning), "{code}");
        }
        // Hardware trouble stays a fault.
        for code in ["F01", "F02", "F41", "F46", "F56", "F63", "F64"] {
            assert_eq!(severity(code), Some(EventSeverity::Fault), "{code}");
        }
        // The catalogue has every category.
        for s in [
            EventSeverity::Info,
            EventSeverity::Warning,
            EventSeverity::Fault,
        ] {
            assert!(catalogue().iter().any(|e| e.severity == s), "{s:?}");
            assert_eq!(EventSeverity::from_key(s.key()), s);
        }
        assert_eq!(
            [
                EventSeverity::Info,
                EventSeverity::Warning,
                EventSeverity::Fault
            ]
            .map(|s| s.level()),
            [1, 2, 3]
        );
    }

    #[test]
    fn word_bits_open_and_clear_their_events() {
        let events = word_events(DeviceFamily::Inverter, |k| match k {
            "fault_word_3" => Some(f64::from(1u16 << 2)), // F35 no grid
            "fault_word_1" | "fault_word_2" | "fault_word_4" => Some(0.0),
            "warning_word" => Some(f64::from(1u32 << 30)), // W31 BMS lost
            _ => None,
        });
        let active: Vec<&str> = events
            .iter()
            .filter(|(_, on)| *on)
            .map(|(e, _)| e.code.as_str())
            .collect();
        assert_eq!(active, vec!["F35", "W31"]);
        assert_eq!(events.len(), 64 + 5);
        assert!(word_events(DeviceFamily::Inverter, |_| None).is_empty());
    }
}
