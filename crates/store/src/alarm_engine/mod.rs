//! The alarm engine's storage (docs/alarms.md): a company's rules ([`rules`]), the cases they
//! open with their history ([`cases`]), the hook every case change calls inside its
//! transaction ([`hook`]), and the set-based reads the engine evaluates over ([`inputs`]).

#[macro_use]
pub mod cases;
pub mod hook;
pub mod inputs;
pub mod rules;
