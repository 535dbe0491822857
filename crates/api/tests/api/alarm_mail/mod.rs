//! Alarm e-mails end to end against a real SMTP server on loopback (aiosmtpd, from the venv
//! `harness/smtp/venv.sh` makes; `make test-rust` exports `PORTAL_TEST_AIOSMTPD`): the mail
//! worker's retries while the server is down, digests when 500 gateways fall silent, the quiet
//! period, fault and recovery mails, the recipient's language and who is (not) mailed.

use domain::ids::PlantId;
mod delivery;
mod digest;
mod faults;
mod offline_delay;

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

pub(crate) const MIN: i64 = 60_000;

/// The venv's python with aiosmtpd, or `None` (the test then says why it skips).
pub(crate) fn aiosmtpd() -> Option<String> {
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

pub(crate) fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("addr").port()
}

/// aiosmtpd writing every message it receives into a maildir.
pub(crate) struct Smtp {
    child: Child,
    python: String,
    dir: PathBuf,
}

impl Smtp {
    pub(crate) async fn start(python: &str, port: u16) -> Smtp {
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
    pub(crate) fn mails(&self) -> Vec<Value> {
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

    pub(crate) fn mails_to(&self, to: &str) -> Vec<Value> {
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

pub(crate) fn mailer(port: u16) -> Mailer {
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

pub(crate) fn settings() -> AlarmSettings {
    AlarmSettings {
        quiet_ms: 60 * MIN,
        public_url: "https://portal.example.com".into(),
    }
}

pub(crate) async fn notify(app: &App, user: UserId, email: &str, minutes: i64, lang: &str) {
    let choice = NotifyChoice {
        enabled: true,
        email,
        offline_minutes: minutes,
        lang,
    };
    assert!(app.store.set_notify(user, &choice).await.expect("notify"));
}

pub(crate) async fn plant(app: &App, owner: UserId, company: CompanyId, name: &str) -> i64 {
    (app.store
        .create_plant(
            owner,
            Some(company),
            owner,
            &fields(name),
            domain::time::now_ms(),
        )
        .await
        .expect("plant"))
    .0
}

pub(crate) fn fields(name: &str) -> PlantFields {
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
        tilt: None,
        azimuth: None,
    }
}

/// A gateway bound to `plant`, last heard at `heard`.
pub(crate) async fn gateway(
    app: &App,
    plant: i64,
    owner: UserId,
    company: CompanyId,
    sn: &str,
) -> i64 {
    let id = app
        .store
        .create_gateway(sn, "KEY12345", "", domain::time::now_ms())
        .await
        .expect("gateway");
    app.store
        .bind_gateway(
            id,
            PlantId(plant),
            owner,
            Some(company),
            domain::time::now_ms(),
        )
        .await
        .expect("bound");
    id.0
}
