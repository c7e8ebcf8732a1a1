//! Figure `buffer-occupancy`: per pool, the interval maximum of the shared
//! buffer, ingress (ul, dl) and egress (ul, dl) bytes over time, with the
//! pool's size and one egress queue's ECN band.

use super::table::{Intervals, Table};
use super::*;
use reference::sim::records::BUFF_STATS;

/// The buffer kinds of the record, in its row order.
const KINDS: [(&str, &str, &str); 5] = [
    ("sharedBuffer", "-", "shared buffer"),
    ("ingressUsage", "ul", "ingress, uplinks"),
    ("ingressUsage", "dl", "ingress, downlinks"),
    ("egressQueue", "ul", "egress, uplinks"),
    ("egressQueue", "dl", "egress, downlinks"),
];

pub struct PoolSeries {
    pool: u8,
    size_bytes: u64,
    /// (min, max) of one egress queue's ECN band, when the run says.
    ecn_band: Option<(u64, u64)>,
    /// Interval maximum per kind, per interval (bytes).
    max_bytes: [Vec<f64>; 5],
}

pub struct BufferFigure {
    times_us: Vec<f64>,
    pools: Vec<PoolSeries>,
}

pub fn load(path: &Path, run: Option<&RunDescription>) -> Result<Loaded<BufferFigure>, String> {
    let Some(table) = Table::open(path)? else { return Ok(Loaded::Missing) };
    table.require(&["sim_time_sec", "pool_num", "buff_id", "uldl", "buffer_limit", "ivl_max_bytes"])?;
    let mut intervals = Intervals::default();
    let mut pools: Vec<PoolSeries> = Vec::new();
    table.for_each_row(|row| {
        let i = intervals.index(row, BUFF_STATS)?;
        let pool: u8 = row.parse("pool_num")?;
        let kind = (row.text("buff_id")?, row.text("uldl")?);
        let Some(k) = KINDS.iter().position(|(b, u, _)| (*b, *u) == kind) else {
            return Err(format!("{}: unknown buff_id/uldl {kind:?}", path.display()));
        };
        let at = match pools.iter().position(|p| p.pool == pool) {
            Some(at) => at,
            None if pools.len() < 8 => {
                let band = run.and_then(|r| r.pools.iter().find(|p| p.pool == pool)).map(|p| (p.ecn_min_bytes, p.ecn_max_bytes));
                pools.push(PoolSeries { pool, size_bytes: row.parse("buffer_limit")?, ecn_band: band, max_bytes: Default::default() });
                pools.len() - 1
            }
            None => return Err(format!("{}: more than 8 pools", path.display())),
        };
        let series = &mut pools[at].max_bytes[k];
        series.resize(i + 1, 0.0);
        series[i] = row.number("ivl_max_bytes")?;
        Ok(())
    })?;
    // A pool nothing ever used draws an empty panel: leave it out.
    pools.retain(|p| p.max_bytes.iter().flatten().any(|&b| b > 0.0));
    if pools.is_empty() {
        return Ok(Loaded::Nothing("no pool held a byte"));
    }
    Ok(Loaded::Data(BufferFigure { times_us: intervals.times_us, pools }))
}

const PANEL_HEIGHT: u32 = 330;

impl Draw for BufferFigure {
    fn size(&self) -> (u32, u32) {
        (1200, 40 + PANEL_HEIGHT * self.pools.len() as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<Vec<PixelRect>, String> {
        let root = root.titled("Buffer occupancy: interval maximum per pool", (FAMILY, 22)).map_err(text)?;
        let mut panels = Vec::new();
        for (pool, area) in self.pools.iter().zip(root.split_evenly((self.pools.len(), 1))) {
            panels.push(self.draw_pool(pool, &area)?);
        }
        Ok(panels)
    }
}

impl BufferFigure {
    fn draw_pool<DB: DrawingBackend>(&self, pool: &PoolSeries, area: &DrawingArea<DB, Shift>) -> Result<PixelRect, String> {
        const MB: f64 = 1e6;
        let (chart_area, legend) = with_legend(area);
        let data_max = pool.max_bytes.iter().flatten().fold(0.0f64, |a, &b| a.max(b));
        let band_max = pool.ecn_band.map_or(0.0, |(_, max)| max as f64);
        let y_max = headroom(data_max.max(band_max)) / MB;
        let size_mb = pool.size_bytes as f64 / MB;
        let size_shown = size_mb <= y_max;
        let caption = format!("pool {}: {size_mb:.1} MB{}", pool.pool, if size_shown { "" } else { " (above the scale)" });
        let mut chart = ChartBuilder::on(&chart_area)
            .caption(caption, (FAMILY, 16))
            .margin(8)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(time_range_us(&self.times_us), 0.0..y_max)
            .map_err(text)?;
        chart.configure_mesh().x_desc("simulated time (us)").y_desc("bytes (MB)").light_line_style(RGBColor(238, 238, 238)).draw().map_err(text)?;
        let mut entries = Vec::new();
        if let Some((min, max)) = pool.ecn_band {
            let band = RGBColor(214, 39, 40).mix(0.18);
            let x = time_range_us(&self.times_us);
            chart.draw_series([Rectangle::new([(x.start, min as f64 / MB), (x.end, max as f64 / MB)], band.filled())]).map_err(text)?;
            entries.push(("ECN band (one egress queue)".to_string(), Mark::Band(band)));
        }
        if size_shown {
            let x = time_range_us(&self.times_us);
            chart.draw_series(DashedLineSeries::new([(x.start, size_mb), (x.end, size_mb)], 8, 6, BLACK.stroke_width(2))).map_err(text)?;
            entries.push(("pool size".to_string(), Mark::Dashed(BLACK)));
        }
        for (k, (_, _, label)) in KINDS.iter().enumerate() {
            let color = series_color(k);
            let points = self.times_us.iter().zip(&pool.max_bytes[k]).map(|(&t, &b)| (t, b / MB));
            chart.draw_series(LineSeries::new(points, color.stroke_width(2))).map_err(text)?;
            entries.push((label.to_string(), Mark::Line(color)));
        }
        draw_legend(&legend, &entries)?;
        Ok(pixel_rect(&chart))
    }
}
