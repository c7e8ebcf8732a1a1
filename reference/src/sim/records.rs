//! The vendor's output records, built in memory and written as CSV:
//! `scala-switch-agg-buff-stats`, `scala-switch-load-balancing-stats`,
//! `ecn-pfc-stats`, and (the project's formats) `scala-switch-trimming-stats`
//! and `scala-switch-pfc-events`.
//! Files are named `{simulation}-{record}-{shard}.csv`.
//!
//! [model] Buffer statistics sample each counter after every arrival and
//! departure: `ivl_count` samples, their min, max and mean; `total_bytes`
//! is the value at the row's time; the limit is the pool's size. PFC
//! times are exact integrals of the paused state over simulated time.
//! `time_utc` is a fixed epoch (2026-01-01T00:00:00Z) plus simulated time,
//! so runs are reproducible. Every record also gets a row at the end of
//! the run (a partial interval).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub const BUFF_STATS: &str = "scala-switch-agg-buff-stats";
pub const LB_STATS: &str = "scala-switch-load-balancing-stats";
pub const ECN_PFC_STATS: &str = "ecn-pfc-stats";
pub const TRIM_STATS: &str = "scala-switch-trimming-stats";
pub const PFC_EVENTS: &str = "scala-switch-pfc-events";

/// Declares a record's row once: a struct with one `String` field per
/// column, in column order, the column list (`$columns`) made from the
/// same field names, and `cells()` giving the row in that order. A row is
/// then built by naming every column, so a value cannot land under the
/// wrong header and a column cannot be left out.
macro_rules! record_row {
    ($(#[$doc:meta])* $row:ident, $columns:ident { $($column:ident),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct $row {
            $(pub $column: String),+
        }

        pub const $columns: &[&str] = &[$(stringify!($column)),+];

        impl $row {
            /// The row's cells in column order.
            pub fn cells(self) -> Vec<String> {
                vec![$(self.$column),+]
            }
        }
    };
}

record_row! {
    /// A row of `scala-switch-agg-buff-stats`: one pool and buffer kind.
    BuffRow, BUFF_COLUMNS {
        time_utc, sim_time_sec, component_name, tier, node_id, pool_num, buff_id, uldl, total_bytes, buffer_limit, ivl_count,
        ivl_min_bytes, ivl_max_bytes, ivl_mean_bytes, ivl_max_pct_util, ivl_mean_pct_util,
    }
}

record_row! {
    /// A row of `scala-switch-load-balancing-stats`: one member of one set.
    LbRow, LB_COLUMNS {
        time_utc, sim_time_sec, component_name, component_type, node_id, tier, subtier, ifid, ecmp_group_id, ecmp_group_ifids,
        group_size, group_formed_ns, flow_table_slots, bytes, packets, assignments, movements_in, movements_out, paused_skips,
        paused_selections, ivl_bytes, ivl_packets, ivl_assignments, ivl_movements_in, ivl_movements_out, ivl_paused_skips,
        ivl_paused_selections, ivl_share,
    }
}

record_row! {
    /// A row of `ecn-pfc-stats`: one port and traffic class.
    EcnPfcRow, ECN_PFC_COLUMNS {
        job_id, time_utc, sim_time_sec, node_id, component_name, component_type, ifid, uldl, tier, subtier, priority,
        pfcxoff_tx, pfcxoff_rx, pfcxon_tx, pfcxon_rx, pfc_time_paused_usec, interval_total_time_xoff_usec,
        interval_max_time_xoff_usec, interval_total_time_xoff_egr_occ_usec, interval_max_time_xoff_egr_occ_usec,
        total_xoff_time_egr_occ_usec, percent_xon, xoff_egr_occ_ratio, pkts_ecn_marked,
    }
}

record_row! {
    /// A row of `scala-switch-pfc-events` (this project's format): one PFC
    /// frame the switch sent (`direction` tx: when it decided to send it,
    /// before it waits for the wire) or received (rx). `frame` is pause,
    /// resend or resume; `priorities` the classes it names, separated by
    /// spaces; `pause_end_sec` when the pause runs out unless resumed (the
    /// frame's own time for a resume).
    PfcEventRow, PFC_EVENT_COLUMNS {
        time_utc, sim_time_sec, component_name, node_id, ifid, uldl, direction, frame, priorities, quanta, pause_end_sec,
    }
}

record_row! {
    /// A row of `scala-switch-trimming-stats` (this project's format): one egress port.
    TrimRow, TRIM_COLUMNS {
        time_utc, sim_time_sec, component_name, node_id, ifid, uldl, trimmed_packets, trimmed_last_hop_packets,
        trimmed_bytes_removed, untrimmable_drops, ivl_trimmed_packets, ivl_trimmed_last_hop_packets,
        ivl_trimmed_bytes_removed, ivl_untrimmable_drops,
    }
}

