//! The alarm engine's use cases (docs/alarms.md): a company's rules ([`rules`]: company
//! administrators list, add, tune and delete them) and its cases ([`cases`]: whoever sees a
//! plant and the events screen reads and acknowledges them). The engine itself is
//! `jobs::alarm_engine`.

pub mod cases;
pub mod rules;
