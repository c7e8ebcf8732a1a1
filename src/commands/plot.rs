//! `sswitch plot`: figures of a run's records.

use super::{CommandResult, Failure};
use crate::plot::{plot_run, simulations_in, Plotted};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
#[command(long_about = "Draws a run's records as figures, each as PNG and SVG: buffer occupancy per pool \
    (with the pool size and one egress queue's ECN band), a PFC timeline (paused intervals per port and class, \
    pause, re-send and resume frames), ECN marks per interval per port, each equal-cost set's member shares \
    as a heat map with flowlet moves, and trimming counts. A record that is missing skips its figure with a note \
    on stderr. Files: FIGURES/{simulation}-{figure}.png and .svg.")]
pub struct PlotArgs {
    /// The folder `sswitch sim --out` wrote
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Folder for the figures; DIR/figures when left out
    #[arg(short = 'o', long = "out", value_name = "FIGURES")]
    pub out: Option<PathBuf>,
    /// The simulation to draw, when DIR holds records of several
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Print what was written as JSON (files and each plotting area's pixels)
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: PlotArgs) -> CommandResult {
    let simulation = match a.name {
        Some(name) => {
            reference::sim::scenario::check_simulation_name("--name", &name).map_err(Failure::input)?;
            name
        }
        None => only_simulation(&a.dir)?,
    };
    let out = a.out.unwrap_or_else(|| a.dir.join("figures"));
    let plotted = draw(&a.dir, &simulation, &out)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&plotted).expect("the report serializes"));
    } else {
        for figure in &plotted.figures {
            println!("wrote {}", figure.png.display());
            println!("wrote {}", figure.svg.display());
        }
    }
    Ok(())
}

/// Draws the figures and prints the notes of skipped ones on stderr.
pub fn draw(dir: &Path, simulation: &str, out: &Path) -> Result<Plotted, Failure> {
    let plotted = plot_run(dir, simulation, out).map_err(Failure::input)?;
    for note in &plotted.notes {
        eprintln!("note: {note}");
    }
    if plotted.figures.is_empty() {
        return Err(Failure::input(format!("no figure could be drawn from the records of {simulation:?} in {}", dir.display())));
    }
    Ok(plotted)
}

fn only_simulation(dir: &Path) -> Result<String, Failure> {
    let names = simulations_in(dir).map_err(Failure::input)?;
    match names.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Failure::input(format!("{} holds no record of a simulation ({{simulation}}-{{record}}-0.csv)", dir.display()))),
        many => Err(Failure::input(format!("{} holds records of {} simulations ({}); choose one with --name", dir.display(), many.len(), many.join(", ")))),
    }
}
