//! `CloudFs`: the files cloud-init writes during boots (scripts, boothooks, semaphores, write_files), as a map — run-parts lists it.
//!
//! Nothing is read from or written to the machine: the map starts empty, as
//! `/var/lib/cloud` of a fresh image, and paths resolve as the kernel would
//! with the one symlink cloud-init makes (`/var/lib/cloud/instance` →
//! `instances/<instance-id>`). Paths outside what the boot writes are assumed
//! to be directories that exist (`/etc`, `/usr/local/bin`).

use std::collections::BTreeMap;

/// One entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FsEntry {
    /// A directory.
    Dir,
    /// A regular file: its bytes and mode (`0o700`).
    File {
        /// Content.
        data: Vec<u8>,
        /// Permission bits.
        mode: u32,
    },
}

/// The files written so far, by resolved absolute path.
#[derive(Clone, Debug)]
pub struct CloudFs {
    entries: BTreeMap<String, FsEntry>,
    /// `/var/lib/cloud` (`system_info.paths.cloud_dir`).
    cloud_dir: String,
    /// The instance id the `instance` link points at.
    instance_id: String,
}

use super::FsError;

/// Whether `/` + `parts` joined by `/` is `text`.
fn joined_is(parts: &[&str], text: &str) -> bool {
    if parts.is_empty() {
        return text == "/";
    }
    let mut rest = text;
    for c in parts {
        match rest.strip_prefix('/').and_then(|r| r.strip_prefix(c)) {
            Some(r) => rest = r,
            None => return false,
        }
    }
    rest.is_empty()
}

impl CloudFs {
    /// A fresh image's: nothing under the cloud dir but the instance link.
    pub fn new(cloud_dir: &str, instance_id: &str) -> CloudFs {
        let mut fs = CloudFs {
            entries: BTreeMap::new(),
            cloud_dir: cloud_dir.trim_end_matches('/').to_owned(),
            instance_id: instance_id.to_owned(),
        };
        // Init._initial_subdirs (Init.initialize) and _reflect_cur_instance's
        // _get_instance_subdirs make these before any handler (both releases).
        let _ = fs.ensure_dir(&fs.cloud_dir.clone());
        for d in [
            "scripts",
            "scripts/per-instance",
            "scripts/per-once",
            "scripts/per-boot",
            "scripts/vendor",
            "seed",
            "instances",
            "handlers",
            "sem",
            "data",
        ] {
            let _ = fs.ensure_dir(&fs.cpath(d));
        }
        for d in ["handlers", "scripts", "sem"] {
            let _ = fs.ensure_dir(&fs.ipath(d));
        }
        fs
    }

    /// The cloud dir.
    pub fn cloud_dir(&self) -> &str {
        &self.cloud_dir
    }

    /// `paths.get_cpath(name)`.
    pub fn cpath(&self, name: &str) -> String {
        if name.is_empty() {
            self.cloud_dir.clone()
        } else {
            format!("{}/{name}", self.cloud_dir)
        }
    }

    /// `paths.get_ipath(name)`: under `instances/<iid>`.
    pub fn ipath(&self, name: &str) -> String {
        if name.is_empty() {
            format!("{}/instances/{}", self.cloud_dir, self.instance_id)
        } else {
            format!("{}/instances/{}/{name}", self.cloud_dir, self.instance_id)
        }
    }

    /// `paths.get_ipath_cur(name)`: under the `instance` link.
    pub fn ipath_cur(&self, name: &str) -> String {
        if name.is_empty() {
            format!("{}/instance", self.cloud_dir)
        } else {
            format!("{}/instance/{name}", self.cloud_dir)
        }
    }

    /// The path the kernel opens: `.` and `..` walked component by
    /// component after the `instance` link is followed; `None` when `..`
    /// climbs above the root of a relative path (never: paths are absolute).
    pub fn resolve(&self, path: &str) -> String {
        let link = format!("{}/instance", self.cloud_dir);
        let target_text = format!("{}/instances/{}", self.cloud_dir, self.instance_id);
        let target: Vec<&str> = target_text.split('/').filter(|c| !c.is_empty()).collect();
        // Components borrowed from `path` or the target: a path is resolved
        // for every file written, so without a string per component.
        let mut parts: Vec<&str> = Vec::new();
        for c in path.split('/') {
            match c {
                "" | "." => {}
                ".." => {
                    parts.pop();
                }
                c => {
                    parts.push(c);
                    if joined_is(&parts, &link) {
                        parts.clone_from(&target);
                    }
                }
            }
        }
        let mut out = String::with_capacity(path.len() + target_text.len());
        if parts.is_empty() {
            out.push('/');
        }
        for c in parts {
            out.push('/');
            out.push_str(c);
        }
        out
    }

