//! Figure `ecn-marks`: ECN marks per report interval, per egress port (all
//! classes together), for the ports that marked most.

use super::table::{Intervals, Table};
use super::*;
use reference::sim::records::ECN_PFC_STATS;

/// Ports drawn at most: the ones that marked most.
pub const MAX_PORTS_DRAWN: usize = 8;

/// Per-interval counts of a few ports, from a record's running counts.
pub struct PortCounts {
    pub times_us: Vec<f64>,
    /// (port, count per interval), the busiest first.
    pub ports: Vec<(u16, Vec<f64>)>,
    /// Ports that counted something but are not drawn.
    pub left_out: usize,
}

/// Reads the running count `column` of every port (summed over the rows
/// of one port at one time, e.g. its classes) and keeps the
/// `MAX_PORTS_DRAWN` ports whose count grew most, as counts per interval.
/// Two passes over the file, so memory holds only the ports drawn.
pub fn top_ports(path: &Path, record: &str, column: &str) -> Result<Option<PortCounts>, String> {
    let Some(table) = Table::open(path)? else { return Ok(None) };
    table.require(&["sim_time_sec", "ifid", column])?;
    let mut totals: std::collections::BTreeMap<u16, (usize, f64)> = Default::default();
    let mut intervals = Intervals::default();
    table.for_each_row(|row| {
        let i = intervals.index(row, record)?;
        let total = totals.entry(row.parse("ifid")?).or_insert((i, 0.0));
        if total.0 != i {
            *total = (i, 0.0);
        }
        total.1 += row.number(column)?;
        Ok(())
    })?;
    let mut ranked: Vec<(u16, f64)> = totals.into_iter().map(|(port, (_, total))| (port, total)).filter(|&(_, t)| t > 0.0).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let left_out = ranked.len().saturating_sub(MAX_PORTS_DRAWN);
    ranked.truncate(MAX_PORTS_DRAWN);
    let times = intervals.times_us.len();
    let mut running: Vec<(u16, Vec<f64>)> = ranked.iter().map(|&(port, _)| (port, vec![0.0; times])).collect();
    let mut intervals = Intervals::default();
    let table = Table::open(path)?.ok_or_else(|| format!("{} disappeared while being read", path.display()))?;
    table.for_each_row(|row| {
        let i = intervals.index(row, record)?;
        let port: u16 = row.parse("ifid")?;
        if let Some((_, counts)) = running.iter_mut().find(|(p, _)| *p == port) {
            counts[i.min(times - 1)] += row.number(column)?;
        }
        Ok(())
    })?;
    // Running counts to counts per interval.
    for (_, counts) in &mut running {
        for i in (1..counts.len()).rev() {
            counts[i] = (counts[i] - counts[i - 1]).max(0.0);
        }
    }
    Ok(Some(PortCounts { times_us: intervals.times_us, ports: running, left_out }))
}

pub struct EcnFigure(PortCounts);

pub fn load(path: &Path) -> Result<Loaded<EcnFigure>, String> {
    Ok(match top_ports(path, ECN_PFC_STATS, "pkts_ecn_marked")? {
        None => Loaded::Missing,
        Some(c) if c.ports.is_empty() => Loaded::Nothing("no packet was ECN-marked"),
        Some(c) => Loaded::Data(EcnFigure(c)),
    })
}

/// Draws per-port counts per interval as lines.
pub fn draw_port_counts<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    y_desc: &str,
    counts: &PortCounts,
) -> Result<Vec<PixelRect>, String> {
    let root = root.titled(title, (FAMILY, 22)).map_err(text)?;
    let (chart_area, legend) = with_legend(&root);
    let y_max = counts.ports.iter().flat_map(|(_, c)| c.iter()).fold(0.0f64, |a, &b| a.max(b));
    let mut chart = ChartBuilder::on(&chart_area)
        .margin(8)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(time_range_us(&counts.times_us), 0.0..headroom(y_max))
        .map_err(text)?;
    chart.configure_mesh().x_desc("simulated time (us)").y_desc(y_desc).light_line_style(RGBColor(238, 238, 238)).draw().map_err(text)?;
    let mut entries = Vec::new();
    for (k, (port, values)) in counts.ports.iter().enumerate() {
        let color = series_color(k);
        let points: Vec<(f64, f64)> = counts.times_us.iter().copied().zip(values.iter().copied()).collect();
        chart.draw_series(LineSeries::new(points.iter().copied(), color.stroke_width(2))).map_err(text)?;
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 2, color.filled()))).map_err(text)?;
        entries.push((format!("port {port}"), Mark::Line(color)));
    }
    if counts.left_out > 0 {
        entries.push((format!("(and {} more ports)", counts.left_out), Mark::Line(WHITE)));
    }
    draw_legend(&legend, &entries)?;
    Ok(vec![pixel_rect(&chart)])
}

impl Draw for EcnFigure {
    fn size(&self) -> (u32, u32) {
        (1200, 480)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<Vec<PixelRect>, String> {
        draw_port_counts(root, "ECN marks per report interval, per egress port", "packets marked per interval", &self.0)
    }
}
