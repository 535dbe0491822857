//! The on-disk reading log: every telemetry message is appended (and fsynced) here before it is
//! published, and stays until the portal has acknowledged it, so readings survive a portal
//! outage, an agent restart, `kill -9` and a power cut, and are sent again in order.
//!
//! Layout: segment files `<first seq>.seg` of records `[0xA7][len u32][seq u64][sum u32][payload]`
//! (little endian; `sum` is FNV-1a over seq and payload), and `cursor`, the highest sequence
//! number up to which everything is acknowledged (written atomically, at most about once a
//! second: after a crash a few acknowledged readings are sent again, which the portal ignores).
//! A torn record at the end of a segment (power cut mid-write) is cut off when the log opens.
//!
//! The log is bounded: when it outgrows its size, the unacknowledged backlog is thinned to every
//! second reading of an even grid from its oldest reading (then every 4th, 8th, ... as the
//! outage goes on; the newest reading always kept), so a long outage stays covered from its
//! start to now at one coarser step instead of losing its start. Memory stays bounded whatever
//! the backlog: records are streamed one at a time.

use std::{
    fs::{File, OpenOptions},
    io::{self, BufReader, Read, Seek, SeekFrom, Write},
    path::{Path, PathBuf},
};

const MAGIC: u8 = 0xA7;
const HEADER: u64 = 17;
/// A record larger than this is damage, not a reading (telemetry payloads are at most 256 KiB).
const MAX_RECORD: u32 = 1024 * 1024;

#[derive(Debug, Clone)]
struct Segment {
    first: u64,
    last: u64,
    bytes: u64,
    path: PathBuf,
}

/// Where the uploader reads next: the segment (by first seq), the open file and the last seq
/// it returned.
struct ReadPos {
    segment: u64,
    file: BufReader<File>,
    offset: u64,
    after: u64,
}

pub struct Buffer {
    dir: PathBuf,
    max_bytes: u64,
    segment_bytes: u64,
    segments: Vec<Segment>,
    next_seq: u64,
    acked: u64,
    acked_saved: u64,
    writer: Option<File>,
    reader: Option<ReadPos>,
    /// How many times the backlog was thinned, and readings dropped by it (for logs and tests).
    pub thinnings: u64,
    pub dropped: u64,
    /// The thinning level of the current backlog: after a thinning it holds the readings whose
    /// distance from `base` (its oldest reading) is a multiple of 2^level, and the newest one.
    level: u32,
    base: Option<u64>,
}

fn checksum(seq: u64, payload: &[u8]) -> u32 {
    let mut h: u32 = 0x811C_9DC5;
    for b in seq.to_le_bytes().iter().chain(payload) {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

fn encode(seq: u64, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER as usize + payload.len());
    out.push(MAGIC);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&seq.to_le_bytes());
    out.extend_from_slice(&checksum(seq, payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The next record of `r`, `None` at a clean end, `Err(InvalidData)` at damage (a torn tail).
fn read_record(r: &mut impl Read) -> io::Result<Option<(u64, Vec<u8>)>> {
    let mut head = [0u8; HEADER as usize];
    let mut got = 0;
    while got < head.len() {
        match r.read(&mut head[got..])? {
            0 if got == 0 => return Ok(None),
            0 => return Err(io::Error::new(io::ErrorKind::InvalidData, "torn header")),
            n => got += n,
        }
    }
    let le32 = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let len = le32(&head[1..5]);
    let seq = u64::from_le_bytes(head[5..13].try_into().unwrap_or_default());
    let sum = le32(&head[13..17]);
    if head[0] != MAGIC || len > MAX_RECORD {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "bad header"));
    }
    let mut payload = vec![0u8; len as usize];
    r.read_exact(&mut payload)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "torn payload"))?;
    if checksum(seq, &payload) != sum {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "checksum"));
    }
    Ok(Some((seq, payload)))
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Writes `bytes` to `path` so that a crash leaves the old or the new content, never a mix.
/// Readable by the agent's user only (the key is one of these files).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let tmp = path.with_extension("tmp");
    {
        let mut f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    if let Some(dir) = path.parent() {
        sync_dir(dir);
    }
    Ok(())
}