    /// The entry at a path.
    pub fn get(&self, path: &str) -> Option<&FsEntry> {
        self.entries.get(&self.resolve(path))
    }

    /// `os.path.isdir`.
    pub fn is_dir(&self, path: &str) -> bool {
        matches!(self.get(path), Some(FsEntry::Dir))
    }

    /// `os.path.exists`.
    pub fn exists(&self, path: &str) -> bool {
        self.get(path).is_some()
    }

    /// `util.ensure_dir(path)`: `os.makedirs` unless it is a directory.
    pub fn ensure_dir(&mut self, path: &str) -> Result<(), FsError> {
        let resolved = self.resolve(path);
        let mut cur = String::new();
        for c in resolved.split('/').filter(|c| !c.is_empty()) {
            cur.push('/');
            cur.push_str(c);
            match self.entries.get(&cur) {
                Some(FsEntry::Dir) => {}
                Some(FsEntry::File { .. }) if cur == resolved => {
                    return Err(FsError::FileExists(path.to_owned()));
                }
                Some(FsEntry::File { .. }) => {
                    return Err(FsError::NotADirectory(path.to_owned()));
                }
                None => {
                    self.entries.insert(cur.clone(), FsEntry::Dir);
                }
            }
        }
        Ok(())
    }

    /// `util.write_file(path, content, mode, omode)` after the content was
    /// encoded: the parent made, the file opened (`wb` or `ab`), chmod.
    pub fn write_file(
        &mut self,
        path: &str,
        content: &[u8],
        mode: u32,
        append: bool,
    ) -> Result<(), FsError> {
        self.ensure_dir(&dirname(path))?;
        self.open_write(path, content, mode, append)
    }

    /// The open-and-write half of [`CloudFs::write_file`] (the encoding
    /// happens between `ensure_dir` and `open`).
    pub fn open_write(
        &mut self,
        path: &str,
        content: &[u8],
        mode: u32,
        append: bool,
    ) -> Result<(), FsError> {
        let resolved = self.resolve(path);
        if path.ends_with('/') || matches!(self.entries.get(&resolved), Some(FsEntry::Dir)) {
            return Err(FsError::IsADirectory(path.to_owned()));
        }
        let old = self.entries.remove(&resolved);
        // util.chmod skips a false mode (0): the file keeps the mode it has,
        // or a new one gets open()'s 0o666 under the boot's umask 022.
        let mode = match (&old, mode) {
            (Some(FsEntry::File { mode: had, .. }), 0) => *had,
            (_, 0) => 0o644,
            // os.chmod: the kernel keeps the permission bits.
            (_, m) => m & 0o7777,
        };
        let data = match (append, old) {
            (true, Some(FsEntry::File { mut data, .. })) => {
                data.extend_from_slice(content);
                data
            }
            _ => content.to_vec(),
        };
        self.entries.insert(resolved, FsEntry::File { data, mode });
        Ok(())
    }

    /// `sorted(os.listdir(dir))` (Python's code-point order is the byte
    /// order of UTF-8), or `None` when it is no directory.
    pub fn listdir(&self, dir: &str) -> Option<Vec<String>> {
        let resolved = self.resolve(dir);
        if !matches!(self.entries.get(&resolved), Some(FsEntry::Dir)) {
            return None;
        }
        let prefix = if resolved == "/" {
            "/".to_owned()
        } else {
            format!("{resolved}/")
        };
        Some(
            self.entries
                .range(prefix.clone()..)
                .take_while(|(k, _)| k.starts_with(&prefix))
                .filter_map(|(k, _)| k.get(prefix.len()..))
                .filter(|rest| !rest.contains('/'))
                .map(str::to_owned)
                .collect(),
        )
    }
}

