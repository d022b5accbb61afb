//! SQLite's shared-memory file (`-shm`) is mapped into quire's memory, and a
//! write to it once it is marked immutable or append-only (`chattr +i`) ends
//! the process with SIGBUS, reads included (a reader marks the log it reads in
//! it). No error code comes back to handle, so quire looks before it uses the
//! database: `Db::storage_refused` says why not, and every request and
//! background task asks it first.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Db, Fault};

/// Whether the last look found the file refused (so the log says it once).
#[derive(Clone, Debug, Default)]
pub struct Gate(Arc<AtomicBool>);

/// What cannot be written about the file at `path`, if anything: its
/// immutable or append-only attribute.
#[cfg(target_os = "linux")]
fn locked(path: &Path) -> Option<&'static str> {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    let mut found = std::mem::MaybeUninit::<libc::statx>::zeroed();
    // SAFETY: `name` is NUL-terminated and outlives the call; `found` is a
    // buffer of the type statx fills.
    let rc = unsafe { libc::statx(libc::AT_FDCWD, name.as_ptr(), 0, 0, found.as_mut_ptr()) };
    if rc != 0 {
        return None;
    }
    // SAFETY: statx succeeded, so it filled the buffer (zeroed before anyway).
    let attributes = unsafe { found.assume_init() }.stx_attributes;
    if attributes & libc::STATX_ATTR_IMMUTABLE as u64 != 0 {
        Some("immutable")
    } else if attributes & libc::STATX_ATTR_APPEND as u64 != 0 {
        Some("append-only")
    } else {
        None
    }
}

#[cfg(not(target_os = "linux"))]
fn locked(_: &Path) -> Option<&'static str> {
    None
}

impl Db {
    /// Why the database cannot be used at all just now (SQLite's `-shm` file
    /// is marked so that it cannot be written), or None. Costs one `statx`.
    pub fn storage_refused(&self) -> Option<Fault> {
        let path = self.path.as_deref()?;
        let mut shm = path.as_os_str().to_owned();
        shm.push("-shm");
        let shm = Path::new(&shm);
        let refused = locked(shm).map(|how| Fault {
            what: "the database's shared-memory file cannot be written",
            detail: format!(
                "{} is marked {how}: quire uses no database connection until it can be \
                 written again (`chattr -i -a` on it, or `lsattr` to look)",
                shm.display()
            ),
        });
        let was = self.shm.0.swap(refused.is_some(), Ordering::AcqRel);
        match (&refused, was) {
            (Some(fault), false) => {
                tracing::error!(error = %fault.detail, "the database cannot be used");
            }
            (None, true) => tracing::info!("the database can be used again"),
            _ => {}
        }
        refused
    }
}
