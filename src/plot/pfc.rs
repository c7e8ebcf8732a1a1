//! Figure `pfc-timeline`: for each port and class that was paused, the
//! intervals it was paused, from `scala-switch-pfc-events`, with pause,
//! re-send and resume frames marked.
//!
//! Sent (tx) rows: the switch paused the sender behind the port, from the
//! pause it decided to send until its resume or until the pause time ran
//! out (re-sends extend it). Received (rx) rows: the peer paused the port's
//! egress, until its resume or the pause's end.

use super::table::Table;
use super::*;

/// Rows drawn at most: the ones paused longest.
const MAX_ROWS: usize = 32;
/// Frames read at most; a longer file is refused rather than held.
const MAX_FRAMES: usize = 2_000_000;

#[derive(Clone, Copy, PartialEq)]
enum FrameKind {
    Pause,
    Resend,
    Resume,
}

#[derive(Default)]
struct Lane {
    intervals_us: Vec<(f64, f64)>,
    frames: Vec<(f64, FrameKind)>,
    paused_until_us: Option<(f64, f64)>,
}

impl Lane {
    fn frame(&mut self, t: f64, kind: FrameKind, end: f64) {
        self.frames.push((t, kind));
        match (kind, self.paused_until_us) {
            (FrameKind::Resume, Some((start, until))) => {
                self.intervals_us.push((start, t.min(until)));
                self.paused_until_us = None;
            }
            (FrameKind::Resume, None) => {}
            (_, Some((start, until))) if t <= until => self.paused_until_us = Some((start, end.max(until))),
            (_, Some((start, until))) => {
                self.intervals_us.push((start, until));
                self.paused_until_us = Some((t, end));
            }
            (_, None) => self.paused_until_us = Some((t, end)),
        }
    }

    fn close(&mut self, end_us: f64) {
        if let Some((start, until)) = self.paused_until_us.take() {
            self.intervals_us.push((start, until.min(end_us)));
        }
    }

    fn paused_us(&self) -> f64 {
        self.intervals_us.iter().map(|(a, b)| b - a).sum()
    }
}

pub struct PfcFigure {
    end_us: f64,
    /// (label, sent?, lane), top row first.
    lanes: Vec<(String, bool, Lane)>,
    left_out: usize,
}

pub fn load(path: &Path, run: Option<&RunDescription>) -> Result<Loaded<PfcFigure>, String> {
    let Some(table) = Table::open(path)? else { return Ok(Loaded::Missing) };
    table.require(&["sim_time_sec", "ifid", "direction", "frame", "priorities", "pause_end_sec"])?;
    let mut lanes: std::collections::BTreeMap<(u16, u8, bool), Lane> = Default::default();
    let mut frames = 0usize;
    let mut last_us = 0.0f64;
    table.for_each_row(|row| {
        frames += 1;
        if frames > MAX_FRAMES {
            return Err(format!("{}: more than {MAX_FRAMES} PFC frames; plot a shorter run", path.display()));
        }
        let t = row.number("sim_time_sec")? * 1e6;
        let end = row.number("pause_end_sec")? * 1e6;
        last_us = last_us.max(t);
        let sent = match row.text("direction")? {
            "tx" => true,
            "rx" => false,
            other => return Err(format!("{}: direction {other:?} is not tx or rx", path.display())),
        };
        let kind = match row.text("frame")? {
            "pause" => FrameKind::Pause,
            "resend" => FrameKind::Resend,
            "resume" => FrameKind::Resume,
            other => return Err(format!("{}: frame {other:?} is not pause, resend or resume", path.display())),
        };
        let port: u16 = row.parse("ifid")?;
        for class in row.text("priorities")?.split_whitespace() {
            let class: u8 = class.parse().ok().filter(|c| *c < 8)
                .ok_or_else(|| format!("{}: priorities {class:?} is not a class 0 to 7", path.display()))?;
            lanes.entry((port, class, sent)).or_default().frame(t, kind, end);
        }
        Ok(())
    })?;
    if lanes.is_empty() {
        return Ok(Loaded::Nothing("no PFC frame was sent or received"));
    }
    let end_us = run.map_or(last_us, |r| r.duration_sec * 1e6).max(last_us);
    let mut lanes: Vec<((u16, u8, bool), Lane)> = lanes.into_iter().collect();
    for (_, lane) in &mut lanes {
        lane.close(end_us);
    }
    // The longest paused first, then shown in port order.
    lanes.sort_by(|a, b| b.1.paused_us().total_cmp(&a.1.paused_us()));
    let left_out = lanes.len().saturating_sub(MAX_ROWS);
    lanes.truncate(MAX_ROWS);
    lanes.sort_by_key(|(key, _)| *key);
    let lanes = lanes
        .into_iter()
        .map(|((port, class, sent), lane)| (format!("port {port} TC{class} {}", if sent { "sent" } else { "received" }), sent, lane))
        .collect();
    Ok(Loaded::Data(PfcFigure { end_us, lanes, left_out }))
}

