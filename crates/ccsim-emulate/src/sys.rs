//! The system calls of the emulator, each wrapped once: a TUN device opened inside a network
//! namespace (`setns(2)`, `TUNSETIFF`, Linux's Documentation/networking/tuntap.rst) and the
//! real-time scheduling of a forwarding thread (`SCHED_FIFO`). Waiting for a readable
//! descriptor and the timer slack are the UDP driver's (`ccsim_udp::sys`).
#![allow(unsafe_code)]

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// `TUNSETIFF`: _IOW('T', 202, int).
const TUNSETIFF: libc::c_ulong = 0x4004_54ca;
const IFF_TUN: libc::c_short = 0x0001;
const IFF_NO_PI: libc::c_short = 0x1000;

/// `struct ifreq` as `TUNSETIFF` reads it: the name, then the flags (the union's first
/// member), padded to the structure's 40 bytes.
#[repr(C)]
struct IfReq {
    name: [u8; libc::IFNAMSIZ],
    flags: libc::c_short,
    pad: [u8; 22],
}

/// Open a TUN device `name` (IP packets without a packet-information prefix) inside the
/// network namespace whose file is `netns` (`/run/netns/NAME`), non-blocking. The device
/// lives as long as the descriptor.
pub fn open_tun_in_netns(netns: &str, name: &str) -> io::Result<File> {
    let netns = netns.to_string();
    let name = name.to_string();
    // setns(2) moves only the calling thread: a thread of its own, which ends after.
    std::thread::spawn(move || -> io::Result<File> {
        let ns = File::open(&netns)?;
        // SAFETY: `ns` is an open descriptor, alive for the call; setns moves only this
        // thread, which ends once the device is open.
        if unsafe { libc::setns(ns.as_raw_fd(), libc::CLONE_NEWNET) } != 0 {
            return Err(io::Error::last_os_error());
        }
        open_tun(&name)
    })
    .join()
    .map_err(|_| io::Error::other("the thread opening the TUN device panicked"))?
}

fn open_tun(name: &str) -> io::Result<File> {
    if name.is_empty() || name.len() >= libc::IFNAMSIZ {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("interface name {name:?} must have 1 to 15 bytes"),
        ));
    }
    let path = c"/dev/net/tun";
    // SAFETY: `path` is a NUL-terminated string literal; the flags are constants.
    let fd = unsafe {
        libc::open(
            path.as_ptr(),
            libc::O_RDWR | libc::O_NONBLOCK | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` is the new descriptor open(2) returned (not negative: checked above), owned
    // by nothing else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    let mut req = IfReq {
        name: [0; libc::IFNAMSIZ],
        flags: IFF_TUN | IFF_NO_PI,
        pad: [0; 22],
    };
    req.name[..name.len()].copy_from_slice(name.as_bytes());
    // SAFETY: TUNSETIFF reads and writes one struct ifreq; `req` is laid out as its name and
    // flags, padded to its 40 bytes (`IfReq`, repr(C)), and alive for the call.
    if unsafe { libc::ioctl(fd.as_raw_fd(), TUNSETIFF as _, &mut req) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(File::from(fd))
}

/// Make the calling thread a real-time one where permitted: `SCHED_FIFO` at priority 50, a
/// 1 ns timer slack. Returns whether `SCHED_FIFO` was granted.
pub fn make_realtime() -> bool {
    ccsim_udp::sys::tight_timer_slack();
    let param = libc::sched_param { sched_priority: 50 };
    // SAFETY: `param` is a valid sched_param alive for the call; pid 0 is the calling thread.
    unsafe { libc::sched_setscheduler(0, libc::SCHED_FIFO, &param) == 0 }
}
