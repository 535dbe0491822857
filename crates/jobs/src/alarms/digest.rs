//! One recipient's alarm e-mail: everything they are due in one tick, grouped by plant, in
//! their language, with a link to each plant. Pure: the job gathers, this writes.

use domain::ids::PlantId;
use std::collections::BTreeMap;

use domain::Lang;
use store::alarms::AlarmPlace;

use service::local_time::{local_time, zone};

/// One thing to tell about a plant. Kept as JSON while quiet hours hold it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "line", rename_all = "camelCase")]
pub enum Line {
    /// A gateway silent since its last message.
    Offline { sn: String, last_message: i64 },
    /// A fault occurrence opened on a device.
    Fault {
        sn: String,
        code: String,
        meaning: String,
        opened_at: i64,
    },
    /// A gateway mailed as offline was heard again.
    Online { sn: String, at: i64 },
    /// Every device of a mailed fault occurrence recovered.
    FaultCleared {
        sn: String,
        code: String,
        meaning: String,
        at: i64,
    },
    /// An alarm case of the alarm rules opened (`rule`: its kind; `subject`: empty for the
    /// plant, a device SN, `SN/pv3`, `SN/F13`).
    CaseOpened {
        rule: String,
        subject: String,
        opened_at: i64,
    },
    /// A mailed case closed on recovery.
    CaseClosed {
        rule: String,
        subject: String,
        at: i64,
    },
}

impl Line {
    pub fn is_alarm(&self) -> bool {
        matches!(
            self,
            Line::Offline { .. } | Line::Fault { .. } | Line::CaseOpened { .. }
        )
    }

    /// The alarm kind (`offline`, `fault`, `case`).
    pub fn kind(&self) -> &'static str {
        match self {
            Line::Offline { .. } | Line::Online { .. } => "offline",
            Line::Fault { .. } | Line::FaultCleared { .. } => "fault",
            Line::CaseOpened { .. } | Line::CaseClosed { .. } => "case",
        }
    }

    /// A case's webhooks are queued by the case itself (`store::alarm_engine::hook`), not by
    /// the e-mail job.
    pub fn is_case(&self) -> bool {
        self.kind() == "case"
    }

    /// The SN it is about (a gateway's or a device's).
    pub fn sn(&self) -> &str {
        match self {
            Line::Offline { sn, .. }
            | Line::Online { sn, .. }
            | Line::Fault { sn, .. }
            | Line::FaultCleared { sn, .. }
            | Line::CaseOpened { subject: sn, .. }
            | Line::CaseClosed { subject: sn, .. } => sn,
        }
    }

    /// When it happened.
    pub fn at(&self) -> i64 {
        match self {
            Line::Offline { last_message, .. } => *last_message,
            Line::Fault { opened_at, .. } | Line::CaseOpened { opened_at, .. } => *opened_at,
            Line::Online { at, .. }
            | Line::FaultCleared { at, .. }
            | Line::CaseClosed { at, .. } => *at,
        }
    }

    /// The line in a few words, as a webhook's `title`.
    pub fn title(&self, lang: Lang) -> String {
        let t = Texts::of(lang);
        match self {
            Line::Offline { sn, .. } => format!("{}: {sn}", t.offline),
            Line::Online { sn, .. } => format!("{}: {sn}", t.online),
            Line::Fault {
                sn, code, meaning, ..
            } => format!("{}: {sn} {}", t.fault, code_text(code, meaning)),
            Line::FaultCleared {
                sn, code, meaning, ..
            } => format!("{}: {sn} {}", t.cleared, code_text(code, meaning)),
            Line::CaseOpened { rule, subject, .. } => case_text(rule, subject, lang),
            Line::CaseClosed { rule, subject, .. } => {
                format!("{} ({})", case_text(rule, subject, lang), t.recovered)
            }
        }
    }

    /// What it was computed from, as a webhook's `detail`.
    pub fn detail(&self) -> serde_json::Value {
        match self {
            Line::Offline { sn, last_message } => {
                serde_json::json!({"gatewaySn": sn, "lastMessage": last_message})
            }
            Line::Online { sn, at } => serde_json::json!({"gatewaySn": sn, "onlineAt": at}),
            Line::Fault {
                code,
                meaning,
                opened_at,
                ..
            } => serde_json::json!({"code": code, "meaning": meaning, "openedAt": opened_at}),
            Line::FaultCleared {
                code, meaning, at, ..
            } => serde_json::json!({"code": code, "meaning": meaning, "clearedAt": at}),
            Line::CaseOpened {
                rule, opened_at, ..
            } => {
                serde_json::json!({"rule": rule, "openedAt": opened_at})
            }
            Line::CaseClosed { rule, at, .. } => serde_json::json!({"rule": rule, "closedAt": at}),
        }
    }
}

/// A plant's part of a digest.
#[derive(Debug, Clone)]
pub struct PlantLines {
    pub place: AlarmPlace,
    pub lines: Vec<Line>,
}

