//! The `jobs` crate's integration tests, one binary: a module per job, run on every available
//! backend (SQLite always, PostgreSQL when `PORTAL_TEST_DATABASE_URL` is set). The jobs whose
//! tests need users, plants and events set up over HTTP are tested in `api`'s binary
//! (alarm_mail, dr_dispatch, reports), calling these same functions; the VTN sync's
//! conversation with a VTN is tested there too (`oadr_*`, against a scripted or a real VTN).

mod battery_health;
mod common;
mod dispatch;
mod housekeeping;
mod mail_queue;
mod vtn_sync;
mod webhooks;