const SENT: RGBColor = RGBColor(31, 119, 180);
const RECEIVED: RGBColor = RGBColor(255, 127, 14);
const FRAME_MARK: RGBColor = RGBColor(160, 0, 60);

impl Draw for PfcFigure {
    fn size(&self) -> (u32, u32) {
        (1200, 160 + 26 * self.lanes.len() as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<Vec<PixelRect>, String> {
        let title = if self.left_out > 0 {
            format!("PFC timeline: the {} longest-paused of {} port/class pairs", self.lanes.len(), self.lanes.len() + self.left_out)
        } else {
            "PFC timeline: paused intervals per port and class".to_string()
        };
        let root = root.titled(&title, (FAMILY, 22)).map_err(text)?;
        let (chart_area, legend) = with_legend(&root);
        let rows = self.lanes.len();
        let labels: Vec<String> = self.lanes.iter().map(|(l, _, _)| l.clone()).collect();
        // Row i is centred on y = rows - 1 - i; ticks fall on whole numbers.
        let label_of = |y: &f64| {
            let row = y.round();
            if (*y - row).abs() < 1e-6 && row >= 0.0 && (row as usize) < rows { labels[rows - 1 - row as usize].clone() } else { String::new() }
        };
        let mut chart = ChartBuilder::on(&chart_area)
            .margin(8)
            .x_label_area_size(40)
            .y_label_area_size(170)
            .build_cartesian_2d(0.0..self.end_us.max(1e-3), -0.5..rows as f64 - 0.5)
            .map_err(text)?;
        chart
            .configure_mesh()
            .x_desc("simulated time (us)")
            .y_labels(rows)
            .y_label_formatter(&label_of)
            .disable_y_mesh()
            .light_line_style(RGBColor(238, 238, 238))
            .draw()
            .map_err(text)?;
        for (i, (_, sent, lane)) in self.lanes.iter().enumerate() {
            let y = (rows - 1 - i) as f64;
            let color = if *sent { SENT } else { RECEIVED };
            chart.draw_series(lane.intervals_us.iter().map(|&(a, b)| Rectangle::new([(a, y - 0.3), (b, y + 0.3)], color.filled())))
                .map_err(text)?;
            for &(t, kind) in &lane.frames {
                let at = (t, y);
                match kind {
                    FrameKind::Pause => chart.draw_series([TriangleMarker::new(at, 5, FRAME_MARK.filled())]),
                    FrameKind::Resend => chart.draw_series([Circle::new(at, 3, FRAME_MARK.filled())]),
                    FrameKind::Resume => chart.draw_series([Cross::new(at, 5, FRAME_MARK.stroke_width(2))]),
                }
                .map_err(text)?;
            }
        }
        draw_legend(&legend, &[
            ("paused by the switch (sent)".into(), Mark::Box(SENT)),
            ("paused by the peer (received)".into(), Mark::Box(RECEIVED)),
            ("pause frame".into(), Mark::Triangle(FRAME_MARK)),
            ("pause re-sent".into(), Mark::Circle(FRAME_MARK)),
            ("resume frame".into(), Mark::Cross(FRAME_MARK)),
        ])?;
        Ok(vec![pixel_rect(&chart)])
    }
}