/// `os.path.dirname`.
pub(super) fn dirname(path: &str) -> String {
    let i = path.rfind('/').map_or(0, |i| i + 1);
    let head = path.get(..i).unwrap_or("");
    if !head.is_empty() && !head.chars().all(|c| c == '/') {
        head.trim_end_matches('/').to_owned()
    } else {
        head.to_owned()
    }
}

/// `os.path.basename`.
pub(super) fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `os.path.abspath` with the working directory `/`: `normpath("/" + p)`
/// for a relative path (lexical; two leading slashes are kept, as POSIX
/// allows).
pub(super) fn abspath(path: &str) -> String {
    let joined = if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("/{path}")
    };
    let lead = if joined.starts_with("//") && !joined.starts_with("///") {
        "//"
    } else {
        "/"
    };
    let mut parts: Vec<&str> = Vec::new();
    for c in joined.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    format!("{lead}{}", parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_through_the_instance_link() {
        let mut fs = CloudFs::new("/var/lib/cloud", "i-1");
        assert_eq!(
            fs.resolve("/var/lib/cloud/instance/scripts/x"),
            "/var/lib/cloud/instances/i-1/scripts/x"
        );
        assert_eq!(
            fs.resolve("/var/lib/cloud/instance/scripts/.."),
            "/var/lib/cloud/instances/i-1"
        );
        assert_eq!(
            fs.resolve("/var/lib/cloud/instance/.."),
            "/var/lib/cloud/instances"
        );
        assert_eq!(fs.resolve("/"), "/");
        assert_eq!(fs.resolve("/.."), "/");
        assert_eq!(
            fs.resolve("//var/./lib/cloud/instance"),
            "/var/lib/cloud/instances/i-1"
        );
        fs.write_file("/var/lib/cloud/instance/scripts/b", b"x", 0o700, false)
            .unwrap();
        fs.write_file("/var/lib/cloud/instances/i-1/scripts/A", b"y", 0o700, false)
            .unwrap();
        assert_eq!(
            fs.listdir("/var/lib/cloud/instance/scripts").unwrap(),
            ["A", "b"]
        );
        assert!(
            fs.write_file("/var/lib/cloud/instance/scripts/", b"", 0o700, false)
                .unwrap_err()
                .to_string()
                .starts_with("IsADirectoryError")
        );
        assert!(
            fs.write_file("/var/lib/cloud/instance/scripts/b/c", b"", 0o700, false)
                .unwrap_err()
                .to_string()
                .starts_with("FileExistsError")
        );
        assert!(
            fs.write_file("/var/lib/cloud/instance/scripts/b/c/d", b"", 0o700, false)
                .unwrap_err()
                .to_string()
                .starts_with("NotADirectoryError")
        );
        fs.write_file("/var/lib/cloud/instance/scripts/b", b"z", 0o644, true)
            .unwrap();
        // Mode 0: no chmod, the file keeps its mode; a new file is 0644.
        fs.write_file("/var/lib/cloud/instance/scripts/x", b"", 0o755, false)
            .unwrap();
        fs.write_file("/var/lib/cloud/instance/scripts/x", b"w", 0, false)
            .unwrap();
        fs.write_file("/var/lib/cloud/instance/scripts/y", b"", 0, false)
            .unwrap();
        assert!(matches!(
            fs.get("/var/lib/cloud/instance/scripts/x"),
            Some(FsEntry::File { mode: 0o755, .. })
        ));
        assert!(matches!(
            fs.get("/var/lib/cloud/instance/scripts/y"),
            Some(FsEntry::File { mode: 0o644, .. })
        ));
        assert_eq!(
            fs.get("/var/lib/cloud/instance/scripts/b"),
            Some(&FsEntry::File {
                data: b"xz".to_vec(),
                mode: 0o644
            })
        );
    }

    #[test]
    fn python_path_helpers() {
        assert_eq!(abspath("a/../b//c/."), "/b/c");
        assert_eq!(abspath("//x/y"), "//x/y");
        assert_eq!(abspath("///x/y"), "/x/y");
        assert_eq!(dirname("/a/b/"), "/a/b");
        assert_eq!(dirname("/a"), "/");
        assert_eq!(dirname("//a"), "//");
        assert_eq!(basename("a/b"), "b");
        assert_eq!(basename("a/"), "");
    }
}
