//! The files a command reads: named files as given, and the documents under named
//! folders. Shared by `export` and `ask`, which skip a file they cannot read with a
//! warning and fail only when none can be read.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::Fail;

/// File extensions taken from a directory (a named file is always tried).
pub(crate) const EXTENSIONS: &[&str] =
    &["docx", "html", "htm", "rtf", "md", "markdown", "txt", "pdf"];

/// Named files as given, then each directory's files with a known extension, walked
/// in name order (so the same tree gives the same files in the same order).
///
/// # Errors
/// A named path that does not exist or cannot be listed ([`Fail::read`]).
pub(crate) fn collect_files(inputs: &[&str]) -> Result<Vec<PathBuf>, Fail> {
    let mut out = Vec::new();
    for input in inputs {
        let path = Path::new(input);
        let meta = fs::metadata(path).map_err(|e| Fail::read(input, &e))?;
        if meta.is_dir() {
            walk(path, &mut out).map_err(|e| Fail::read(input, &e))?;
        } else {
            out.push(path.to_path_buf());
        }
    }
    Ok(out)
}

/// Regular files under `dir` with a known extension. Symbolic links to folders are
/// not followed (a link to `.` would walk forever) and special files (pipes,
/// devices) are left out (reading a pipe waits forever).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut entries: Vec<(PathBuf, fs::FileType)> = fs::read_dir(dir)?
        .filter_map(|e| e.ok().and_then(|e| Some((e.path(), e.file_type().ok()?))))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (p, kind) in entries {
        if kind.is_dir() {
            walk(&p, out)?;
        } else if (kind.is_file() || (kind.is_symlink() && p.is_file()))
            && p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        {
            out.push(p);
        }
    }
    Ok(())
}

/// Says on stderr that `name` was skipped because of `f` (its error as a warning).
pub(crate) fn warn_skipped(f: &Fail, name: &str) {
    eprintln!(
        "{}",
        f.message.replacen("error", "warning", 1) + &format!(" (skipped {name})")
    );
}