/// One recipient's e-mail, before it is written.
#[derive(Debug, Clone, Default)]
pub struct Digest {
    /// By plant id, so plants come in a stable order.
    pub plants: BTreeMap<PlantId, PlantLines>,
}

impl Digest {
    pub fn add(&mut self, place: &AlarmPlace, line: Line) {
        self.plants
            .entry(place.plant_id)
            .or_insert_with(|| PlantLines {
                place: place.clone(),
                lines: Vec::new(),
            })
            .lines
            .push(line);
    }

    pub fn is_empty(&self) -> bool {
        self.plants.is_empty()
    }

    /// The subject and the plain-text body.
    pub fn write(
        &self,
        lang: Lang,
        name: &str,
        public_url: &str,
        quiet_minutes: i64,
    ) -> (String, String) {
        let lines = self.plants.values().flat_map(|p| p.lines.iter());
        let alarms = lines.clone().filter(|l| l.is_alarm()).count();
        let recovered = lines.count() - alarms;
        let plants = self.plants.len();
        let t = Texts::of(lang);
        let subject = (t.subject)(alarms, recovered, plants);
        let mut body = format!("{}\n\n{}\n", (t.hello)(name), t.intro);
        for p in self.plants.values() {
            let tz = zone(&p.place.timezone);
            let when = |ms: i64| format!("{} ({})", local_time(ms, tz), p.place.timezone);
            body.push_str(&format!(
                "\n{}\n{}\n",
                p.place.plant_name,
                plant_link(public_url, p.place.plant_id, p.place.plant_type)
            ));
            for line in &p.lines {
                let text = match line {
                    Line::Offline { sn, last_message } => {
                        format!(
                            "{}: {sn}, {} {}",
                            t.offline,
                            t.last_message,
                            when(*last_message)
                        )
                    }
                    Line::Fault {
                        sn,
                        code,
                        meaning,
                        opened_at,
                    } => format!(
                        "{}: {sn} {}, {} {}",
                        t.fault,
                        code_text(code, meaning),
                        t.since,
                        when(*opened_at)
                    ),
                    Line::Online { sn, at } => {
                        format!("{}: {sn}, {} {}", t.online, t.at, when(*at))
                    }
                    Line::FaultCleared {
                        sn,
                        code,
                        meaning,
                        at,
                    } => format!(
                        "{}: {sn} {}, {} {}",
                        t.cleared,
                        code_text(code, meaning),
                        t.at,
                        when(*at)
                    ),
                    Line::CaseOpened {
                        rule,
                        subject,
                        opened_at,
                    } => format!(
                        "{}, {} {}",
                        case_text(rule, subject, lang),
                        t.since,
                        when(*opened_at)
                    ),
                    Line::CaseClosed { rule, subject, at } => format!(
                        "{}: {}, {} {}",
                        t.recovered,
                        case_text(rule, subject, lang),
                        t.at,
                        when(*at)
                    ),
                };
                body.push_str(&format!("  - {text}\n"));
            }
        }
        body.push_str(&format!("\n{}\n", (t.footer)(quiet_minutes)));
        (subject, body)
    }
}

/// The web app's page of a plant (`/plants/overview/{id}/{type}`).
pub fn plant_link(public_url: &str, plant: PlantId, plant_type: i64) -> String {
    format!(
        "{}/plants/overview/{plant}/{plant_type}",
        public_url.trim_end_matches('/')
    )
}

/// A case in a few words: its rule's title and what it is about, unless the whole plant.
fn case_text(rule: &str, subject: &str, lang: Lang) -> String {
    let title = domain::alarm_rules::Kind::parse(rule).map_or(rule, |k| k.title(lang));
    if subject.is_empty() {
        title.to_string()
    } else {
        format!("{title}: {subject}")
    }
}

fn code_text(code: &str, meaning: &str) -> String {
    format!("{code} {meaning}").trim().to_string()
}

/// The words of an alarm e-mail in one language.
struct Texts {
    subject: fn(usize, usize, usize) -> String,
    hello: fn(&str) -> String,
    intro: &'static str,
    offline: &'static str,
    last_message: &'static str,
    fault: &'static str,
    since: &'static str,
    online: &'static str,
    cleared: &'static str,
    recovered: &'static str,
    at: &'static str,
    footer: fn(i64) -> String,
}

