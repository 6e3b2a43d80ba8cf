//! Last resort of the output side: when a run ends abnormally (Ctrl-C,
//! SIGTERM, SIGHUP, SIGPIPE, a panic, or SIGBUS from a mapped input that
//! shrank) the temporary answer file is removed before the process exits, so
//! nothing half-written is left behind. `output` registers its temporary
//! paths here (the answers', and a side output's such as `rate --steps`);
//! `main` installs the handlers. SIGKILL cannot be caught: a `kill -9`
//! still leaves the hidden `.sudoku-bulk-*.tmp` files.
//!
//! The handlers only use async-signal-safe calls (`unlink`, `write`,
//! `_exit`) on data prepared before the signal: a leaked C string for the
//! temporary path and for the SIGBUS message.

use std::cell::Cell;
use std::path::Path;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// Temporary output files open at once: the answers and a side output
/// (`rate --steps`), with room to spare.
const TEMPS: usize = 8;

/// The temporary output files to remove, as leaked C strings, or null.
static TEMP: [AtomicPtr<std::ffi::c_char>; TEMPS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; TEMPS];

/// Remembers `path` as a temporary file to remove on an abnormal end (in
/// a free slot; with all [`TEMPS`] taken, in the last, forgetting the
/// file there).
pub fn register_temp(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        if let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) {
            // Leaked on purpose: a handler may be reading the old pointer at
            // any moment, so it is never freed (one small string per file).
            let p = c.into_raw();
            let free = TEMP.iter().find(|slot| {
                slot.compare_exchange(std::ptr::null_mut(), p, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            });
            if free.is_none() {
                TEMP[TEMPS - 1].store(p, Ordering::SeqCst);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Forgets the temporary file `path` (it was renamed into place or removed).
pub fn unregister_temp(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        for slot in &TEMP {
            let p = slot.load(Ordering::SeqCst);
            if p.is_null() {
                continue;
            }
            // SAFETY: a non-null slot holds a string from `CString::into_raw`
            // that is never freed.
            let held = unsafe { std::ffi::CStr::from_ptr(p) };
            if held.to_bytes() == path.as_os_str().as_bytes() {
                let _ = slot.compare_exchange(p, std::ptr::null_mut(), Ordering::SeqCst, Ordering::SeqCst);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Removes the registered temporary files, if any; true when there was
/// one. Async-signal-safe.
fn remove_temp() -> bool {
    let mut any = false;
    for slot in &TEMP {
        let p = slot.swap(std::ptr::null_mut(), Ordering::SeqCst);
        if p.is_null() {
            continue;
        }
        any = true;
        #[cfg(unix)]
        // SAFETY: `p` came from `CString::into_raw` and is never freed, so it
        // is a valid NUL-terminated string; unlink is async-signal-safe.
        unsafe {
            libc::unlink(p);
        }
    }
    any
}

/// Mapped inputs whose pages may vanish (start, end, message, its length).
const MAPS: usize = 4;
static MAP_START: [AtomicUsize; MAPS] = [const { AtomicUsize::new(0) }; MAPS];
static MAP_END: [AtomicUsize; MAPS] = [const { AtomicUsize::new(0) }; MAPS];
static MAP_MSG: [AtomicPtr<u8>; MAPS] = [const { AtomicPtr::new(std::ptr::null_mut()) }; MAPS];
static MAP_MSG_LEN: [AtomicUsize; MAPS] = [const { AtomicUsize::new(0) }; MAPS];
static MAP_NEXT: AtomicUsize = AtomicUsize::new(0);

/// Notes that `map` holds the input `name`, so a SIGBUS on its pages (the
/// file was truncated under us) ends the run with `NAME: the file shrank
/// while being read` and exit status 2 instead of a bare crash.
pub fn watch_map(map: &[u8], name: &str) {
    let slot = MAP_NEXT.fetch_add(1, Ordering::SeqCst) % MAPS;
    let msg = format!("sudoku-bulk: {name}: the file shrank while being read\n").into_bytes();
    let msg = Box::leak(msg.into_boxed_slice());
    MAP_END[slot].store(0, Ordering::SeqCst);
    MAP_MSG_LEN[slot].store(msg.len(), Ordering::SeqCst);
    MAP_MSG[slot].store(msg.as_mut_ptr(), Ordering::SeqCst);
    MAP_START[slot].store(map.as_ptr() as usize, Ordering::SeqCst);
    MAP_END[slot].store(map.as_ptr() as usize + map.len(), Ordering::SeqCst);
}

thread_local! {
    /// Set while `contain` runs a reader that may panic.
    static CONTAINED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, turning a panic inside it into `Err(message)`. For the
/// third-party readers (arrow-ipc, parquet) that panic on some malformed
/// files instead of returning an error (`fuzz/fuzz_targets/tables.rs` found
/// `not implemented: Type NONE not supported` in arrow-ipc 57): such a file
/// is bad input, reported with its name, not a crash. The panic hook stays
/// silent for it and leaves the temporary output alone.
#[cfg(feature = "columnar")]
pub fn contain<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let was = CONTAINED.with(|c| c.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(was));
    result.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "the reader failed".to_string())
    })
}

/// Installs the signal handlers and the panic hook. Called once by `main`.
pub fn install() {
    install_panic_hook();
    install_signal_handlers();
}

/// The panic hook alone: silent for panics [`contain`] turns into errors,
/// else it removes the temporary output and runs the previous hook. The
/// fuzz targets take only this, so that libFuzzer's own signal handlers
/// stay in place and an abort is saved as a finding.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if CONTAINED.with(Cell::get) {
            // `contain` turns this one into an error: nothing to clean.
            return;
        }
        remove_temp();
        previous(info);
    }));
}

