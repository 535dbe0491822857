//! Alarm e-mails end to end against a real SMTP server on loopback (aiosmtpd, from the venv
//! `harness/smtp/venv.sh` makes; `make test-rust` exports `PORTAL_TEST_AIOSMTPD`): the mail
//! worker's retries while the server is down, digests when 500 gateways fall silent, the quiet
//! period, fault and recovery mails, the recipient's language and who is (not) mailed.

use crate::common;
use domain::DeviceFamily;

use std::{
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::Duration,
};

use common::App;
use devices::ingest::status::offline_after_ms;
use domain::{
    ids::{CompanyId, UserId},
    user::BuiltinRole,
};
use jobs::{
    alarms::{AlarmSettings, tick},
    mail_queue::deliver_due,
};
use serde_json::{Value, json};
use service::mailer::{Mailer, SmtpConfig};
use store::{outbox::NewMail, plants::PlantFields, users::NotifyChoice};

const MIN: i64 = 60_000;

/// The venv's python with aiosmtpd, or `None` (the test then says why it skips).
fn aiosmtpd() -> Option<String> {
    let python = std::env::var("PORTAL_TEST_AIOSMTPD")
        .ok()
        .filter(|p| !p.is_empty());
    if python.is_none() {
        eprintln!(
            "skipped: PORTAL_TEST_AIOSMTPD is not set (make test-rust sets it to the python of \
             harness/smtp/venv.sh)"
        );
    }
    python
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("addr").port()
}

/// aiosmtpd writing every message it receives into a maildir.
struct Smtp {
    child: Child,
    python: String,
    dir: PathBuf,
}

impl Smtp {
    async fn start(python: &str, port: u16) -> Smtp {
        let dir = std::env::temp_dir()
            .join("portal-smtp-tests")
            .join(format!("{}-{port}", std::process::id()));
        // aiosmtpd makes the maildir (with its tmp, new and cur) when it is missing.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.parent().expect("parent")).expect("maildir parent");
        // Held by `Smtp` at once, so that it is killed (on drop) whatever happens next.
        let smtp = Smtp {
            child: Command::new(python)
                .args(["-m", "aiosmtpd", "-n", "-c", "aiosmtpd.handlers.Mailbox"])
                .arg(&dir)
                .args(["-l", &format!("127.0.0.1:{port}")])
                .stdout(Stdio::null())
                .spawn()
                .expect("aiosmtpd starts"),
            python: python.to_string(),
            dir,
        };
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return smtp;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("aiosmtpd did not listen on {port}");
    }

    /// Every message received, decoded by Python's `email` package: `{to, subject, body,
    /// attachments: [{name, size, sha}]}`.
    fn mails(&self) -> Vec<Value> {
        let out = Command::new(&self.python)
            .arg("-c")
            .arg(PARSE_MAILDIR)
            .arg(&self.dir)
            .output()
            .expect("maildir read");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("maildir json")
    }

    fn mails_to(&self, to: &str) -> Vec<Value> {
        self.mails().into_iter().filter(|m| m["to"] == to).collect()
    }
}

impl Drop for Smtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

const PARSE_MAILDIR: &str = r#"
import email, email.policy, hashlib, json, os, sys
out = []
for sub in ("new", "cur"):
    d = os.path.join(sys.argv[1], sub)
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        with open(os.path.join(d, name), "rb") as f:
            m = email.message_from_binary_file(f, policy=email.policy.default)
        body = m.get_body(preferencelist=("plain",))
        out.append({
            "to": str(m["to"]), "subject": str(m["subject"]),
            "body": body.get_content() if body else "",
            "attachments": [{"name": a.get_filename(), "size": len(a.get_content()),
                             "sha": hashlib.sha256(a.get_content()).hexdigest()}
                            for a in m.iter_attachments()],
        })
print(json.dumps(out))
"#;

fn mailer(port: u16) -> Mailer {
    Mailer::new(Some(&SmtpConfig {
        host: "127.0.0.1".into(),
        port,
        username: String::new(),
        password: String::new(),
        from: "portal@example.com".into(),
        security: "none".into(),
    }))
    .expect("mailer")
}

fn settings() -> AlarmSettings {
    AlarmSettings {
        quiet_ms: 60 * MIN,
        public_url: "https://portal.example.com".into(),
    }
}

async fn notify(app: &App, user: UserId, email: &str, minutes: i64, lang: &str) {
    let choice = NotifyChoice {
        enabled: true,
        email,
        offline_minutes: minutes,
        lang,
    };
    assert!(app.store.set_notify(user, &choice).await.expect("notify"));
}

