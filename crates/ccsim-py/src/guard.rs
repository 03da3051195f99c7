//! Panics stop at the boundary: inside [`guarded`] a panic is caught and returned as a
//! message (with its source location) instead of printing to stderr and unwinding into
//! Python. Outside guarded regions the previous panic hook runs unchanged.
//!
//! A failed allocation is not a panic: the Rust runtime prints `memory allocation of N
//! bytes failed` and aborts. The command line installs [`install_abort_handler`], so the
//! user then reads one more line, a `ccsim:` one, and the process exits with status 1 as
//! for any internal error, rather than dying of SIGABRT with a core dump.
//! CHOICE: only the command line installs it; a library must not take SIGABRT from the
//! Python process that imports it.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Install the hook once per process.
pub fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if GUARDED.with(Cell::get) {
                let location = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let message = info
                    .payload()
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| {
                        info.payload()
                            .downcast_ref::<&str>()
                            .map(|s| (*s).to_string())
                    })
                    .unwrap_or_else(|| "unknown panic".into());
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{message}{location}")));
            } else {
                previous(info);
            }
        }));
    });
}

/// Run `f`, turning a panic into `Err(message)`.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let was = GUARDED.with(|g| g.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(was));
    result.map_err(|_| {
        LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| "unknown panic".into())
    })
}

const ABORT_MESSAGE: &[u8] = b"ccsim: internal error: the process aborted, most often because an \
allocation failed (the run needed more memory than this machine has; see CCSIM_MEMORY_LIMIT in \
docs/scenarios.md)\n";

#[allow(unsafe_code)] // the crate's one unsafe use (Cargo.toml's lints); sound as stated
extern "C" fn on_abort(_signal: libc::c_int) {
    // SAFETY: write(2) and _exit(2) are async-signal-safe; the buffer is static.
    unsafe {
        libc::write(2, ABORT_MESSAGE.as_ptr().cast(), ABORT_MESSAGE.len());
        libc::_exit(1);
    }
}

/// On SIGABRT, print one `ccsim: internal error` line and exit with status 1.
#[allow(unsafe_code)] // see on_abort
pub fn install_abort_handler() {
    let handler = on_abort as extern "C" fn(libc::c_int);
    // SAFETY: installs a handler that only calls async-signal-safe functions.
    unsafe {
        libc::signal(libc::SIGABRT, handler as libc::sighandler_t);
    }
}
