//! Resident memory of this process, sampled once a second.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

/// VmRSS of this process in KiB (0 where /proc is not available).
pub fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Samples RSS every second on its own thread (so a busy runtime cannot skew the sampling).
pub struct RssSampler {
    stop: Arc<AtomicBool>,
    peak: Arc<AtomicU64>,
    samples: Arc<std::sync::Mutex<Vec<u64>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl RssSampler {
    pub fn start() -> RssSampler {
        let stop = Arc::new(AtomicBool::new(false));
        let peak = Arc::new(AtomicU64::new(rss_kib()));
        let samples = Arc::new(std::sync::Mutex::new(vec![rss_kib()]));
        let thread = {
            let (stop, peak, samples) = (stop.clone(), peak.clone(), samples.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_secs(1));
                    let now = rss_kib();
                    peak.fetch_max(now, Ordering::Relaxed);
                    if let Ok(mut s) = samples.lock() {
                        s.push(now);
                    }
                }
            })
        };
        RssSampler {
            stop,
            peak,
            samples,
            thread: Some(thread),
        }
    }

    pub fn peak_kib(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }

    /// Stops sampling; answers every sample taken (one a second).
    pub fn finish(mut self) -> Vec<u64> {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.samples.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

pub fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}