/// One record: its name, columns and rows (already formatted). A run that
/// streams its records to files keeps no rows here, only their count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    pub name: &'static str,
    pub columns: &'static [&'static str],
    pub rows: Vec<Vec<String>>,
    /// Rows produced, kept or streamed.
    pub row_count: u64,
}

impl Record {
    pub fn new(name: &'static str, columns: &'static [&'static str]) -> Record {
        Record { name, columns, rows: Vec::new(), row_count: 0 }
    }

    /// Adds a row: written to `files` when the run streams its records
    /// (memory then stays flat however long the run), kept otherwise.
    pub fn push(&mut self, row: Vec<String>, files: Option<&mut RecordFiles>) -> std::io::Result<()> {
        self.row_count += 1;
        match files {
            Some(files) => files.write_row(self, &row),
            None => {
                self.rows.push(row);
                Ok(())
            }
        }
    }

    pub fn column(&self, name: &str) -> usize {
        self.columns.iter().position(|c| *c == name).unwrap_or_else(|| panic!("{} has no column {name}", self.name))
    }

    pub fn to_csv(&self) -> String {
        let mut out = self.columns.join(",");
        out.push('\n');
        for row in &self.rows {
            out.push_str(&csv_line(row));
        }
        out
    }

    pub fn file_name(&self, simulation: &str, shard: u32) -> String {
        format!("{simulation}-{}-{shard}.csv", self.name)
    }
}

fn csv_line(row: &[String]) -> String {
    let cells: Vec<String> = row.iter().map(|c| csv_cell(c)).collect();
    let mut line = cells.join(",");
    line.push('\n');
    line
}

fn csv_cell(c: &str) -> String {
    if c.contains([',', '"', '\n']) {
        format!("\"{}\"", c.replace('"', "\"\""))
    } else {
        c.to_string()
    }
}

/// Writes in-memory records into `dir` (see [`RecordFiles`]).
pub fn write_all(dir: &Path, simulation: &str, records: &[&Record]) -> std::io::Result<Vec<PathBuf>> {
    let mut files = RecordFiles::new(dir, simulation)?;
    for r in records {
        for row in &r.rows {
            files.write_row(r, row)?;
        }
    }
    files.finish(records)
}

/// Record files being written: each goes to a `.partial` file, renamed
/// into place by [`finish`](Self::finish), so a failed or interrupted run
/// leaves no half-written record (dropping unfinished files removes them).
pub struct RecordFiles {
    dir: PathBuf,
    simulation: String,
    open: Vec<OpenRecord>,
    finished: bool,
}

struct OpenRecord {
    name: &'static str,
    partial: PathBuf,
    path: PathBuf,
    writer: std::io::BufWriter<std::fs::File>,
}

impl RecordFiles {
    /// Record files of `simulation` in `dir` (created if missing).
    pub fn new(dir: &Path, simulation: &str) -> std::io::Result<RecordFiles> {
        std::fs::create_dir_all(dir)?;
        Ok(RecordFiles { dir: dir.to_path_buf(), simulation: simulation.to_string(), open: Vec::new(), finished: false })
    }

    fn open(&mut self, record: &Record) -> std::io::Result<&mut OpenRecord> {
        use std::io::Write;
        if let Some(i) = self.open.iter().position(|o| o.name == record.name) {
            return Ok(&mut self.open[i]);
        }
        let path = self.dir.join(record.file_name(&self.simulation, 0));
        let partial = path.with_extension("csv.partial");
        let mut writer = std::io::BufWriter::new(std::fs::File::create(&partial)?);
        writeln!(writer, "{}", record.columns.join(","))?;
        self.open.push(OpenRecord { name: record.name, partial, path, writer });
        Ok(self.open.last_mut().expect("just pushed"))
    }

    pub fn write_row(&mut self, record: &Record, row: &[String]) -> std::io::Result<()> {
        use std::io::Write;
        self.open(record)?.writer.write_all(csv_line(row).as_bytes())
    }

    /// Completes `records` (one without rows gets its header) and renames
    /// each into place; returns their paths in that order.
    pub fn finish(mut self, records: &[&Record]) -> std::io::Result<Vec<PathBuf>> {
        use std::io::Write;
        let mut written = Vec::new();
        for r in records {
            let open = self.open(r)?;
            open.writer.flush()?;
            written.push(open.path.clone());
        }
        for o in &self.open {
            std::fs::rename(&o.partial, &o.path)?;
        }
        self.finished = true;
        Ok(written)
    }
}

impl Drop for RecordFiles {
    fn drop(&mut self) {
        if !self.finished {
            for o in &self.open {
                let _ = std::fs::remove_file(&o.partial);
            }
        }
    }
}

/// `2026-01-01T00:00:00.000400Z` for 400 us of simulated time.
pub fn time_utc(t_ps: u64) -> String {
    let micros = t_ps / 1_000_000;
    let secs = micros / 1_000_000;
    let (h, m, s) = (secs / 3600, (secs / 60) % 60, secs % 60);
    let mut out = String::new();
    let day = 1 + h / 24;
    let _ = write!(out, "2026-01-{:02}T{:02}:{:02}:{:02}.{:06}Z", day, h % 24, m, s, micros % 1_000_000);
    out
}

pub fn sim_time_sec(t_ps: u64) -> String {
    format!("{:.9}", t_ps as f64 / 1e12)
}

pub fn usec(ps: u64) -> String {
    format!("{:.3}", ps as f64 / 1e6)
}

/// Samples of one counter within an interval.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Samples {
    pub count: u64,
    pub min: u64,
    pub max: u64,
    pub sum: u128,
    pub last: u64,
}

