//! A plant's power curves of one local day: PV, load, grid (+ import), battery (+ discharge) in
//! W, SOC in % and the generator when one ran, one point per 5 minutes of the plant's zone. The
//! plant's day chart and the day report draw the same curves from here. Each device's 5-minute
//! means are kept between reads ([`day_cache`]), and so are the bucket times of a day
//! ([`DayTimes`]): both live in [`CurveCaches`], one per process.

pub mod day_cache;

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use chrono::NaiveDate;
use chrono_tz::Tz;
use domain::{DeviceFamily, device::InverterKind};
use store::{Store, gateways::DeviceRow, plants::PlantRow};

use self::day_cache::{CURVES, Curve, DayCache, Extract, Means};
use crate::{
    local_time::local_time,
    readings::{self, Reading, inverter_grid, num_text, pv_power},
};

/// Width of one point of a day curve.
const BUCKET_MS: i64 = 5 * 60 * 1000;

/// What curves keep between reads (each process its own).
#[derive(Debug, Default)]
pub struct CurveCaches {
    pub means: DayCache,
    pub times: DayTimes,
}

/// A plant with what its curves read: its zone and its devices.
#[derive(Debug, Clone, Copy)]
pub struct PlantDevices<'a> {
    pub plant: &'a PlantRow,
    pub tz: Tz,
    pub devices: &'a [DeviceRow],
}

impl PlantDevices<'_> {
    fn has(&self, family: DeviceFamily) -> bool {
        self.devices.iter().any(|d| d.family == family)
    }
}

/// One point of a curve: the plant-local `YYYY-MM-DD HH:MM:SS` of its bucket and its value as
/// a numeric string (`readings::num_text`).
#[derive(Debug, Clone, PartialEq)]
pub struct CurvePoint {
    pub time: String,
    pub value: String,
}

/// One curve of a day: its key (`pv`, `load`, `grid`, `battery`, `soc`, `generator`), the name
/// people read, its unit and its points (buckets without a value are left out).
#[derive(Debug, Clone, PartialEq)]
pub struct DayCurve {
    pub label: &'static str,
    pub name: &'static str,
    pub unit: &'static str,
    pub points: Vec<CurvePoint>,
}

/// Whether a device can have a battery behind it: a BMS does, and so does a hybrid inverter.
/// A grid-tied, micro or string inverter does not, whatever battery registers its protocol
/// (shared with the hybrids) carries.
pub fn battery_port(family: DeviceFamily, type_code: i64) -> bool {
    match family {
        DeviceFamily::Battery => true,
        DeviceFamily::Inverter => InverterKind::from_code(type_code).is_hybrid(),
        DeviceFamily::Meter | DeviceFamily::WeatherStation | DeviceFamily::Combiner => false,
    }
}

/// The local time of each bucket of a day starting at `from`: written once per day and zone
/// and kept ([`DayTimes`]), since every read of a day's curves writes the same ones.
struct BucketTimes {
    from: i64,
    tz: Tz,
    times: Arc<Vec<String>>,
}

impl BucketTimes {
    fn new(kept: &DayTimes, from: i64, to: i64, tz: Tz) -> BucketTimes {
        let times = kept.of(from, tz, || {
            (0..=(to - from) / BUCKET_MS)
                .map(|b| local_time(from + b * BUCKET_MS, tz))
                .collect()
        });
        BucketTimes { from, tz, times }
    }

    fn of(&self, bucket: usize) -> String {
        self.times
            .get(bucket)
            .cloned()
            .unwrap_or_else(|| local_time(self.from + bucket as i64 * BUCKET_MS, self.tz))
    }
}

/// A day's bucket times, keyed by the day's start (ms) and zone.
type TimesByDay = HashMap<(i64, Tz), Arc<Vec<String>>>;

/// The bucket times of recent days, per day start and zone.
#[derive(Debug, Default)]
pub struct DayTimes {
    days: Mutex<TimesByDay>,
}

impl DayTimes {
    /// Days kept; a handful of zones times a few days is what screens ask for.
    const CAPACITY: usize = 512;

    fn of(&self, from: i64, tz: Tz, write: impl FnOnce() -> Vec<String>) -> Arc<Vec<String>> {
        if let Some(times) = self
            .days
            .lock()
            .ok()
            .and_then(|d| d.get(&(from, tz)).cloned())
        {
            return times;
        }
        let times = Arc::new(write());
        if let Ok(mut days) = self.days.lock() {
            if days.len() >= Self::CAPACITY {
                days.clear();
            }
            days.insert((from, tz), times.clone());
        }
        times
    }
}

/// A curve's value per bucket (`None`: no device gave one).
type Points = Vec<Option<f64>>;

fn curve(
    label: &'static str,
    name: &'static str,
    unit: &'static str,
    points: &Points,
    times: &BucketTimes,
) -> DayCurve {
    DayCurve {
        label,
        name,
        unit,
        points: points
            .iter()
            .enumerate()
            .filter_map(|(b, v)| {
                v.map(|v| CurvePoint {
                    time: times.of(b),
                    value: num_text(v),
                })
            })
            .collect(),
    }
}

