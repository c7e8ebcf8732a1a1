//! Figure `trimming`: packets trimmed per report interval per egress port,
//! and the drops that could not be trimmed, from
//! `scala-switch-trimming-stats`.

use super::ecn::{draw_port_counts, top_ports, PortCounts};
use super::*;
use reference::sim::records::TRIM_STATS;

pub struct TrimmingFigure {
    trimmed: PortCounts,
    untrimmable: PortCounts,
}

pub fn load(path: &Path) -> Result<Loaded<TrimmingFigure>, String> {
    let Some(trimmed) = top_ports(path, TRIM_STATS, "trimmed_packets")? else { return Ok(Loaded::Missing) };
    if trimmed.ports.is_empty() {
        return Ok(Loaded::Nothing("no packet was trimmed"));
    }
    let untrimmable = top_ports(path, TRIM_STATS, "untrimmable_drops")?.ok_or_else(|| format!("{} disappeared while being read", path.display()))?;
    Ok(Loaded::Data(TrimmingFigure { trimmed, untrimmable }))
}

impl Draw for TrimmingFigure {
    /// A second panel only when some drop could not be trimmed.
    fn size(&self) -> (u32, u32) {
        (1200, if self.untrimmable.ports.is_empty() { 430 } else { 860 })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<Vec<PixelRect>, String> {
        let (top, bottom) = root.split_vertically(430);
        let title = if self.untrimmable.ports.is_empty() {
            "Packets trimmed per report interval, per egress port (no drop was untrimmable)"
        } else {
            "Packets trimmed per report interval, per egress port"
        };
        let mut panels = draw_port_counts(&top, title, "packets trimmed per interval", &self.trimmed)?;
        if !self.untrimmable.ports.is_empty() {
            panels.extend(draw_port_counts(&bottom, "Drops that could not be trimmed, per interval", "packets dropped per interval", &self.untrimmable)?);
        }
        Ok(panels)
    }
}
