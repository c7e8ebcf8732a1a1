//! `sswitch plot`: figures of a run's records, as PNG and SVG.
//!
//! ```text
//!  {sim}-*.csv, {sim}-run.json ─► one loader per figure (bounded: at most
//!  table::MAX_INTERVALS report intervals, the busiest series only)
//!      ─► draw once per backend (bitmap -> PNG, SVG) ─► {out}/{sim}-{figure}.png|svg
//! ```
//!
//! Every figure keeps its legend outside the plotting areas, so what is
//! drawn inside them is data (a test counts those pixels). A record that is
//! missing skips its figure with a note. Files are written through
//! `.partial` names and renamed, so a failed run leaves nothing half-written.

mod balance;
mod buffer;
mod ecn;
mod pfc;
mod table;
mod trimming;

use plotters::coord::Shift;
use plotters::prelude::*;
use reference::sim::records::{BUFF_STATS, ECN_PFC_STATS, LB_STATS, PFC_EVENTS, TRIM_STATS};
use reference::sim::RunDescription;
use std::path::{Path, PathBuf};

/// Pixel rectangle of one plotting area: x0, y0, x1, y1 (inclusive).
pub type PixelRect = [i32; 4];

/// One figure written.
#[derive(serde::Serialize)]
pub struct Figure {
    pub figure: &'static str,
    pub png: PathBuf,
    pub svg: PathBuf,
    /// The plotting areas in the PNG, where only data is drawn.
    pub panels: Vec<PixelRect>,
}

/// What `plot` did: the figures, and a note for each one it skipped.
#[derive(serde::Serialize)]
pub struct Plotted {
    pub simulation: String,
    pub figures: Vec<Figure>,
    pub notes: Vec<String>,
}

/// What a figure's loader found.
pub enum Loaded<T> {
    /// The record file is not there.
    Missing,
    /// The record is there but has nothing this figure draws (why).
    Nothing(&'static str),
    Data(T),
}

/// A figure's data, drawn the same way on any backend.
pub trait Draw {
    /// Width and height in pixels.
    fn size(&self) -> (u32, u32);
    /// Draws on `root` (already filled white) and returns the plotting areas.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<Vec<PixelRect>, String>;
}

/// The font every figure uses, embedded (see `FONT-LICENSE.txt`).
const FONT: &[u8] = include_bytes!("DejaVuSans.ttf");
pub const FAMILY: &str = "sans-serif";

fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_err() {
            unreachable!("the embedded font parses");
        }
    });
}

/// The simulations whose records are in `dir` (names before `-{record}-0.csv`).
pub fn simulations_in(dir: &Path) -> Result<Vec<String>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut names = std::collections::BTreeSet::new();
    for entry in entries {
        let name = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?.file_name();
        let name = name.to_string_lossy();
        for record in [BUFF_STATS, ECN_PFC_STATS, LB_STATS, TRIM_STATS, PFC_EVENTS] {
            if let Some(simulation) = name.strip_suffix(&format!("-{record}-0.csv")) {
                names.insert(simulation.to_string());
            }
        }
    }
    Ok(names.into_iter().collect())
}

/// The path of a record of a simulation in `dir`.
pub fn record_path(dir: &Path, simulation: &str, record: &str) -> PathBuf {
    dir.join(format!("{simulation}-{record}-0.csv"))
}

/// Draws every figure of `simulation`'s records in `dir` into `out`.
pub fn plot_run(dir: &Path, simulation: &str, out: &Path) -> Result<Plotted, String> {
    register_font();
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let run = read_run_description(dir, simulation)?;
    let mut plotted = Plotted { simulation: simulation.to_string(), figures: Vec::new(), notes: Vec::new() };
    let missing = |record: &str| format!("no {} in {}", record_path(dir, simulation, record).file_name().unwrap().to_string_lossy(), dir.display());
    if run.is_none() {
        plotted.notes.push(format!("no {} in {}: the ECN band and pool sizes are not drawn", RunDescription::file_name(simulation), dir.display()));
    }
    macro_rules! figure {
        ($name:literal, $record:expr, $load:expr) => {
            match $load? {
                Loaded::Data(data) => plotted.figures.push(render(out, simulation, $name, &data)?),
                Loaded::Missing => plotted.notes.push(format!("{}: figure {} skipped", missing($record), $name)),
                Loaded::Nothing(why) => plotted.notes.push(format!("figure {} skipped: {why}", $name)),
            }
        };
    }
    figure!("buffer-occupancy", BUFF_STATS, buffer::load(&record_path(dir, simulation, BUFF_STATS), run.as_ref()));
    figure!("pfc-timeline", PFC_EVENTS, pfc::load(&record_path(dir, simulation, PFC_EVENTS), run.as_ref()));
    figure!("ecn-marks", ECN_PFC_STATS, ecn::load(&record_path(dir, simulation, ECN_PFC_STATS)));
    figure!("load-balancing", LB_STATS, balance::load(&record_path(dir, simulation, LB_STATS)));
    figure!("trimming", TRIM_STATS, trimming::load(&record_path(dir, simulation, TRIM_STATS)));
    Ok(plotted)
}