/// What an inverter gives each curve; one without a battery port gives no battery values.
fn inverter_values(r: &Reading) -> [Option<f64>; CURVES] {
    [
        pv_power(r),
        r.num("load_power"),
        inverter_grid(r),
        r.num("battery_power"),
        r.num("battery_soc"),
        r.num("gen_power"),
    ]
}

fn inverter_without_battery_values(r: &Reading) -> [Option<f64>; CURVES] {
    let [pv, load, grid, _, _, generator] = inverter_values(r);
    [pv, load, grid, None, None, generator]
}

fn meter_values(r: &Reading) -> [Option<f64>; CURVES] {
    [None, None, r.num("power"), None, None, None]
}

fn battery_values(r: &Reading) -> [Option<f64>; CURVES] {
    [None, None, None, r.num("power"), r.num("soc"), None]
}

/// Per bucket, the sum over `devices` of their means of `curve`, and how many had one.
fn combine(
    devices: &[(DeviceFamily, Means)],
    family: DeviceFamily,
    curve: Curve,
) -> Vec<(f64, u32)> {
    let mut points: Vec<(f64, u32)> = Vec::new();
    for (f, means) in devices {
        if *f != family {
            continue;
        }
        if points.len() < means.len() {
            points.resize(means.len(), (0.0, 0));
        }
        for (p, values) in points.iter_mut().zip(means) {
            if let Some(v) = values[curve as usize] {
                p.0 += v;
                p.1 += 1;
            }
        }
    }
    points
}

/// The plant's power curves of one local day. Inverters give each value; a meter gives the
/// grid and a BMS the battery only when no inverter reports them. `pv_only` keeps PV alone.
pub async fn day_curves(
    store: &Store,
    caches: &CurveCaches,
    plant: PlantDevices<'_>,
    day: NaiveDate,
    pv_only: bool,
) -> store::Result<Vec<DayCurve>> {
    let (from, to) = devices::history::day_bounds(plant.tz, day);
    let open = to > domain::time::now_ms();
    // (family, its means per bucket) per device.
    let mut by_device: Vec<(DeviceFamily, Means)> = Vec::new();
    for d in plant.devices {
        let family = d.family;
        let extract: Extract = match family {
            DeviceFamily::Inverter if battery_port(family, d.type_code) => inverter_values,
            DeviceFamily::Inverter => inverter_without_battery_values,
            DeviceFamily::Meter if !pv_only => meter_values,
            DeviceFamily::Battery if !pv_only => battery_values,
            _ => continue,
        };
        let means = caches
            .means
            .means(
                d.id,
                from,
                to,
                open,
                BUCKET_MS,
                readings::DAY_BUCKET_MS,
                extract,
                |since| readings::day_samples(store, d.id, since, to),
            )
            .await?;
        by_device.push((family, means));
    }
    let sum = |points: Vec<(f64, u32)>| -> Points {
        points
            .into_iter()
            .map(|(v, n)| (n > 0).then_some(v))
            .collect()
    };
    // SOC is a mean over batteries, not a sum.
    let mean = |points: Vec<(f64, u32)>| -> Points {
        points
            .into_iter()
            .map(|(v, n)| (n > 0).then(|| v / f64::from(n)))
            .collect()
    };
    let none = |points: &Points| points.iter().all(Option::is_none);
    let of = |family: DeviceFamily, c: Curve| combine(&by_device, family, c);
    let pv = sum(of(DeviceFamily::Inverter, Curve::Pv));
    let times = BucketTimes::new(&caches.times, from, to, plant.tz);
    if pv_only {
        return Ok(vec![curve("pv", "PV", "W", &pv, &times)]);
    }
    let load = sum(of(DeviceFamily::Inverter, Curve::Load));
    let mut grid = sum(of(DeviceFamily::Inverter, Curve::Grid));
    if plant.has(DeviceFamily::Meter) {
        let meter = sum(of(DeviceFamily::Meter, Curve::Grid));
        if !none(&meter) {
            grid = meter;
        }
    }
    let mut battery = sum(of(DeviceFamily::Inverter, Curve::Battery));
    if none(&battery) {
        battery = sum(of(DeviceFamily::Battery, Curve::Battery));
    }
    let mut soc = mean(of(DeviceFamily::Inverter, Curve::Soc));
    if none(&soc) {
        soc = mean(of(DeviceFamily::Battery, Curve::Soc));
    }
    let generator = sum(of(DeviceFamily::Inverter, Curve::Generator));
    let mut out = vec![
        curve("pv", "PV", "W", &pv, &times),
        curve("load", "Load", "W", &load, &times),
        curve("grid", "Grid", "W", &grid, &times),
    ];
    // The battery's curves only where there is a battery (the flow's rule).
    if plant.has(DeviceFamily::Battery) || !none(&battery) || !none(&soc) {
        out.push(curve("battery", "Battery", "W", &battery, &times));
        out.push(curve("soc", "SOC", "%", &soc, &times));
    }
    if generator.iter().flatten().any(|v| *v > 0.0) {
        out.push(curve("generator", "Generator", "W", &generator, &times));
    }
    Ok(out)
}
