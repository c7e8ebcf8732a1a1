//! Figure `load-balancing`: for the busiest equal-cost sets (more than one
//! member), a heat map of each member's share of the set's bytes over
//! time, relative to a fair share, and below it the flowlet moves and the
//! selections that stepped around a paused member, per interval.

use super::table::{Intervals, Table};
use super::*;
use reference::sim::records::LB_STATS;
use std::collections::BTreeMap;

/// Sets drawn at most: the ones that carried most bytes.
const MAX_SETS: usize = 4;
/// Members of a set drawn at most.
const MAX_MEMBERS: usize = 256;
/// Heat-map columns at most; more intervals are summed into columns.
const MAX_COLUMNS: usize = 400;

struct SetSeries {
    id: u32,
    members: Vec<u16>,
    /// Bytes per member per interval.
    bytes: Vec<Vec<f64>>,
    moves: Vec<f64>,
    paused_skips: Vec<f64>,
}

pub struct BalanceFigure {
    times_us: Vec<f64>,
    sets: Vec<SetSeries>,
}

pub fn load(path: &Path) -> Result<Loaded<BalanceFigure>, String> {
    let Some(table) = Table::open(path)? else { return Ok(Loaded::Missing) };
    table.require(&["sim_time_sec", "ifid", "ecmp_group_id", "group_size", "bytes", "ivl_bytes", "ivl_movements_in", "ivl_paused_skips"])?;
    // Pass 1: each set's size and bytes so far.
    let mut sets: BTreeMap<u32, (usize, f64)> = BTreeMap::new();
    let mut intervals = Intervals::default();
    table.for_each_row(|row| {
        intervals.index(row, LB_STATS)?;
        let size: usize = row.parse("group_size")?;
        let set = sets.entry(row.parse("ecmp_group_id")?).or_insert((size, 0.0));
        set.1 += row.number("ivl_bytes")?;
        Ok(())
    })?;
    let mut ranked: Vec<(u32, usize, f64)> = sets.into_iter().filter(|(_, (size, bytes))| *size > 1 && *bytes > 0.0).map(|(id, (size, b))| (id, size, b)).collect();
    ranked.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
    ranked.truncate(MAX_SETS);
    if ranked.is_empty() {
        return Ok(Loaded::Nothing("no equal-cost set of more than one member carried traffic"));
    }
    if let Some(&(id, size, _)) = ranked.iter().find(|(_, size, _)| *size > MAX_MEMBERS) {
        return Err(format!("{}: set {id} has {size} members, more than the {MAX_MEMBERS} a heat map draws", path.display()));
    }
    let times = intervals.times_us.len();
    let mut series: Vec<SetSeries> = ranked
        .iter()
        .map(|&(id, size, _)| SetSeries { id, members: Vec::new(), bytes: vec![vec![0.0; times]; size], moves: vec![0.0; times], paused_skips: vec![0.0; times] })
        .collect();
    // Pass 2: the chosen sets' members per interval.
    let mut intervals = Intervals::default();
    let table = Table::open(path)?.ok_or_else(|| format!("{} disappeared while being read", path.display()))?;
    table.for_each_row(|row| {
        let i = intervals.index(row, LB_STATS)?.min(times - 1);
        let id: u32 = row.parse("ecmp_group_id")?;
        let Some(set) = series.iter_mut().find(|s| s.id == id) else { return Ok(()) };
        let member: u16 = row.parse("ifid")?;
        let m = match set.members.iter().position(|&x| x == member) {
            Some(m) => m,
            None if set.members.len() < set.bytes.len() => {
                set.members.push(member);
                set.members.len() - 1
            }
            None => return Err(format!("{}: set {id} names more members than its group_size", path.display())),
        };
        set.bytes[m][i] += row.number("ivl_bytes")?;
        set.moves[i] += row.number("ivl_movements_in")?;
        set.paused_skips[i] += row.number("ivl_paused_skips")?;
        Ok(())
    })?;
    Ok(Loaded::Data(BalanceFigure { times_us: intervals.times_us, sets: series }))
}

const SET_HEIGHT: u32 = 560;
const MOVES: RGBColor = RGBColor(214, 39, 40);
const SKIPS: RGBColor = RGBColor(44, 160, 44);

