//! `--report [FORMAT=]PATH`: several reports from one run. Every file is
//! created before the run starts (a path that cannot be written is a usage
//! error before anything runs) and written when it ends, whatever the
//! verdict.

use super::Format;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// One `--report` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportFile {
    /// `None`: the report of `--format`, sent here instead of the terminal.
    pub format: Option<Format>,
    /// Where the report is written; created (truncated) before the run starts.
    pub path: PathBuf,
}

/// The names `--format` and `--report` take.
pub(crate) const FORMAT_NAMES: [(&str, Format); 5] = [
    ("human", Format::Human),
    ("json", Format::Json),
    ("junit", Format::Junit),
    ("sarif", Format::Sarif),
    ("github", Format::Github),
];

impl FromStr for ReportFile {
    type Err = String;

    /// `sarif=out/acp.sarif`, or a bare path. A prefix before `=` that is
    /// not a format name is part of the path only when no format matches
    /// (`a=b.txt` is a file named so), so a typo like `sraif=x` is caught.
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        if value.is_empty() {
            return Err("expected FORMAT=PATH (e.g. sarif=acp.sarif) or PATH".into());
        }
        if let Some((name, path)) = value.split_once('=') {
            if let Some((_, format)) = FORMAT_NAMES.iter().find(|(n, _)| *n == name) {
                if path.is_empty() {
                    return Err(format!("no path after `{name}=`"));
                }
                return Ok(ReportFile {
                    format: Some(*format),
                    path: path.into(),
                });
            }
            if !name.contains(['/', '.']) {
                let names: Vec<&str> = FORMAT_NAMES.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "unknown report format `{name}` (expected one of {})",
                    names.join(", ")
                ));
            }
        }
        Ok(ReportFile {
            format: None,
            path: value.into(),
        })
    }
}

/// The report files of a run, created and waiting for their text.
pub struct OpenReports {
    files: Vec<(ReportFile, File)>,
}

impl OpenReports {
    /// Create (or truncate) every file now; the error names the file.
    pub fn create(reports: &[ReportFile]) -> Result<OpenReports, (PathBuf, io::Error)> {
        let mut files = Vec::new();
        for report in reports {
            let file = File::create(&report.path).map_err(|e| (report.path.clone(), e))?;
            files.push((report.clone(), file));
        }
        Ok(OpenReports { files })
    }

    /// The file that takes the `--format` report instead of the terminal.
    pub fn primary(&self) -> Option<(&Path, &File)> {
        self.files
            .iter()
            .find(|(r, _)| r.format.is_none())
            .map(|(r, f)| (r.path.as_path(), f))
    }

    /// Write each `FORMAT=PATH` file with `render(format)`; the first
    /// failure is returned after every file was tried.
    pub fn write_all(
        self,
        mut render: impl FnMut(Format) -> String,
    ) -> Result<(), (PathBuf, io::Error)> {
        let mut first_error = None;
        for (report, mut file) in self.files {
            let Some(format) = report.format else {
                continue;
            };
            let written = file
                .write_all(render(format).as_bytes())
                .and_then(|()| file.flush());
            if let Err(e) = written {
                first_error.get_or_insert((report.path, e));
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_as_format_and_path() {
        let parsed: ReportFile = "sarif=out/acp.sarif".parse().unwrap();
        assert_eq!(parsed.format, Some(Format::Sarif));
        assert_eq!(parsed.path, PathBuf::from("out/acp.sarif"));
        let bare: ReportFile = "report.txt".parse().unwrap();
        assert_eq!(bare.format, None);
        let odd: ReportFile = "dir/a=b.txt".parse().unwrap();
        assert_eq!((odd.format, odd.path), (None, PathBuf::from("dir/a=b.txt")));
        assert!("sraif=x.sarif".parse::<ReportFile>().is_err());
        assert!("junit=".parse::<ReportFile>().is_err());
        assert!("".parse::<ReportFile>().is_err());
    }

    #[test]
    fn every_file_is_created_first_and_written_last() {
        let dir = tempfile::tempdir().unwrap();
        let reports: Vec<ReportFile> = ["json=a.json", "github=b.txt"]
            .iter()
            .map(|v| {
                let mut r: ReportFile = v.parse().unwrap();
                r.path = dir.path().join(&r.path);
                r
            })
            .collect();
        let open = OpenReports::create(&reports).unwrap();
        assert!(dir.path().join("a.json").exists());
        open.write_all(|format| format!("{format:?}")).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("b.txt")).unwrap(),
            "Github"
        );
        let unwritable = ReportFile {
            format: Some(Format::Json),
            path: dir.path().join("no/such/dir/x.json"),
        };
        assert!(OpenReports::create(&[unwritable]).is_err());
    }
}
