//! folio's own state folder (`.folio` under the root, or the folder of an
//! embedder's index): the index, the build lock, the preview, the links
//! `folio check --external` found alive.
//!
//! A repository can commit anything, links included, so nothing in the
//! state folder is trusted to be what folio left there: the folder itself
//! must not be a symbolic link, and every file or folder folio opens in it
//! is opened without following one (`O_NOFOLLOW`, relative to the folder
//! opened once). A link found there is refused, naming what to remove;
//! folio never writes through it. The build lock lives here too.

use std::fs;
use std::path::{Path, PathBuf};

use crate::model::error::Error;
use crate::model::report::{Event, Reporter};

/// The build lock's file in the state folder.
const LOCK_FILE: &str = "build.lock";

/// The state folder, opened: every path into it goes through here.
pub(crate) struct StateDir {
    path: PathBuf,
    #[cfg(unix)]
    dir: rustix::fd::OwnedFd,
}

impl StateDir {
    /// Opens the state folder at `path`, making it (and the folders above
    /// it) when absent; refuses it when it is a symbolic link.
    pub(crate) fn open(path: &Path) -> Result<StateDir, Error> {
        match fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => return Err(linked(path)),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
                }
                // `mkdir` makes no folder through a link left at `path`
                // since the look: it fails, and the open below refuses it.
                match fs::create_dir(path) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                    Err(e) => return Err(Error::io(path, e)),
                }
            }
            Err(e) => return Err(Error::io(path, e)),
        }
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let dir = rustix::fs::open(path, flags, Mode::empty())
                .map_err(|e| refused_or_io(path, e.into()))?;
            Ok(StateDir {
                path: path.to_owned(),
                dir,
            })
        }
        #[cfg(not(unix))]
        Ok(StateDir {
            path: path.to_owned(),
        })
    }

    /// The file `name` in the folder, opened for reading and writing and
    /// made when absent, never through a link.
    pub(crate) fn open_file(&self, name: &str) -> Result<fs::File, Error> {
        let path = self.path.join(name);
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let fd = rustix::fs::openat(&self.dir, name, flags, Mode::from_raw_mode(0o644))
                .map_err(|e| refused_or_io(&path, e.into()))?;
            Ok(fs::File::from(fd))
        }
        #[cfg(not(unix))]
        {
            self.refuse_links(&[name])?;
            fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| Error::io(&path, e))
        }
    }

    /// The bytes of the file `name` in the folder, never read through a
    /// link; `None` when there is no such file.
    pub(crate) fn read(&self, name: &str) -> Result<Option<Vec<u8>>, Error> {
        use std::io::Read;
        let path = self.path.join(name);
        #[cfg(unix)]
        let opened = {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            rustix::fs::openat(&self.dir, name, flags, Mode::empty())
                .map(fs::File::from)
                .map_err(std::io::Error::from)
        };
        #[cfg(not(unix))]
        let opened = {
            self.refuse_links(&[name])?;
            fs::File::open(&path)
        };
        let mut file = match opened {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(refused_or_io(&path, e)),
        };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| Error::io(&path, e))?;
        Ok(Some(bytes))
    }

    /// Puts `bytes` in the file `name` of the folder at once: written
    /// beside it, then renamed over it (a rename replaces a link, never
    /// writes through it), so a reader sees the old bytes or the new.
    pub(crate) fn replace(&self, name: &str, bytes: &[u8]) -> Result<(), Error> {
        use std::io::Write;
        // Two processes replacing the file at once each write their own.
        let temp = format!(".{name}.{}.tmp", std::process::id());
        let temp_path = self.path.join(&temp);
        #[cfg(unix)]
        let written = (|| {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::WRONLY
                | OFlags::CREATE
                | OFlags::TRUNC
                | OFlags::NOFOLLOW
                | OFlags::CLOEXEC;
            let fd = rustix::fs::openat(&self.dir, &temp, flags, Mode::from_raw_mode(0o644))?;
            fs::File::from(fd).write_all(bytes)?;
            rustix::fs::renameat(&self.dir, &temp, &self.dir, name)?;
            Ok::<(), std::io::Error>(())
        })();
        #[cfg(not(unix))]
        let written = {
            self.refuse_links(&[&temp])?;
            fs::write(&temp_path, bytes).and_then(|()| fs::rename(&temp_path, self.path.join(name)))
        };
        written.map_err(|e| refused_or_io(&temp_path, e))
    }

    /// Where the folder is.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The folder `name` in the folder, made when absent; refused when it
    /// is a link. Its path, for what writes into it.
    pub(crate) fn folder(&self, name: &str) -> Result<PathBuf, Error> {
        let path = self.path.join(name);
        #[cfg(unix)]
        match rustix::fs::mkdirat(&self.dir, name, rustix::fs::Mode::from_raw_mode(0o755)) {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(e) => return Err(Error::io(&path, e.into())),
        }
        #[cfg(not(unix))]
        match fs::create_dir(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::io(&path, e)),
        }
        self.refuse_links(&[name])?;
        Ok(path)
    }

    /// Refuses when any of `names` in the folder is a symbolic link: for
    /// the files a library opens by path (SQLite's database, its journal
    /// and WAL), which cannot be handed an opened folder.
    pub(crate) fn refuse_links(&self, names: &[&str]) -> Result<(), Error> {
        for name in names {
            let path = self.path.join(name);
            #[cfg(unix)]
            let is_link =
                rustix::fs::statat(&self.dir, *name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
                    .is_ok_and(|st| {
                        rustix::fs::FileType::from_raw_mode(st.st_mode)
                            == rustix::fs::FileType::Symlink
                    });
            #[cfg(not(unix))]
            let is_link = fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
            if is_link {
                return Err(linked(&path));
            }
        }
        Ok(())
    }
}