async fn plant(app: &App, owner: UserId, company: CompanyId, name: &str) -> i64 {
    app.store
        .create_plant(
            owner,
            Some(company),
            owner,
            &fields(name),
            domain::time::now_ms(),
        )
        .await
        .expect("plant")
}

fn fields(name: &str) -> PlantFields {
    PlantFields {
        name: name.into(),
        plant_type: 1,
        total_power: 10.0,
        join_date: "2026-01-01".into(),
        currency: "EUR".into(),
        timezone: "Europe/Madrid".into(),
        address: String::new(),
        lon: -3.7,
        lat: 40.4,
        image_url: String::new(),
        thumb_url: String::new(),
        principal: String::new(),
        phone: String::new(),
        email: String::new(),
        installer: String::new(),
        invest: 0.0,
    }
}

/// A gateway bound to `plant`, last heard at `heard`.
async fn gateway(app: &App, plant: i64, owner: UserId, company: CompanyId, sn: &str) -> i64 {
    let id = app
        .store
        .create_gateway(sn, "KEY12345", "", domain::time::now_ms())
        .await
        .expect("gateway");
    app.store
        .bind_gateway(id, plant, owner.0, Some(company.0), domain::time::now_ms())
        .await
        .expect("bound");
    id
}

#[tokio::test]
async fn queued_mail_waits_while_smtp_is_down_and_is_delivered_once_when_it_is_up() {
    let Some(python) = aiosmtpd() else { return };
    for app in common::spawn().await {
        let t0 = domain::time::now_ms();
        let report: Vec<u8> = (0..5000u32).map(|i| (i % 251) as u8).collect();
        let mail = NewMail {
            kind: "report".into(),
            recipient: "ann@example.com".into(),
            subject: "Monthly report".into(),
            body: "The report is attached.".into(),
            attachment: Some(("north-2026-10.xlsx".into(), report.clone())),
        };
        app.store.queue_mail(&mail, t0).await.expect("queued");

        // Without SMTP the mail waits in the outbox.
        let none = Mailer::new(None).expect("mailer");
        assert_eq!(
            deliver_due(&app.store, &none, t0).await.expect("pass").sent,
            0
        );
        assert_eq!(app.store.undelivered_mail().await.expect("count"), 1);

        let port = free_port();
        let mailer = mailer(port);
        let pass = deliver_due(&app.store, &mailer, t0).await.expect("pass");
        assert_eq!(
            (pass.sent, pass.failed),
            (0, 1),
            "[{}] server down",
            app.backend
        );
        let row = &app
            .store
            .outbox(Some("ann@example.com"), 1)
            .await
            .expect("outbox")[0];
        assert_eq!((row.attempts, row.sent_at), (1, None));
        assert!(row.last_error.is_some());
        assert_eq!(
            row.next_attempt_at,
            Some(t0 + 30_000),
            "first retry after 30 s"
        );
        let early = deliver_due(&app.store, &mailer, t0 + 29_000)
            .await
            .expect("pass");
        assert_eq!((early.sent, early.failed), (0, 0), "not due yet");
        let second = deliver_due(&app.store, &mailer, t0 + 30_000)
            .await
            .expect("pass");
        assert_eq!(second.failed, 1);
        let row = &app
            .store
            .outbox(Some("ann@example.com"), 1)
            .await
            .expect("outbox")[0];
        assert_eq!(row.next_attempt_at, Some(t0 + 90_000), "the delay doubles");

        let smtp = Smtp::start(&python, port).await;
        let pass = deliver_due(&app.store, &mailer, t0 + 90_000)
            .await
            .expect("pass");
        assert_eq!(
            (pass.sent, pass.failed),
            (1, 0),
            "[{}] server up",
            app.backend
        );
        let later = deliver_due(&app.store, &mailer, t0 + 3_600_000)
            .await
            .expect("pass");
        assert_eq!(later.sent, 0, "sent once");
        let mails = smtp.mails();
        assert_eq!(mails.len(), 1, "{mails:?}");
        assert_eq!(mails[0]["subject"], "Monthly report");
        assert_eq!(mails[0]["attachments"][0]["name"], "north-2026-10.xlsx");
        assert_eq!(mails[0]["attachments"][0]["size"], report.len());
        let row = &app
            .store
            .outbox(Some("ann@example.com"), 1)
            .await
            .expect("outbox")[0];
        assert_eq!(row.attempts, 3);
        assert!(row.sent_at.is_some());
        assert_eq!(app.store.undelivered_mail().await.expect("count"), 0);
    }
}

