//! `sswitch plot` and `sim --plot`: every figure draws data inside its
//! plotting areas (PNG pixels), its SVG parses, missing records skip their
//! figure with a note, and bad records are refused naming the cell.

mod common;

use common::{sswitch, stderr, stdout};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn scratch_dir(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("plot").join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn simulate(dir: &Path, scenario: &str) {
    let out = sswitch(&["sim", "--scenario", scenario, "--out", dir.to_str().unwrap(), "--quiet"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

fn plot_json(dir: &Path) -> (Value, String) {
    let out = sswitch(&["plot", dir.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    (serde_json::from_str(&stdout(&out)).unwrap(), stderr(&out))
}

/// A pixel that is data: saturated colour. Background is white, axes,
/// grid lines and text are grey or black.
fn is_data(p: &image::Rgb<u8>) -> bool {
    let (max, min) = (p.0.iter().max().unwrap(), p.0.iter().min().unwrap());
    max - min >= 60
}

/// Data pixels inside one plotting area [x0, y0, x1, y1].
fn data_pixels(png: &image::RgbImage, panel: &[i64]) -> usize {
    let [x0, y0, x1, y1] = [panel[0], panel[1], panel[2], panel[3]].map(|v| v as u32);
    (y0..=y1).flat_map(|y| (x0..=x1).map(move |x| (x, y))).filter(|&(x, y)| is_data(png.get_pixel(x, y))).count()
}

/// Every panel of the figure holds data, and its SVG is a well-formed
/// document of the PNG's size with drawn elements.
fn check_figure(figure: &Value) {
    let name = figure["figure"].as_str().unwrap();
    let png = image::open(figure["png"].as_str().unwrap()).unwrap().to_rgb8();
    let panels = figure["panels"].as_array().unwrap();
    assert!(!panels.is_empty(), "{name}");
    for panel in panels {
        let panel: Vec<i64> = panel.as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        assert!(panel[2] < png.width() as i64 && panel[3] < png.height() as i64, "{name}: {panel:?} inside the image");
        let area = ((panel[2] - panel[0] + 1) * (panel[3] - panel[1] + 1)) as usize;
        let drawn = data_pixels(&png, &panel);
        assert!(drawn >= 300 && drawn >= area / 500, "{name}: only {drawn} data pixels in {panel:?}");
    }
    let svg = std::fs::read_to_string(figure["svg"].as_str().unwrap()).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}.svg: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("width"), Some(png.width().to_string().as_str()), "{name}");
    assert_eq!(root.attribute("height"), Some(png.height().to_string().as_str()), "{name}");
    let shapes = doc.descendants().filter(|n| matches!(n.tag_name().name(), "polyline" | "rect" | "circle" | "path" | "polygon")).count();
    let texts = doc.descendants().filter(|n| n.tag_name().name() == "text").count();
    assert!(shapes >= 20 && texts >= 10, "{name}.svg: {shapes} shapes, {texts} texts");
}

#[test]
fn every_figure_of_the_default_run_draws_data() {
    let dir = scratch_dir("default");
    simulate(&dir, "default");
    let (report, notes) = plot_json(&dir);
    let figures = report["figures"].as_array().unwrap();
    let names: Vec<&str> = figures.iter().map(|f| f["figure"].as_str().unwrap()).collect();
    assert_eq!(names, ["buffer-occupancy", "pfc-timeline", "ecn-marks", "load-balancing"]);
    assert!(notes.contains("figure trimming skipped"), "no trimming record in the default run: {notes}");
    for figure in figures {
        check_figure(figure);
    }
    // The load-balancing figure has a heat map and a moves panel per set.
    assert_eq!(figures[3]["panels"].as_array().unwrap().len(), 2);
}

#[test]
fn the_trimming_figure_draws_from_the_trimming_run() {
    let dir = scratch_dir("trimming");
    simulate(&dir, "uet-trimming");
    let (report, notes) = plot_json(&dir);
    let trimming = report["figures"].as_array().unwrap().iter().find(|f| f["figure"] == "trimming").expect("a trimming figure");
    check_figure(trimming);
    assert!(notes.contains("figure pfc-timeline skipped: no PFC frame"), "{notes}");
}

/// The pixel check is not vacuous: a panel painted white has no data.
#[test]
fn a_blank_panel_fails_the_pixel_check() {
    let dir = scratch_dir("blank");
    simulate(&dir, "incast");
    let (report, _) = plot_json(&dir);
    let figure = &report["figures"][0];
    let mut png = image::open(figure["png"].as_str().unwrap()).unwrap().to_rgb8();
    let panel: Vec<i64> = figure["panels"][0].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    assert!(data_pixels(&png, &panel) > 300);
    for y in panel[1]..=panel[3] {
        for x in panel[0]..=panel[2] {
            png.put_pixel(x as u32, y as u32, image::Rgb([255, 255, 255]));
        }
    }
    assert_eq!(data_pixels(&png, &panel), 0);
}

#[test]
fn sim_plot_draws_the_figures_after_the_run() {
    let dir = scratch_dir("sim_plot");
    let out = sswitch(&["sim", "--scenario", "incast", "--out", dir.to_str().unwrap(), "--quiet", "--plot"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for figure in ["buffer-occupancy", "pfc-timeline", "ecn-marks"] {
        for ext in ["png", "svg"] {
            let path = dir.join("figures").join(format!("incast-{figure}.{ext}"));
            assert!(stdout(&out).contains(&format!("wrote {}", path.display())), "{}", stdout(&out));
            assert!(path.metadata().unwrap().len() > 1000, "{}", path.display());
        }
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.join("figures")).unwrap().filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".partial")).collect();
    assert!(leftovers.is_empty(), "no half-written file");
}

#[test]
fn a_missing_record_skips_its_figure_with_a_note() {
    let dir = scratch_dir("missing");
    simulate(&dir, "fanout-flowlet");
    std::fs::remove_file(dir.join("fanout-flowlet-scala-switch-load-balancing-stats-0.csv")).unwrap();
    std::fs::remove_file(dir.join("fanout-flowlet-run.json")).unwrap();
    let out = sswitch(&["plot", dir.to_str().unwrap(), "-o", dir.join("figs").to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let notes = stderr(&out);
    assert!(notes.contains("note: no fanout-flowlet-scala-switch-load-balancing-stats-0.csv in") && notes.contains("figure load-balancing skipped"), "{notes}");
    assert!(notes.contains("fanout-flowlet-run.json") && notes.contains("ECN band"), "{notes}");
    assert!(dir.join("figs/fanout-flowlet-buffer-occupancy.png").exists());
    assert!(!dir.join("figs/fanout-flowlet-load-balancing.png").exists());
}

#[test]
fn bad_records_and_folders_are_refused_in_one_line() {
    let dir = scratch_dir("bad");
    simulate(&dir, "incast");
    let buff = dir.join("incast-scala-switch-agg-buff-stats-0.csv");
    let text = std::fs::read_to_string(&buff).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let cells: Vec<&str> = lines[3].split(',').collect();
    let column = lines[0].split(',').position(|c| c == "ivl_max_bytes").unwrap();
    let mut broken: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    broken[column] = "lots".into();
    lines[3] = broken.join(",");
    std::fs::write(&buff, lines.join("\n")).unwrap();
    let out = sswitch(&["plot", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("line 4") && message.contains("ivl_max_bytes") && message.contains("\"lots\""), "{message}");

    // Two simulations in one folder: the user must say which.
    simulate(&dir, "uet-trimming");
    let out = sswitch(&["plot", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("incast, uet-trimming") && stderr(&out).contains("--name"), "{}", stderr(&out));
    let out = sswitch(&["plot", dir.to_str().unwrap(), "--name", "../x"]);
    assert_eq!(out.status.code(), Some(2));
    let empty = scratch_dir("empty");
    let out = sswitch(&["plot", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("holds no record"), "{}", stderr(&out));
}