impl Draw for BalanceFigure {
    fn size(&self) -> (u32, u32) {
        (1200, 40 + SET_HEIGHT * self.sets.len() as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<Vec<PixelRect>, String> {
        let root = root.titled("Load balancing: each member's share of its equal-cost set", (FAMILY, 22)).map_err(text)?;
        let mut panels = Vec::new();
        for (set, area) in self.sets.iter().zip(root.split_evenly((self.sets.len(), 1))) {
            let (heat, lines) = area.split_vertically(SET_HEIGHT * 62 / 100);
            panels.push(self.draw_heat_map(set, &heat)?);
            panels.push(self.draw_moves(set, &lines)?);
        }
        Ok(panels)
    }
}

/// A share of 0 to twice the fair share, as a colour (viridis).
fn share_color(relative_share: f64) -> RGBColor {
    use plotters::style::colors::colormaps::{ColorMap, ViridisRGB};
    ViridisRGB.get_color((relative_share / 2.0).clamp(0.0, 1.0))
}

impl BalanceFigure {
    /// Intervals summed into at most MAX_COLUMNS columns: (first, end) ranges.
    fn columns(&self) -> Vec<(usize, usize)> {
        let n = self.times_us.len();
        let per = n.div_ceil(MAX_COLUMNS).max(1);
        (0..n).step_by(per).map(|a| (a, (a + per).min(n))).collect()
    }

    fn draw_heat_map<DB: DrawingBackend>(&self, set: &SetSeries, area: &DrawingArea<DB, Shift>) -> Result<PixelRect, String> {
        let (chart_area, legend) = with_legend(area);
        let rows = set.members.len().max(1);
        let members = set.members.clone();
        let label_of = move |y: &f64| {
            let row = y.round();
            if (*y - row).abs() < 1e-6 && row >= 0.0 && (row as usize) < members.len() { format!("port {}", members[row as usize]) } else { String::new() }
        };
        let mut chart = ChartBuilder::on(&chart_area)
            .caption(format!("set {} ({} members)", set.id, set.members.len()), (FAMILY, 16))
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(80)
            .build_cartesian_2d(time_range_us(&self.times_us), -0.5..rows as f64 - 0.5)
            .map_err(text)?;
        chart.configure_mesh().disable_mesh().y_labels(rows.min(16)).y_label_formatter(&label_of).y_desc("member").draw().map_err(text)?;
        let fair = 1.0 / rows as f64;
        for (a, b) in self.columns() {
            let total: f64 = set.bytes.iter().map(|m| m[a..b].iter().sum::<f64>()).sum();
            if total <= 0.0 {
                continue;
            }
            let x0 = if a == 0 { 0.0 } else { self.times_us[a - 1] };
            let x1 = self.times_us[b - 1];
            chart
                .draw_series(set.bytes.iter().enumerate().map(|(m, bytes)| {
                    let share = bytes[a..b].iter().sum::<f64>() / total;
                    let y = m as f64;
                    Rectangle::new([(x0, y - 0.5), (x1, y + 0.5)], share_color(share / fair).filled())
                }))
                .map_err(text)?;
        }
        draw_legend(&legend, &[
            ("no bytes".into(), Mark::Box(share_color(0.0))),
            ("fair share (1/members)".into(), Mark::Box(share_color(1.0))),
            ("twice the fair share".into(), Mark::Box(share_color(2.0))),
        ])?;
        Ok(pixel_rect(&chart))
    }

    fn draw_moves<DB: DrawingBackend>(&self, set: &SetSeries, area: &DrawingArea<DB, Shift>) -> Result<PixelRect, String> {
        let (chart_area, legend) = with_legend(area);
        let y_max = set.moves.iter().chain(&set.paused_skips).fold(0.0f64, |a, &b| a.max(b));
        let mut chart = ChartBuilder::on(&chart_area)
            .margin(8)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(time_range_us(&self.times_us), 0.0..headroom(y_max))
            .map_err(text)?;
        chart.configure_mesh().x_desc("simulated time (us)").y_desc("per interval").light_line_style(RGBColor(238, 238, 238)).draw().map_err(text)?;
        for (values, color) in [(&set.moves, MOVES), (&set.paused_skips, SKIPS)] {
            let points = self.times_us.iter().copied().zip(values.iter().copied());
            chart.draw_series(LineSeries::new(points, color.stroke_width(2))).map_err(text)?;
        }
        draw_legend(&legend, &[
            ("flowlet moves".into(), Mark::Line(MOVES)),
            ("paused members skipped".into(), Mark::Line(SKIPS)),
        ])?;
        Ok(pixel_rect(&chart))
    }
}