/// Serializes builds of one site, and stamps the build's start with the file
/// system's clock, the one that stamped the sources' mtimes. The lock is the
/// kernel's (`flock`): a process that dies releases it, so a lock left by a
/// killed build never blocks.
pub(crate) struct BuildLock {
    _file: fs::File,
    /// When the lock was taken, by the file system's clock (ns).
    pub started_ns: i64,
}

impl BuildLock {
    /// Takes the lock of the builds whose state is in `state_dir`. When
    /// another build holds it: waits for it (saying so to `events` once),
    /// or, unless `wait`, fails at once with [`Error::Busy`].
    pub(crate) fn acquire(
        state_dir: &Path,
        wait: bool,
        events: &Reporter,
    ) -> Result<BuildLock, Error> {
        let path = state_dir.join(LOCK_FILE);
        let mut file = StateDir::open(state_dir)?.open_file(LOCK_FILE)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) if wait => {
                events.emit(|| Event::WaitingForLock {
                    lock: path.to_string_lossy().into_owned(),
                });
                file.lock().map_err(|e| Error::io(&path, e))?;
            }
            Err(fs::TryLockError::WouldBlock) => return Err(Error::Busy { path }),
            Err(fs::TryLockError::Error(e)) => return Err(Error::io(&path, e)),
        }
        use std::io::{Seek, Write};
        let stamp = (|| {
            file.set_len(0)?;
            file.seek(std::io::SeekFrom::Start(0))?;
            file.write_all(b"a folio build holds this lock\n")?;
            file.metadata()?.modified()
        })()
        .map_err(|e| Error::io(&path, e))?;
        Ok(BuildLock {
            _file: file,
            started_ns: crate::model::doc::nanos_since_epoch(stamp),
        })
    }
}

/// `ELOOP` from an `O_NOFOLLOW` open (or `ENOTDIR` for a folder opened
/// with `O_DIRECTORY`) means a link stands there.
fn refused_or_io(path: &Path, e: std::io::Error) -> Error {
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if is_link {
        linked(path)
    } else {
        Error::io(path, e)
    }
}

fn linked(path: &Path) -> Error {
    // `--root .` (the default) would show `./.folio`: the site's own
    // paths are shown from its root, as `content/…` is.
    Error::LinkedState {
        path: path.strip_prefix(".").unwrap_or(path).to_owned(),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_state_folder_that_is_a_link_is_refused_and_its_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elsewhere");
        fs::create_dir(&target).unwrap();
        symlink(&target, dir.path().join(".folio")).unwrap();
        let refused = StateDir::open(&dir.path().join(".folio")).err().unwrap();
        assert!(matches!(refused, Error::LinkedState { .. }), "{refused}");
        assert_eq!(fs::read_dir(&target).unwrap().count(), 0);
    }

    #[test]
    fn a_file_or_folder_that_is_a_link_is_never_opened_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        fs::write(&victim, "precious").unwrap();
        let state = StateDir::open(&dir.path().join("state")).unwrap();
        symlink(&victim, dir.path().join("state/build.lock")).unwrap();
        symlink(dir.path(), dir.path().join("state/preview")).unwrap();
        symlink(&victim, dir.path().join("state/index.sqlite-wal")).unwrap();
        for refused in [
            state.open_file("build.lock").err(),
            state.folder("preview").err(),
            state
                .refuse_links(&["index.sqlite", "index.sqlite-wal"])
                .err(),
        ] {
            assert!(
                matches!(refused, Some(Error::LinkedState { .. })),
                "{refused:?}"
            );
        }
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    }

    #[test]
    fn an_absent_state_folder_is_made_with_its_parents() {
        let dir = tempfile::tempdir().unwrap();
        let state = StateDir::open(&dir.path().join("a/b/.folio")).unwrap();
        state.open_file("build.lock").unwrap();
        assert!(state.folder("preview").unwrap().is_dir());
        assert!(dir.path().join("a/b/.folio/build.lock").is_file());
    }
}