#[tokio::test]
async fn the_offline_delay_is_a_notify_setting_between_5_and_1440_minutes() {
    for app in common::spawn().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let r = app.get("/api/v1/user/notify/enable", Some(&ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["offlineMinutes"], 30, "default");
        for bad in [json!(4), json!(1441), json!("soon")] {
            let body = json!({"enabled": true, "email": "ann@example.com", "offlineMinutes": bad});
            let r = app.post("/api/v1/user/notify", body, Some(&ann)).await;
            r.expect_code(4);
            assert!(r.msg().contains("offlineMinutes"), "{bad}: {}", r.msg());
        }
        let body = json!({"enabled": true, "email": "ann@example.com", "offlineMinutes": 45});
        app.post("/api/v1/user/notify?lan=zh", body, Some(&ann))
            .await
            .expect_code(0);
        let r = app.get("/api/v1/user/notify/enable", Some(&ann)).await;
        assert_eq!(
            r.data(),
            &json!({"enabled": true, "email": "ann@example.com", "offlineMinutes": 45})
        );
        let user = app
            .store
            .user_by_account("ann@example.com")
            .await
            .expect("user")
            .expect("ann");
        assert_eq!(
            user.notify_lang, "zh",
            "e-mails in the language of the request"
        );
        // Left out, the delay stays.
        let body = json!({"enabled": false});
        app.post("/api/v1/user/notify", body, Some(&ann))
            .await
            .expect_code(0);
        let r = app.get("/api/v1/user/notify/enable", Some(&ann)).await;
        assert_eq!(r.data()["offlineMinutes"], 45);
    }
}

