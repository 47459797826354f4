//! Scratch files and directories for the tests, each in a fresh directory under the system's
//! temporary directory that is removed, with everything in it, when the value is dropped — also
//! when the test fails — so test runs leave nothing behind.

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A path inside a fresh scratch directory; the directory goes when this is dropped.
pub struct Scratch {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

/// A fresh empty scratch directory; `join` names files in it.
pub fn scratch_dir() -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix("anydoku-test-")
        .tempdir()
        .expect("cannot create a scratch directory");
    let path = dir.path().to_path_buf();
    Scratch { _dir: dir, path }
}

/// `text` written to a file called `name` in a fresh scratch directory.
pub fn scratch_file(name: &str, text: &str) -> Scratch {
    let dir = scratch_dir();
    let path = dir.path.join(name);
    std::fs::write(&path, text).expect("cannot write a scratch file");
    Scratch {
        _dir: dir._dir,
        path,
    }
}

impl Scratch {
    /// The path as a `&str`, for command-line arguments.
    pub fn arg(&self) -> &str {
        self.path.to_str().expect("scratch paths are UTF-8")
    }
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<OsStr> for Scratch {
    fn as_ref(&self) -> &OsStr {
        self.path.as_os_str()
    }
}
