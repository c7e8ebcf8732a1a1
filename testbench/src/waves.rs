//! VCD traces and GTKWave views: one file per test in `target/vcd/`,
//! beside it a `.gtkw` view grouping the block's ports by channel.

use crate::cosim::Harness;
use rust_hdl::prelude::*;
use std::fs::File;
use rust_hdl::core::vcd_probe::VCDProbe;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// The one folder for VCD traces: `<workspace>/target/vcd`.
pub fn vcd_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf();
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target")).join("vcd")
}

/// The VCD of `test`: `target/vcd/<test>.vcd` (its GTKWave view beside it,
/// `<test>.gtkw`).
pub fn vcd_path(test: &str) -> PathBuf {
    vcd_dir().join(format!("{test}.vcd"))
}

/// Creates `target/vcd` and writes `test`'s GTKWave view; returns the path
/// its VCD is to take.
pub fn prepare_vcd<H: Harness>(test: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(vcd_dir())?;
    let vcd = vcd_path(test);
    std::fs::write(vcd.with_extension("gtkw"), gtkw_view::<H>(&vcd))?;
    Ok(vcd)
}

/// A VCD being written for one test.
pub struct Waves {
    pub vcd_path: PathBuf,
    pub gtkw_path: PathBuf,
    probe: Option<VCDProbe<BufWriter<File>>>,
}

impl Waves {
    /// Creates `target/vcd/<test>.vcd` and its `<test>.gtkw` view.
    pub fn create<H: Harness>(test: &str) -> Waves {
        let vcd_path = prepare_vcd::<H>(test).expect("create target/vcd and the GTKWave view");
        let gtkw_path = vcd_path.with_extension("gtkw");
        Waves { vcd_path, gtkw_path, probe: None }
    }

    pub(crate) fn start(&mut self, uut: &dyn Block) {
        let file = BufWriter::new(File::create(&self.vcd_path).expect("create the VCD"));
        let mut probe = write_vcd_header(file, uut);
        probe.timestamp(0).expect("write VCD");
        self.probe = Some(write_vcd_dump(probe, uut));
    }

    pub(crate) fn sample(&mut self, t_ps: u64, uut: &dyn Block) {
        let mut probe = self.probe.take().expect("started");
        probe.timestamp(t_ps).expect("write VCD");
        self.probe = Some(write_vcd_change(probe, uut));
    }

    /// Flushes the file.
    pub fn close(self) {
        drop(self.probe);
    }
}

/// A GTKWave save file: the clock, then one group per channel.
pub fn gtkw_view<H: Harness>(vcd: &Path) -> String {
    let mut out = format!("[dumpfile] \"{}\"\n[timestart] 0\n[sst_expanded] 1\n@28\nuut.clock\n", vcd.display());
    let mut channels: Vec<&str> = Vec::new();
    for p in H::INPUTS.iter().chain(H::OUTPUTS) {
        if !channels.contains(&p.channel) {
            channels.push(p.channel);
        }
    }
    for channel in channels {
        out.push_str(&format!("@800200\n-{channel}\n"));
        for p in H::INPUTS.iter().chain(H::OUTPUTS).filter(|p| p.channel == channel) {
            if p.width == 1 {
                out.push_str(&format!("@28\nuut.{}\n", p.name));
            } else {
                // GTKWave names a VCD vector with its range.
                out.push_str(&format!("@22\nuut.{}[{}:0]\n", p.name, p.width - 1));
            }
        }
        out.push_str(&format!("@1000200\n-{channel}\n"));
    }
    out
}

/// Renders a VCD with its view headless (Xvfb + GTKWave) to a PNG: the
/// Tcl script zooms to fit, grabs the screen with ImageMagick's `import`,
/// and quits.
pub fn render_png(vcd: &Path, gtkw: &Path, png: &Path) -> Result<(), ::synth::tools::ToolError> {
    let script = png.with_extension("tcl");
    let tcl = format!(
        "gtkwave::/Time/Zoom/Zoom_Full\nupdate\nafter 1000\nupdate\nexec import -window root {}\ngtkwave::/File/Quit\n",
        png.display()
    );
    std::fs::write(&script, tcl).map_err(|e| ::synth::tools::ToolError(e.to_string()))?;
    let args = [
        "-a", "-s", "-screen 0 1280x800x24", "gtkwave", "-S",
        &script.to_string_lossy(), &vcd.to_string_lossy(), &gtkw.to_string_lossy(),
    ]
    .map(|s| s.to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let dir = png.parent().expect("a file has a folder");
    let out = ::synth::tools::run("xvfb-run", &args, dir)?;
    if !out.status.success() || !png.exists() {
        return Err(::synth::tools::ToolError(format!(
            "GTKWave render failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(())
}

/// Fraction of a PNG's pixels in GTKWave's waveform green (0 for a view
/// with no signals drawn). Uses ImageMagick's `convert` from /usr/bin
/// (another `convert` may come first on PATH).
pub fn waveform_fraction(png: &Path) -> Result<f64, ::synth::tools::ToolError> {
    let png_arg = png.to_string_lossy().to_string();
    let args = [
        png_arg.as_str(), "-fuzz", "10%", "-fill", "black", "-opaque", "white", "-fill", "white", "-opaque", "#00ff00",
        "-fill", "black", "+opaque", "white", "-format", "%[fx:mean]", "info:",
    ];
    let out = ::synth::tools::run("/usr/bin/convert", &args, png.parent().expect("folder"))?;
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .map_err(|_| ::synth::tools::ToolError(format!("ImageMagick did not measure {}: {}", png.display(), String::from_utf8_lossy(&out.stderr))))
}