impl Texts {
    fn of(lang: Lang) -> Texts {
        match lang {
            Lang::En => Texts {
                subject: |a, r, p| format!("Plant alarms: {a} new, {r} recovered ({p} plants)"),
                hello: |n| format!("Hello {n},"),
                intro: "Your plants need attention:",
                offline: "Gateway offline",
                last_message: "last message",
                fault: "Fault",
                since: "since",
                online: "Back online",
                cleared: "Fault cleared",
                recovered: "Recovered",
                at: "at",
                footer: |q| {
                    format!(
                        "You receive these e-mails because alarm e-mails are on in your personal \
                         settings. At most one e-mail per plant and alarm kind is sent every {q} \
                         minutes."
                    )
                },
            },
            Lang::Zh => Texts {
                subject: |a, r, p| format!("电站告警：新告警 {a} 条，已恢复 {r} 条（{p} 个电站）"),
                hello: |n| format!("{n}，您好："),
                intro: "以下电站需要关注：",
                offline: "网关离线",
                last_message: "最后消息时间",
                fault: "设备故障",
                since: "开始于",
                online: "网关恢复在线",
                cleared: "故障已恢复",
                recovered: "已恢复",
                at: "时间",
                footer: |q| {
                    format!(
                        "您收到此邮件，是因为您在个人设置中开启了告警邮件。每个电站每类告警在 {q} \
                         分钟内最多发送一封邮件。"
                    )
                },
            },
            Lang::Es => Texts {
                subject: |a, r, p| {
                    format!("Alarmas de plantas: {a} nuevas, {r} recuperadas ({p} plantas)")
                },
                hello: |n| format!("Hola, {n}:"),
                intro: "Sus plantas necesitan atención:",
                offline: "Pasarela sin conexión",
                last_message: "último mensaje",
                fault: "Fallo",
                since: "desde",
                online: "Pasarela de nuevo en línea",
                cleared: "Fallo resuelto",
                recovered: "Recuperado",
                at: "a las",
                footer: |q| {
                    format!(
                        "Recibe estos correos porque los correos de alarma están activados en su \
                         configuración personal. Se envía como máximo un correo por planta y tipo \
                         de alarma cada {q} minutos."
                    )
                },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::ids::UserId;

    fn place(id: i64) -> AlarmPlace {
        AlarmPlace {
            user_id: UserId(1),
            email: "ann@example.com".into(),
            lang: "es".into(),
            user_name: "Ann".into(),
            plant_id: PlantId(id),
            plant_name: format!("Plant {id}"),
            plant_type: 2,
            timezone: "Europe/Madrid".into(),
            wants_mail: true,
            quiet_enabled: false,
            quiet_from: 0,
            quiet_to: 0,
            quiet_zone: "UTC".into(),
        }
    }

    #[test]
    fn a_digest_lists_each_plant_once_with_its_link_and_every_line() {
        let mut d = Digest::default();
        for plant in [2, 1] {
            d.add(
                &place(plant),
                Line::Offline {
                    sn: format!("GW{plant}"),
                    last_message: 1_700_000_000_000,
                },
            );
        }
        d.add(
            &place(1),
            Line::Online {
                sn: "GW9".into(),
                at: 1_700_000_000_000,
            },
        );
        let (subject, body) = d.write(Lang::En, "Ann", "https://p.example.com/", 60);
        assert_eq!(subject, "Plant alarms: 2 new, 1 recovered (2 plants)");
        assert!(body.starts_with("Hello Ann,"), "{body}");
        assert_eq!(
            body.matches("https://p.example.com/plants/overview/1/2")
                .count(),
            1
        );
        assert!(body.find("Plant 1") < body.find("Plant 2"), "{body}");
        assert!(
            body.contains("Gateway offline: GW1, last message 2023-11-14 23:13:20 (Europe/Madrid)")
        );
        assert!(body.contains("Back online: GW9"));
        assert!(body.contains("every 60 minutes"));
    }

    #[test]
    fn a_case_is_told_by_its_rules_title_and_its_device() {
        let mut d = Digest::default();
        d.add(
            &place(1),
            Line::CaseOpened {
                rule: "device_silent".into(),
                subject: "INV7".into(),
                opened_at: 1_700_000_000_000,
            },
        );
        d.add(
            &place(1),
            Line::CaseClosed {
                rule: "no_production".into(),
                subject: String::new(),
                at: 1_700_000_000_000,
            },
        );
        let (subject, body) = d.write(Lang::En, "Ann", "http://x", 60);
        assert_eq!(subject, "Plant alarms: 1 new, 1 recovered (1 plants)");
        assert!(
            body.contains("Device not reporting: INV7, since 2023-11-14 23:13:20"),
            "{body}"
        );
        assert!(
            body.contains("Recovered: No production in daylight, at"),
            "{body}"
        );
        let (_, body) = d.write(Lang::Es, "Ana", "http://x", 60);
        assert!(body.contains("Dispositivo sin datos: INV7"), "{body}");
    }

    #[test]
    fn the_recipients_language_is_used() {
        let mut d = Digest::default();
        d.add(
            &place(1),
            Line::Fault {
                sn: "INV1".into(),
                code: "F13".into(),
                meaning: String::new(),
                opened_at: 0,
            },
        );
        let (zh, body) = d.write(Lang::Zh, "安", "http://x", 60);
        assert!(
            zh.starts_with("电站告警") && body.contains("设备故障: INV1 F13"),
            "{body}"
        );
        let (es, body) = d.write(Lang::Es, "Ana", "http://x", 60);
        assert!(es.starts_with("Alarmas de plantas") && body.starts_with("Hola, Ana:"));
    }
}