impl Samples {
    pub fn add(&mut self, value: u64) {
        if self.count == 0 {
            self.min = value;
            self.max = value;
        } else {
            self.min = self.min.min(value);
            self.max = self.max.max(value);
        }
        self.count += 1;
        self.sum += value as u128;
        self.last = value;
    }

    pub fn mean(&self) -> f64 {
        if self.count == 0 { 0.0 } else { self.sum as f64 / self.count as f64 }
    }

    /// Starts the next interval; the last value carries over.
    pub fn reset(&mut self) {
        *self = Samples { last: self.last, ..Samples::default() };
    }
}

/// The integral of a paused state (and of paused-while-occupied) over time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PauseClock {
    pub paused: bool,
    pub occupied: bool,
    since_ps: u64,
    episode_start_ps: u64,
    occupied_episode_start_ps: u64,
    pub total_ps: u64,
    pub total_occupied_ps: u64,
    pub ivl_ps: u64,
    pub ivl_occupied_ps: u64,
    pub ivl_max_ps: u64,
    pub ivl_max_occupied_ps: u64,
    ivl_start_ps: u64,
}

impl PauseClock {
    /// Accounts time up to `now` in the current state.
    pub fn advance(&mut self, now: u64) {
        if now <= self.since_ps {
            return;
        }
        let dt = now - self.since_ps;
        if self.paused {
            self.total_ps += dt;
            self.ivl_ps += dt;
            self.ivl_max_ps = self.ivl_max_ps.max(now - self.episode_start_ps.max(self.ivl_start_ps));
            if self.occupied {
                self.total_occupied_ps += dt;
                self.ivl_occupied_ps += dt;
                self.ivl_max_occupied_ps = self.ivl_max_occupied_ps.max(now - self.occupied_episode_start_ps.max(self.ivl_start_ps));
            }
        }
        self.since_ps = now;
    }

    pub fn set_paused(&mut self, now: u64, paused: bool) {
        self.advance(now);
        if paused && !self.paused {
            self.episode_start_ps = now;
            self.occupied_episode_start_ps = now;
        }
        self.paused = paused;
    }

    pub fn set_occupied(&mut self, now: u64, occupied: bool) {
        self.advance(now);
        if occupied && !self.occupied {
            self.occupied_episode_start_ps = now;
        }
        self.occupied = occupied;
    }

    pub fn start_interval(&mut self, now: u64) {
        self.advance(now);
        self.ivl_ps = 0;
        self.ivl_occupied_ps = 0;
        self.ivl_max_ps = 0;
        self.ivl_max_occupied_ps = 0;
        self.ivl_start_ps = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pause_clock_integrates_episodes() {
        let mut c = PauseClock::default();
        c.set_paused(1_000, true);
        c.set_occupied(3_000, true);
        c.set_occupied(4_000, false);
        c.set_paused(6_000, false);
        c.advance(10_000);
        assert_eq!((c.total_ps, c.total_occupied_ps, c.ivl_max_ps, c.ivl_max_occupied_ps), (5_000, 1_000, 5_000, 1_000));
        c.start_interval(10_000);
        c.set_paused(11_000, true);
        c.advance(12_000);
        assert_eq!((c.ivl_ps, c.total_ps), (1_000, 6_000));
    }

    #[test]
    fn samples_and_times() {
        let mut s = Samples::default();
        for v in [4, 8, 6] {
            s.add(v);
        }
        assert_eq!((s.count, s.min, s.max, s.mean()), (3, 4, 8, 6.0));
        s.reset();
        assert_eq!((s.count, s.last), (0, 6));
        assert_eq!(time_utc(400_000_000), "2026-01-01T00:00:00.000400Z");
        assert_eq!(sim_time_sec(400_000_000), "0.000400000");
        let mut r = Record::new("x", &["a", "b"]);
        r.rows.push(vec!["1".into(), "8;9".into()]);
        r.rows.push(vec!["2".into(), "a,b".into()]);
        assert_eq!(r.to_csv(), "a,b\n1,8;9\n2,\"a,b\"\n");
    }
}