#[tokio::test]
async fn five_hundred_silent_gateways_make_one_digest_per_recipient_and_the_quiet_period_holds() {
    let Some(python) = aiosmtpd() else { return };
    for app in common::spawn().await {
        let ours = app.company("Sunny Installers").await;
        let theirs = app.company("Other Installers").await;
        let (ann, ann_token) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let ivan = app
            .user(
                "ivan@example.com",
                "secret123",
                BuiltinRole::CompanyAdmin,
                Some(ours),
            )
            .await;
        let zoe = app
            .user(
                "zoe@example.com",
                "secret123",
                BuiltinRole::CompanyStaff,
                Some(theirs),
            )
            .await;
        let sam = app
            .user(
                "sam@example.com",
                "secret123",
                BuiltinRole::PlantOwner,
                None,
            )
            .await;
        notify(&app, ann, "ann.alerts@example.com", 10, "es").await;
        notify(&app, ivan, "ivan@example.com", 30, "en").await;
        notify(&app, zoe, "zoe@example.com", 5, "en").await;
        notify(&app, sam, "sam@example.com", 5, "en").await;

        let mut plants = Vec::new();
        let mut gateways = Vec::new();
        for p in 0..50 {
            let id = plant(&app, ann, ours, &format!("Roof {p:02}")).await;
            plants.push(id);
            for g in 0..10 {
                let sn = format!("GW{p:02}{g:02}");
                gateways.push((gateway(&app, id, ann, ours, &sn).await, sn));
            }
        }
        // Ann's own home plant (no company: Ivan does not see it) is shared with Sam: shares
        // are not mailed.
        let home = app
            .store
            .create_plant(ann, None, ann, &fields("Home"), domain::time::now_ms())
            .await
            .expect("home");
        let home_gw = app
            .store
            .create_gateway("GWHOME", "KEY12345", "", domain::time::now_ms())
            .await
            .expect("gateway");
        app.store
            .bind_gateway(home_gw, home, ann.0, None, domain::time::now_ms())
            .await
            .expect("bound");
        gateways.push((home_gw, "GWHOME".to_string()));
        common::fixtures::share(&app, &ann_token, home, &[("sam@example.com", "visitor")]).await;
        // Heard after they were bound (a message older than the binding does not count).
        let t0 = domain::time::now_ms() + 1;
        let heard: Vec<(String, i64)> = gateways.iter().map(|(_, sn)| (sn.clone(), t0)).collect();
        app.store.gateways_heard(&heard).await.expect("heard");
        for (id, _) in &gateways {
            app.store
                .set_gateway_silent(*id, Some(t0), t0 + 1)
                .await
                .expect("silent");
        }
        let offline = t0 + offline_after_ms(300);

        // Before Ann's delay of 10 minutes nothing; then one e-mail for her 500 gateways.
        let s = settings();
        assert_eq!(
            tick(&app.store, &s, offline + 9 * MIN)
                .await
                .expect("tick")
                .mails,
            0
        );
        let started = std::time::Instant::now();
        let first = tick(&app.store, &s, offline + 10 * MIN)
            .await
            .expect("tick");
        eprintln!(
            "[{}] one alarm run over 501 silent gateways: {} ms",
            app.backend,
            started.elapsed().as_millis()
        );
        assert_eq!((first.mails, first.alarms), (1, 501), "[{}]", app.backend);
        // Ivan's delay is 30 minutes; Ann is not mailed twice.
        let second = tick(&app.store, &s, offline + 30 * MIN)
            .await
            .expect("tick");
        assert_eq!((second.mails, second.alarms), (1, 500), "[{}]", app.backend);

        let port = free_port();
        let smtp = Smtp::start(&python, port).await;
        let pass = deliver_due(&app.store, &mailer(port), offline + 31 * MIN)
            .await
            .expect("pass");
        assert_eq!(pass.sent, 2);
        let to_ann = smtp.mails_to("ann.alerts@example.com");
        assert_eq!(to_ann.len(), 1);
        assert_eq!(
            to_ann[0]["subject"],
            "Alarmas de plantas: 501 nuevas, 0 recuperadas (51 plantas)"
        );
        let body = to_ann[0]["body"].as_str().expect("body");
        assert!(body.starts_with("Hola, ann:"), "{body}");
        for id in &plants {
            let link = format!("https://portal.example.com/plants/overview/{id}/1\n");
            assert_eq!(body.matches(&link).count(), 1, "{link}");
        }
        for (_, sn) in &gateways {
            assert!(
                body.contains(&format!("Pasarela sin conexión: {sn},")),
                "{sn}"
            );
        }
        let to_ivan = smtp.mails_to("ivan@example.com");
        assert_eq!(to_ivan.len(), 1);
        assert!(
            to_ivan[0]["subject"]
                .as_str()
                .is_some_and(|s| s.starts_with("Plant alarms: 500 new")),
            "{}",
            to_ivan[0]["subject"]
        );
        assert!(
            smtp.mails_to("zoe@example.com").is_empty(),
            "another company"
        );
        assert!(smtp.mails_to("sam@example.com").is_empty(), "a share");

        // One gateway comes back: its recovery is mailed to both (recoveries are their own
        // kind); it falls silent again and the quiet period holds the second alarm back.
        let (gw0, sn0) = gateways[0].clone();
        let back = t0 + 40 * MIN;
        app.store
            .gateways_heard(&[(sn0.clone(), back)])
            .await
            .expect("heard");
        let r = tick(&app.store, &s, back + 1000).await.expect("tick");
        assert_eq!(
            (r.mails, r.recoveries, r.alarms),
            (2, 2, 0),
            "[{}]",
            app.backend
        );
        app.store
            .set_gateway_silent(gw0, Some(back), back + 1)
            .await
            .expect("silent");
        let again = back + offline_after_ms(300) + 10 * MIN;
        // Ann's alarm went at `offline + 10 min`: quiet until an hour after that.
        assert!(again < offline + 70 * MIN);
        assert_eq!(tick(&app.store, &s, again).await.expect("tick").mails, 0);
        let after_quiet = tick(&app.store, &s, offline + 71 * MIN)
            .await
            .expect("tick");
        assert_eq!(
            (after_quiet.mails, after_quiet.alarms),
            (1, 1),
            "Ann, after the quiet period"
        );
        let ivan_late = tick(&app.store, &s, offline + 91 * MIN)
            .await
            .expect("tick");
        assert_eq!(
            (ivan_late.mails, ivan_late.alarms),
            (1, 1),
            "Ivan, after his"
        );
        deliver_due(&app.store, &mailer(port), offline + 92 * MIN)
            .await
            .expect("pass");
        let to_ann = smtp.mails_to("ann.alerts@example.com");
        assert_eq!(to_ann.len(), 3, "alarm, recovery, alarm again");
        assert!(to_ann.iter().any(|m| {
            m["body"]
                .as_str()
                .is_some_and(|b| b.contains(&format!("Pasarela de nuevo en línea: {sn0},")))
        }));
        assert_eq!(smtp.mails_to("ivan@example.com").len(), 3);
        assert!(smtp.mails_to("zoe@example.com").is_empty());
    }
}

