//! Batch writes in flight: each runs as a task of its own and is finished by the worker in the
//! order the batches were made, so answers, the latest-values cache and status-word events
//! follow the reports' order even when a later batch commits first.

use std::{collections::VecDeque, time::Instant};

use store::{Store, telemetry::TelemetryBatch};
use tokio::task::JoinHandle;

use super::{
    Latest,
    worker::{Done, WordCheck},
};

/// A telemetry submission checked and placed, waiting for its batch to commit.
pub(super) struct Pending {
    pub done: Done,
    pub latest: Vec<Latest>,
    pub words: Vec<WordCheck>,
    pub points: u64,
}

/// A batch whose write has ended.
pub(super) struct Written {
    pub result: Result<(), String>,
    pub pending: Vec<Pending>,
    /// Sample rows the batch held.
    pub samples: u64,
    /// When the batch was taken from the queue.
    pub started: Instant,
}

/// The writes started and not yet finished, oldest first.
#[derive(Default)]
pub(super) struct Writes {
    queue: VecDeque<JoinHandle<Written>>,
}

impl Writes {
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Starts writing `rows`; `pending` are answered when it is finished.
    pub fn start(
        &mut self,
        store: &Store,
        rows: TelemetryBatch,
        pending: Vec<Pending>,
        started: Instant,
    ) {
        let store = store.clone();
        self.queue.push_back(tokio::spawn(async move {
            let result = store
                .write_telemetry_batch(&rows)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string());
            Written {
                result,
                pending,
                samples: rows.samples.len() as u64,
                started,
            }
        }));
    }

    /// Waits for the oldest write (forever when there is none); [`Writes::pop`] removes it
    /// once taken. Cancel-safe: the write goes on while nobody waits.
    pub async fn first(&mut self) -> Written {
        match self.queue.front_mut() {
            Some(task) => match task.await {
                Ok(written) => written,
                // The task panicked or was cancelled: its reports' channels are gone with it,
                // so the link sees them as not stored and has them sent again.
                Err(e) => Written {
                    result: Err(format!("write task ended: {e}")),
                    pending: Vec::new(),
                    samples: 0,
                    started: Instant::now(),
                },
            },
            None => std::future::pending().await,
        }
    }

    pub fn pop(&mut self) {
        self.queue.pop_front();
    }
}