fn install_signal_handlers() {
    #[cfg(unix)]
    // SAFETY: the handlers only call async-signal-safe functions and read
    // atomics; the sigaction structs are fully initialised.
    // SIGABRT too: an abort (an allocation failure inside the parquet
    // crate's footer decoder on a damaged file, found by fuzz/tables) must
    // not leave the temporary output behind; it exits 134 as before.
    unsafe {
        for sig in [
            libc::SIGINT,
            libc::SIGTERM,
            libc::SIGHUP,
            libc::SIGPIPE,
            libc::SIGABRT,
        ] {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = on_signal as *const () as usize;
            // SIGPIPE's handler may return (stdout closed, nothing to clean):
            // restart the interrupted call instead of failing it with EINTR.
            act.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut act.sa_mask);
            libc::sigaction(sig, &act, std::ptr::null_mut());
        }
        // A file-size limit (`ulimit -f`) would kill the run with SIGXFSZ
        // and leave the temporary file; ignored, the write fails with
        // EFBIG instead and takes the ordinary error path, which names the
        // output and removes it.
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let mut act: libc::sigaction = std::mem::zeroed();
        act.sa_sigaction = on_sigbus as *const () as usize;
        act.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut act.sa_mask);
        libc::sigaction(libc::SIGBUS, &act, std::ptr::null_mut());
    }
}

/// SIGINT, SIGTERM, SIGHUP, SIGPIPE: remove the temporary file, exit with
/// 128 + the signal number (130, 143, 129, 141) as shells report it.
#[cfg(unix)]
extern "C" fn on_signal(sig: libc::c_int) {
    let had_temp = remove_temp();
    if sig == libc::SIGPIPE && !had_temp {
        // Writing answers to a closed pipe (`solve | head`): the write fails
        // with EPIPE and the run ends quietly, as it did with SIGPIPE
        // ignored. Only a run with a file to clean up dies here.
        return;
    }
    // SAFETY: _exit is async-signal-safe.
    unsafe { libc::_exit(128 + sig) }
}

/// SIGBUS: on a watched map, say the file shrank, clean up, exit 2. Any other
/// SIGBUS gets the default action once the handler returns.
#[cfg(unix)]
extern "C" fn on_sigbus(sig: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo_t for SA_SIGINFO handlers.
    let addr = unsafe { (*info).si_addr() } as usize;
    for slot in 0..MAPS {
        let (start, end) = (
            MAP_START[slot].load(Ordering::SeqCst),
            MAP_END[slot].load(Ordering::SeqCst),
        );
        if start <= addr && addr < end {
            let msg = MAP_MSG[slot].load(Ordering::SeqCst);
            let len = MAP_MSG_LEN[slot].load(Ordering::SeqCst);
            remove_temp();
            // SAFETY: `msg` points to a leaked buffer of `len` bytes; write
            // and _exit are async-signal-safe.
            unsafe {
                libc::write(2, msg as *const libc::c_void, len);
                libc::_exit(2);
            }
        }
    }
    remove_temp();
    // SAFETY: restoring the default action is async-signal-safe; returning
    // re-runs the faulting access, which now kills the process as usual.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
    }
}

/// A scratch file in `dir` for data a run spills to disk (`dedupe`'s
/// sorted runs, a copy of a streamed input), that no exit path can leave
/// behind: it has no name (`O_TMPFILE` on Linux, else created and unlinked
/// at once), so its space is freed when the process ends, on success,
/// error, Ctrl-C, a full disk, or even SIGKILL, which the temporary output
/// file above cannot survive. Errors name `dir`.
pub fn spill_file(dir: &Path) -> std::io::Result<std::fs::File> {
    tempfile::tempfile_in(dir).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!(
                "{}: cannot create a spill file: {e}",
                crate::text::shown_path(&dir)
            ),
        )
    })
}
