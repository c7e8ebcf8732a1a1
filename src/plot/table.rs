//! Reading a record's CSV file row by row, with errors that name the file,
//! the line, the column and the value.

use std::io::BufRead;
use std::path::{Path, PathBuf};

/// Report intervals a figure draws at most. A run with more (a long run
/// with short intervals) is refused, naming the interval to lengthen, so
/// memory stays bounded whatever the records hold.
pub const MAX_INTERVALS: usize = 20_000;
/// Longest line read from a record file.
const MAX_LINE_BYTES: usize = 1 << 20;

/// A record file open for reading, with its header.
pub struct Table {
    path: PathBuf,
    lines: std::io::Lines<std::io::BufReader<std::fs::File>>,
    header: Vec<String>,
    line_number: usize,
}

/// One row of a table: cells by column name, parsed with errors naming
/// where they came from.
pub struct Row<'a> {
    table: &'a Table,
    cells: Vec<String>,
}

impl Table {
    /// Opens `path`; `Ok(None)` when the file does not exist.
    pub fn open(path: &Path) -> Result<Option<Table>, String> {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let mut table = Table { path: path.to_path_buf(), lines: std::io::BufReader::new(file).lines(), header: Vec::new(), line_number: 0 };
        table.header = match table.next_line()? {
            Some(line) => split_csv(&line),
            None => return Err(format!("{}: empty file, no header line", path.display())),
        };
        Ok(Some(table))
    }

    /// Fails unless every one of `columns` is in the header.
    pub fn require(&self, columns: &[&str]) -> Result<(), String> {
        for c in columns {
            if !self.header.iter().any(|h| h == c) {
                return Err(format!("{}: no column {c:?} in the header", self.path.display()));
            }
        }
        Ok(())
    }

    fn next_line(&mut self) -> Result<Option<String>, String> {
        match self.lines.next() {
            None => Ok(None),
            Some(Err(e)) => Err(format!("{}: line {}: {e}", self.path.display(), self.line_number + 1)),
            Some(Ok(line)) => {
                self.line_number += 1;
                if line.len() > MAX_LINE_BYTES {
                    return Err(format!("{}: line {} is {} bytes, longer than the {MAX_LINE_BYTES} a record line may be",
                        self.path.display(), self.line_number, line.len()));
                }
                Ok(Some(line))
            }
        }
    }

    /// Calls `each` with every data row, in file order.
    pub fn for_each_row(mut self, mut each: impl FnMut(&Row) -> Result<(), String>) -> Result<(), String> {
        while let Some(line) = self.next_line()? {
            if line.is_empty() {
                continue;
            }
            let cells = split_csv(&line);
            if cells.len() != self.header.len() {
                return Err(format!("{}: line {} has {} cells, the header {}", self.path.display(), self.line_number, cells.len(), self.header.len()));
            }
            each(&Row { table: &self, cells })?;
        }
        Ok(())
    }
}

impl Row<'_> {
    pub fn text(&self, column: &str) -> Result<&str, String> {
        let i = self.table.header.iter().position(|h| h == column)
            .ok_or_else(|| format!("{}: no column {column:?} in the header", self.table.path.display()))?;
        Ok(&self.cells[i])
    }

    /// A cell parsed as `T`; the error names the file, line, column and value.
    pub fn parse<T: std::str::FromStr>(&self, column: &str) -> Result<T, String> {
        let text = self.text(column)?;
        text.parse().map_err(|_| format!("{}: line {}, column {column}: {text:?} is not a {}",
            self.table.path.display(), self.table.line_number, kind_name::<T>()))
    }

    /// A cell that is a finite number of at least 0.
    pub fn number(&self, column: &str) -> Result<f64, String> {
        let v: f64 = self.parse(column)?;
        if !v.is_finite() || v < 0.0 {
            return Err(format!("{}: line {}, column {column}: {v} is not a finite number of at least 0",
                self.table.path.display(), self.table.line_number));
        }
        Ok(v)
    }
}

fn kind_name<T>() -> &'static str {
    let name = std::any::type_name::<T>();
    if name.starts_with('u') || name.starts_with('i') { "whole number in range" } else { "number" }
}

/// Splits one CSV line (RFC 4180 quoting, as the records write it).
fn split_csv(line: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => cells.push(std::mem::take(&mut cell)),
            _ => cell.push(c),
        }
    }
    cells.push(cell);
    cells
}

/// Report times in a record, in order, as interval indexes: the k-th
/// distinct `sim_time_sec` is interval k. Refuses more than
/// [`MAX_INTERVALS`].
#[derive(Default)]
pub struct Intervals {
    pub times_us: Vec<f64>,
    last_text: String,
}

impl Intervals {
    /// The interval of a row's time, adding it when new.
    pub fn index(&mut self, row: &Row, record: &str) -> Result<usize, String> {
        let text = row.text("sim_time_sec")?;
        if text != self.last_text || self.times_us.is_empty() {
            let t = row.number("sim_time_sec")? * 1e6;
            if self.times_us.last().is_some_and(|&last| t < last) {
                return Err(format!("{record}: sim_time_sec {text} goes back in time"));
            }
            if self.times_us.len() == MAX_INTERVALS {
                return Err(format!("{record}: more than {MAX_INTERVALS} report intervals; \
                    plot a run with a longer report interval (BufferStatsReportInterval, LoadBalancingStatsReportInterval)"));
            }
            self.times_us.push(t);
            self.last_text = text.to_string();
        }
        Ok(self.times_us.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::split_csv;

    #[test]
    fn quoted_cells_keep_their_commas_and_quotes() {
        assert_eq!(split_csv(r#"a,"b,c","d""e",,f"#), ["a", "b,c", "d\"e", "", "f"]);
    }
}