#[tokio::test]
async fn a_fault_and_its_recovery_are_mailed_in_the_recipients_language() {
    let Some(python) = aiosmtpd() else { return };
    for app in common::spawn().await {
        let ours = app.company("Sunny Installers").await;
        let theirs = app.company("Other Installers").await;
        let ann = app
            .user(
                "ann@example.com",
                "secret123",
                BuiltinRole::PlantOwner,
                None,
            )
            .await;
        let ivan = app
            .user(
                "ivan@example.com",
                "secret123",
                BuiltinRole::CompanyStaff,
                Some(ours),
            )
            .await;
        let zoe = app
            .user(
                "zoe@example.com",
                "secret123",
                BuiltinRole::CompanyAdmin,
                Some(theirs),
            )
            .await;
        let off = app
            .user(
                "otto@example.com",
                "secret123",
                BuiltinRole::CompanyStaff,
                Some(ours),
            )
            .await;
        notify(&app, ann, "ann@example.com", 30, "zh").await;
        notify(&app, ivan, "ivan@example.com", 30, "en").await;
        notify(&app, zoe, "zoe@example.com", 30, "en").await;
        let choice = NotifyChoice {
            enabled: false,
            email: "otto@example.com",
            offline_minutes: 30,
            lang: "en",
        };
        app.store.set_notify(off, &choice).await.expect("off");
        let roof = plant(&app, ann, ours, "North roof").await;
        let gw = gateway(&app, roof, ann, ours, "GWF01").await;
        let inverter = app
            .store
            .upsert_device("INV0001", gw, DeviceFamily::Inverter, 1, "p", "M1", None, 1)
            .await
            .expect("inverter");

        let s = settings();
        let t0 = domain::time::now_ms();
        assert_eq!(tick(&app.store, &s, t0).await.expect("tick").mails, 0);
        app.store
            .open_event(inverter, Some(roof), "W02", "warning", t0 + 1000)
            .await
            .expect("warning");
        app.store
            .open_event(inverter, Some(roof), "F13", "fault", t0 + 2000)
            .await
            .expect("fault");
        let opened = tick(&app.store, &s, t0 + 30_000).await.expect("tick");
        assert_eq!(
            (opened.mails, opened.alarms),
            (2, 2),
            "[{}] Ann and Ivan",
            app.backend
        );
        assert_eq!(
            tick(&app.store, &s, t0 + 60_000).await.expect("tick").mails,
            0
        );
        app.store
            .close_event(inverter, "F13", t0 + 90_000)
            .await
            .expect("closed");
        let cleared = tick(&app.store, &s, t0 + 120_000).await.expect("tick");
        assert_eq!(
            (cleared.mails, cleared.recoveries),
            (2, 2),
            "[{}]",
            app.backend
        );
        assert_eq!(
            tick(&app.store, &s, t0 + 150_000)
                .await
                .expect("tick")
                .mails,
            0
        );

        let port = free_port();
        let smtp = Smtp::start(&python, port).await;
        deliver_due(&app.store, &mailer(port), t0 + 150_000)
            .await
            .expect("pass");
        let to_ann = smtp.mails_to("ann@example.com");
        assert_eq!(to_ann.len(), 2, "{to_ann:?}");
        let bodies: Vec<&str> = to_ann.iter().filter_map(|m| m["body"].as_str()).collect();
        assert!(to_ann.iter().all(|m| {
            m["subject"]
                .as_str()
                .is_some_and(|s| s.starts_with("电站告警"))
        }));
        assert!(
            bodies.iter().any(|b| b.contains("设备故障: INV0001 F13")),
            "{bodies:?}"
        );
        assert!(
            bodies.iter().any(|b| b.contains("故障已恢复: INV0001 F13")),
            "{bodies:?}"
        );
        assert!(
            bodies.iter().all(|b| !b.contains("W02")),
            "warnings are not mailed"
        );
        let link = format!("https://portal.example.com/plants/overview/{roof}/1");
        assert!(bodies.iter().all(|b| b.contains(&link)));
        let to_ivan = smtp.mails_to("ivan@example.com");
        assert_eq!(to_ivan.len(), 2);
        assert!(to_ivan.iter().any(|m| {
            m["body"]
                .as_str()
                .is_some_and(|b| b.contains("Fault cleared: INV0001 F13"))
        }));
        assert!(
            smtp.mails_to("zoe@example.com").is_empty(),
            "another company"
        );
        assert!(smtp.mails_to("otto@example.com").is_empty(), "e-mails off");
    }
}
