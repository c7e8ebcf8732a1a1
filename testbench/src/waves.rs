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

/// A VCD being written for one test.
pub struct Waves {
    pub vcd_path: PathBuf,
    pub gtkw_path: PathBuf,
    probe: Option<VCDProbe<BufWriter<File>>>,
}

impl Waves {
    /// Creates `target/vcd/<test>.vcd` and its `<test>.gtkw` view.
    pub fn create<H: Harness>(test: &str) -> Waves {
        let dir = vcd_dir();
        std::fs::create_dir_all(&dir).expect("create target/vcd");
        let vcd_path = dir.join(format!("{test}.vcd"));
        let gtkw_path = dir.join(format!("{test}.gtkw"));
        std::fs::write(&gtkw_path, gtkw_view::<H>(&vcd_path)).expect("write the GTKWave view");
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
            out.push_str(if p.width == 1 { "@28\n" } else { "@22\n" });
            out.push_str(&format!("uut.{}\n", p.name));
        }
        out.push_str(&format!("@1000200\n-{channel}\n"));
    }
    out
}