impl Buffer {
    /// Opens (or creates) the log in `dir`, bounded to `max_bytes` on disk.
    pub fn open(dir: &Path, max_bytes: u64) -> io::Result<Buffer> {
        std::fs::create_dir_all(dir)?;
        let acked = std::fs::read_to_string(dir.join("cursor"))
            .ok()
            .and_then(|t| t.trim().parse::<u64>().ok())
            .unwrap_or(0);
        let mut paths: Vec<(u64, PathBuf)> = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            match path.extension().and_then(|x| x.to_str()) {
                Some("seg") => {
                    if let Some(first) = path
                        .file_stem()
                        .and_then(|s| s.to_str())
                        .and_then(|s| s.parse::<u64>().ok())
                    {
                        paths.push((first, path));
                    }
                }
                // A thinning or cursor write that a crash interrupted: the original stands.
                Some("tmp") => {
                    let _ = std::fs::remove_file(&path);
                }
                _ => {}
            }
        }
        paths.sort();
        let mut segments = Vec::new();
        for (_, path) in paths {
            if let Some(s) = scan(&path)? {
                if s.last <= acked {
                    let _ = std::fs::remove_file(&s.path);
                } else {
                    segments.push(s);
                }
            } else {
                let _ = std::fs::remove_file(&path);
            }
        }
        let next_seq = segments.last().map_or(acked, |s| s.last).max(acked) + 1;
        Ok(Buffer {
            dir: dir.to_path_buf(),
            max_bytes,
            segment_bytes: (max_bytes / 16).clamp(64 * 1024, 4 * 1024 * 1024),
            segments,
            next_seq,
            acked,
            acked_saved: acked,
            writer: None,
            reader: None,
            thinnings: 0,
            dropped: 0,
            level: 0,
            base: None,
        })
    }

    /// Bytes on disk.
    pub fn bytes(&self) -> u64 {
        self.segments.iter().map(|s| s.bytes).sum()
    }

    /// Everything up to this sequence number is acknowledged.
    pub fn acked(&self) -> u64 {
        self.acked
    }

    /// The sequence number the next reading gets.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// Appends a reading and syncs it to disk; answers its sequence number. Thins the backlog
    /// when the log outgrows its bound.
    pub fn append(&mut self, payload: &[u8]) -> io::Result<u64> {
        let seq = self.next_seq;
        let record = encode(seq, payload);
        let rotate = match self.segments.last() {
            Some(s) => self.writer.is_none() || s.bytes >= self.segment_bytes,
            None => true,
        };
        if rotate {
            let path = self.dir.join(format!("{seq:020}.seg"));
            let f = OpenOptions::new().create(true).append(true).open(&path)?;
            sync_dir(&self.dir);
            self.writer = Some(f);
            self.segments.push(Segment {
                first: seq,
                last: seq,
                bytes: 0,
                path,
            });
        }
        let (Some(w), Some(s)) = (self.writer.as_mut(), self.segments.last_mut()) else {
            return Err(io::Error::other("no segment to write"));
        };
        w.write_all(&record)?;
        w.sync_data()?;
        s.last = seq;
        s.bytes += record.len() as u64;
        self.next_seq += 1;
        self.enforce_bound()?;
        Ok(seq)
    }

    /// The first reading after `seq` still in the log.
    pub fn next_after(&mut self, seq: u64) -> io::Result<Option<(u64, Vec<u8>)>> {
        let Some(segment) = self.segments.iter().find(|s| s.last > seq).cloned() else {
            return Ok(None);
        };
        let reuse = self
            .reader
            .as_ref()
            .is_some_and(|r| r.segment == segment.first && r.after <= seq);
        if !reuse {
            let file = File::open(&segment.path)?;
            self.reader = Some(ReadPos {
                segment: segment.first,
                file: BufReader::new(file),
                offset: 0,
                after: 0,
            });
        }
        let Some(r) = self.reader.as_mut() else {
            return Ok(None);
        };
        // Appends may have grown the file since the last read: read from where we were.
        r.file.seek(SeekFrom::Start(r.offset))?;
        loop {
            match read_record(&mut r.file) {
                Ok(Some((s, payload))) => {
                    r.offset += HEADER + payload.len() as u64;
                    r.after = s;
                    if s > seq {
                        return Ok(Some((s, payload)));
                    }
                }
                Ok(None) | Err(_) => {
                    // The segment ends (or a damaged record cuts it short): go on with the next;
                    // in the newest one, wait there for the next append.
                    let read_upto = r.after;
                    if let Some(sg) = self.segments.iter_mut().find(|x| x.first == segment.first)
                        && sg.last > read_upto
                    {
                        sg.last = read_upto;
                    }
                    let next = self
                        .segments
                        .iter()
                        .find(|x| x.first > segment.first)
                        .cloned();
                    return match next {
                        Some(n) if n.last > seq => {
                            self.reader = None;
                            self.next_after(seq)
                        }
                        _ => Ok(None),
                    };
                }
            }
        }
    }

    /// Marks everything up to `seq` acknowledged and deletes segments wholly acknowledged.
    pub fn ack(&mut self, seq: u64) {
        if seq <= self.acked {
            return;
        }
        self.acked = seq.min(self.next_seq.saturating_sub(1));
        let acked = self.acked;
        let keep_last = self.writer.is_some();
        let count = self.segments.len();
        let mut removed_active = false;
        let mut kept = Vec::with_capacity(count);
        for (i, s) in std::mem::take(&mut self.segments).into_iter().enumerate() {
            if s.last <= acked {
                if i + 1 == count && keep_last {
                    removed_active = true;
                }
                if self.reader.as_ref().is_some_and(|r| r.segment == s.first) {
                    self.reader = None;
                }
                let _ = std::fs::remove_file(&s.path);
            } else {
                kept.push(s);
            }
        }
        self.segments = kept;
        if removed_active {
            self.writer = None;
        }
        // The backlog is gone: the next outage starts at full density.
        if self.acked + 1 >= self.next_seq {
            self.level = 0;
            self.base = None;
        }
    }

    /// Writes the cursor when it moved (call about once a second and at shutdown).
    pub fn save_cursor(&mut self) -> io::Result<()> {
        if self.acked != self.acked_saved {
            write_atomic(
                &self.dir.join("cursor"),
                format!("{}\n", self.acked).as_bytes(),
            )?;
            self.acked_saved = self.acked;
        }
        Ok(())
    }

    fn enforce_bound(&mut self) -> io::Result<()> {
        while self.bytes() > self.max_bytes {
            let before = self.bytes();
            self.thin()?;
            if self.bytes() >= before {
                // Nothing left to thin (one reading larger than the bound): drop the oldest.
                if self.segments.len() <= 1 {
                    break;
                }
                let s = self.segments.remove(0);
                let _ = std::fs::remove_file(&s.path);
                self.reader = None;
            }
        }
        Ok(())
    }

    /// Halves the backlog's density: keeps the readings on a grid twice as coarse as before
    /// (every 2nd, then every 4th reading from the oldest, ...) and the newest, so the whole
    /// outage stays covered at one even step. Each segment is rewritten in a stream.
    fn thin(&mut self) -> io::Result<()> {
        self.writer = None;
        self.reader = None;
        let mut base = self.base.filter(|b| *b > self.acked);
        // First pass: the bytes each grid would keep. A reading at distance d from the base is
        // on the grids of step 2^0 .. 2^trailing_zeros(d).
        let mut on_grid = [0u64; 65];
        for s in &self.segments {
            let mut r = BufReader::new(File::open(&s.path)?);
            while let Ok(Some((seq, payload))) = read_record(&mut r) {
                if seq <= self.acked {
                    continue;
                }
                let origin = *base.get_or_insert(seq);
                let d = seq - origin;
                let tz = if d == 0 {
                    64
                } else {
                    d.trailing_zeros() as usize
                };
                on_grid[tz] += HEADER + payload.len() as u64;
            }
        }
        // The finest grid, no finer than the last one, that fills at most half the bound.
        let fits = |level: usize| on_grid[level..].iter().sum::<u64>() <= self.max_bytes / 2;
        let from = (self.level as usize).clamp(1, 64);
        self.level = (from..64).find(|l| fits(*l)).unwrap_or(64) as u32;
        let step = 1u64.checked_shl(self.level).unwrap_or(u64::MAX);
        let mut out = Vec::with_capacity(self.segments.len());
        for s in std::mem::take(&mut self.segments) {
            let tmp = s.path.with_extension("tmp");
            let mut w = io::BufWriter::new(File::create(&tmp)?);
            let mut r = BufReader::new(File::open(&s.path)?);
            let (mut first, mut last, mut bytes) = (None, 0, 0u64);
            while let Ok(Some((seq, payload))) = read_record(&mut r) {
                if seq <= self.acked {
                    continue;
                }
                let origin = *base.get_or_insert(seq);
                // The newest reading stays too: it is what the portal shows as current.
                if (seq - origin).is_multiple_of(step) || seq + 1 == self.next_seq {
                    let rec = encode(seq, &payload);
                    w.write_all(&rec)?;
                    first.get_or_insert(seq);
                    last = seq;
                    bytes += rec.len() as u64;
                } else {
                    self.dropped += 1;
                }
            }
            let f = w.into_inner().map_err(|e| e.into_error())?;
            f.sync_all()?;
            drop(f);
            match first {
                Some(first) => {
                    std::fs::rename(&tmp, &s.path)?;
                    out.push(Segment {
                        first,
                        last,
                        bytes,
                        path: s.path,
                    });
                }
                None => {
                    let _ = std::fs::remove_file(&tmp);
                    let _ = std::fs::remove_file(&s.path);
                }
            }
        }
        sync_dir(&self.dir);
        self.segments = out;
        self.base = base;
        self.thinnings += 1;
        tracing::warn!(
            thinnings = self.thinnings,
            dropped = self.dropped,
            bytes = self.bytes(),
            step,
            "reading buffer full: unsent readings thinned to one in `step` (the oldest and newest kept)"
        );
        Ok(())
    }
}

/// A segment's records (cutting off a damaged tail); `None` when it holds none.
fn scan(path: &Path) -> io::Result<Option<Segment>> {
    let mut r = BufReader::new(File::open(path)?);
    let (mut first, mut last, mut good) = (None, 0u64, 0u64);
    loop {
        match read_record(&mut r) {
            Ok(Some((seq, payload))) => {
                first.get_or_insert(seq);
                last = seq;
                good += HEADER + payload.len() as u64;
            }
            Ok(None) => break,
            Err(e) => {
                tracing::warn!(segment = %path.display(), error = %e, kept_bytes = good,
                    "damaged record in the reading buffer: the segment is cut there");
                OpenOptions::new().write(true).open(path)?.set_len(good)?;
                break;
            }
        }
    }
    Ok(first.map(|first| Segment {
        first,
        last,
        bytes: good,
        path: path.to_path_buf(),
    }))
}