fn read_run_description(dir: &Path, simulation: &str) -> Result<Option<RunDescription>, String> {
    let path = dir.join(RunDescription::file_name(simulation));
    match std::fs::read_to_string(&path) {
        Ok(text) => reference::strict_json::from_str(&text)
            .and_then(serde_json::from_value)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Draws `data` as `{out}/{simulation}-{name}.png` and `.svg`.
fn render<D: Draw>(out: &Path, simulation: &str, name: &'static str, data: &D) -> Result<Figure, String> {
    let (width, height) = data.size();
    let mut pixels = vec![0u8; width as usize * height as usize * 3];
    let panels = {
        let root = BitMapBackend::with_buffer(&mut pixels, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(text)?;
        let panels = data.draw(&root)?;
        root.present().map_err(text)?;
        panels
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(text)?;
        data.draw(&root)?;
        root.present().map_err(text)?;
    }
    let png_path = out.join(format!("{simulation}-{name}.png"));
    let svg_path = out.join(format!("{simulation}-{name}.svg"));
    write_through_partial(&png_path, |partial| {
        image::save_buffer_with_format(partial, &pixels, width, height, image::ColorType::Rgb8, image::ImageFormat::Png).map_err(text)
    })?;
    write_through_partial(&svg_path, |partial| std::fs::write(partial, &svg).map_err(text))?;
    Ok(Figure { figure: name, png: png_path, svg: svg_path, panels })
}

fn write_through_partial(path: &Path, write: impl FnOnce(&Path) -> Result<(), String>) -> Result<(), String> {
    let partial = PathBuf::from(format!("{}.partial", path.display()));
    let result = write(&partial).and_then(|()| std::fs::rename(&partial, path).map_err(text));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&partial);
        return Err(format!("cannot write {}: {e}", path.display()));
    }
    Ok(())
}

/// Any error as text.
pub fn text<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// The `i`-th series colour: saturated, so data never looks like an axis.
pub fn series_color(i: usize) -> RGBColor {
    const COLORS: [RGBColor; 10] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(23, 190, 207),
        RGBColor(227, 119, 194),
        RGBColor(188, 189, 34),
        RGBColor(140, 86, 75),
        RGBColor(0, 0, 255),
    ];
    COLORS[i % COLORS.len()]
}

/// Width of the legend strip right of every figure's panels.
pub const LEGEND_WIDTH: u32 = 260;

/// Splits a panel row into the chart and its legend strip.
pub fn with_legend<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let width = area.dim_in_pixel().0;
    area.split_horizontally(width.saturating_sub(LEGEND_WIDTH))
}

/// A legend entry's mark.
pub enum Mark {
    Line(RGBColor),
    Dashed(RGBColor),
    Band(RGBAColor),
    Triangle(RGBColor),
    Circle(RGBColor),
    Cross(RGBColor),
    Box(RGBColor),
}

/// Draws a legend (a mark and a label per line) in its own strip.
pub fn draw_legend<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, entries: &[(String, Mark)]) -> Result<(), String> {
    let style = (FAMILY, 14).into_font().color(&BLACK);
    for (i, (label, mark)) in entries.iter().enumerate() {
        let y = 40 + 22 * i as i32;
        let (x0, x1) = (10, 40);
        match mark {
            Mark::Line(c) => area.draw(&PathElement::new(vec![(x0, y), (x1, y)], c.stroke_width(3))),
            Mark::Dashed(c) => area.draw(&PathElement::new(vec![(x0, y), (x0 + 10, y)], c.stroke_width(2)))
                .and_then(|()| area.draw(&PathElement::new(vec![(x0 + 20, y), (x1, y)], c.stroke_width(2)))),
            Mark::Band(c) => area.draw(&Rectangle::new([(x0, y - 6), (x1, y + 6)], c.filled())),
            Mark::Box(c) => area.draw(&Rectangle::new([(x0, y - 6), (x1, y + 6)], c.filled())),
            Mark::Triangle(c) => area.draw(&TriangleMarker::new((x0 + 15, y), 6, c.filled())),
            Mark::Circle(c) => area.draw(&Circle::new((x0 + 15, y), 5, c.filled())),
            Mark::Cross(c) => area.draw(&Cross::new((x0 + 15, y), 6, c.stroke_width(2))),
        }
        .map_err(text)?;
        area.draw(&Text::new(label.clone(), (x1 + 8, y - 8), style.clone())).map_err(text)?;
    }
    Ok(())
}

/// The plotting area of a chart as a pixel rectangle.
pub fn pixel_rect<DB: DrawingBackend, X: plotters::coord::ranged1d::Ranged, Y: plotters::coord::ranged1d::Ranged>(
    chart: &ChartContext<DB, Cartesian2d<X, Y>>,
) -> PixelRect {
    let (x, y) = chart.plotting_area().get_pixel_range();
    [x.start, y.start, x.end - 1, y.end - 1]
}

/// The time axis of every figure: from 0 to the last report, in us.
pub fn time_range_us(times_us: &[f64]) -> std::ops::Range<f64> {
    0.0..times_us.last().copied().unwrap_or(1.0).max(1e-3)
}

/// An upper y bound a little above `max`, never 0.
pub fn headroom(max: f64) -> f64 {
    if max > 0.0 { max * 1.12 } else { 1.0 }
}
