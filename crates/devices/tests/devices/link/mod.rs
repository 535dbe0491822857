//! The device link over real sockets: each test runs its own embedded broker on a free port.

use crate::link_common;

use std::{sync::atomic::Ordering, time::Duration};

use devices::{
    link::{DispatchError, parse::DropReason},
    report::{Command, Item},
};
use link_common::*;
use rumqttc::{ConnectReturnCode, ConnectionError, Incoming};
use store::commands::CommandStatus;

mod acks;
mod commands;
mod isolation;
mod signin;

const QUIET: Duration = Duration::from_millis(700);
