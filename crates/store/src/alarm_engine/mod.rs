//! The alarm engine's storage (docs/alarms.md): a company's rules ([`rules`]), the cases they
//! open with their history ([`cases`]; read as people see them: [`case_reads`]), the hook
//! every case change calls inside its transaction ([`hook`]), the set-based reads the engine
//! evaluates over ([`inputs`]), and what it remembers of inverters' PV inputs
//! ([`string_inputs`]).

pub mod case_reads;
#[macro_use]
pub mod cases;
pub mod hook;
pub mod inputs;
pub mod rules;
pub mod string_inputs;
