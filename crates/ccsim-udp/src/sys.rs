//! The system calls of the UDP driver, each wrapped once: waiting for a readable descriptor
//! with a nanosecond timeout (`ppoll(2)`; the emulator's forwarding threads wait with it too), reading a datagram with the ECN field of its IP header
//! (`IP_RECVTOS`, ip(7)), setting the ECN field of the datagrams sent (`IP_TOS`; on a UDP
//! socket Linux writes the whole byte, ECN bits included, into the IP header) and a 1 ns timer
//! slack for the calling thread (`PR_SET_TIMERSLACK`, prctl(2)), without which every wait
//! overshoots by the default 50 us.
#![allow(unsafe_code)]

use std::io;
use std::mem::{size_of, MaybeUninit};
use std::net::{Ipv4Addr, SocketAddrV4};
use std::os::fd::RawFd;
use std::time::Duration;

/// Wait until `fd` is readable or `timeout` has passed; true when readable. An interrupted
/// wait returns false. A timeout beyond `time_t` waits as long as `time_t` allows.
pub fn wait_readable(fd: RawFd, timeout: Duration) -> io::Result<bool> {
    let mut pfd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let ts = libc::timespec {
        tv_sec: libc::time_t::try_from(timeout.as_secs()).unwrap_or(libc::time_t::MAX),
        tv_nsec: libc::c_long::from(timeout.subsec_nanos() as i32),
    };
    // SAFETY: `pfd` is one valid pollfd (nfds = 1) and `ts` a valid timespec, both alive for
    // the call, which keeps no pointer; a null signal mask leaves the thread's mask as it is.
    let n = unsafe { libc::ppoll(&mut pfd, 1, &ts, std::ptr::null()) };
    if n < 0 {
        let e = io::Error::last_os_error();
        if e.kind() == io::ErrorKind::Interrupted {
            return Ok(false);
        }
        return Err(e);
    }
    Ok(n > 0 && pfd.revents & libc::POLLIN != 0)
}

/// Set the calling thread's timer slack to 1 ns, so that a wait ends when asked.
pub fn tight_timer_slack() {
    // SAFETY: PR_SET_TIMERSLACK takes integers only and changes the calling thread alone.
    unsafe {
        libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0);
    }
}

fn setsockopt_int(
    fd: RawFd,
    level: libc::c_int,
    name: libc::c_int,
    value: libc::c_int,
) -> io::Result<()> {
    // SAFETY: the option's value points at `value`, a c_int alive for the call, with its size.
    let r = unsafe {
        libc::setsockopt(
            fd,
            level,
            name,
            std::ptr::addr_of!(value).cast(),
            size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Ask the kernel to hand over each received datagram's TOS byte (`IP_RECVTOS`).
pub fn enable_recv_tos(fd: RawFd) -> io::Result<()> {
    setsockopt_int(fd, libc::IPPROTO_IP, libc::IP_RECVTOS, 1)
}

/// Set the TOS byte (DSCP and ECN field) of the datagrams sent from now on (`IP_TOS`).
pub fn set_tos(fd: RawFd, tos: u8) -> io::Result<()> {
    setsockopt_int(fd, libc::IPPROTO_IP, libc::IP_TOS, libc::c_int::from(tos))
}

/// A datagram read by [`recv_with_tos`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Received {
    /// Bytes written to the buffer.
    pub len: usize,
    /// Whether the datagram was longer than the buffer (the rest is lost).
    pub truncated: bool,
    /// The sender's address.
    pub from: SocketAddrV4,
    /// The TOS byte of its IP header (0 if the kernel gave none).
    pub tos: u8,
}

/// Read one datagram without blocking, with its TOS byte (after [`enable_recv_tos`]);
/// `None` when none is waiting.
pub fn recv_with_tos(fd: RawFd, buf: &mut [u8]) -> io::Result<Option<Received>> {
    let mut addr = MaybeUninit::<libc::sockaddr_in>::zeroed();
    let mut iov = libc::iovec {
        iov_base: buf.as_mut_ptr().cast(),
        iov_len: buf.len(),
    };
    // Room for a few control messages, aligned for cmsghdr.
    let mut control = [0u64; 16];
    // SAFETY: msghdr is plain data (integers and raw pointers), for which all zeros is a valid
    // value: no buffers, no flags; the fields are set below.
    let mut msg = unsafe { MaybeUninit::<libc::msghdr>::zeroed().assume_init() };
    msg.msg_name = addr.as_mut_ptr().cast();
    msg.msg_namelen = size_of::<libc::sockaddr_in>() as libc::socklen_t;
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = std::mem::size_of_val(&control);
    // SAFETY: `msg` names `addr`, `iov` (over `buf`) and `control` with their true lengths, all
    // alive for the call; the kernel writes within those lengths and keeps no pointer.
    let n = unsafe { libc::recvmsg(fd, &mut msg, libc::MSG_DONTWAIT) };
    if n < 0 {
        let e = io::Error::last_os_error();
        return match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(None),
            _ => Err(e),
        };
    }
    let mut tos = 0u8;
    // SAFETY: CMSG_FIRSTHDR and CMSG_NXTHDR walk the control messages within `msg_control` and
    // the `msg_controllen` the kernel wrote, returning null past the last; a header is read
    // only when not null, and its first data byte only when its length covers one.
    unsafe {
        let mut c = libc::CMSG_FIRSTHDR(&msg);
        while !c.is_null() {
            if (*c).cmsg_level == libc::IPPROTO_IP
                && (*c).cmsg_type == libc::IP_TOS
                && (*c).cmsg_len as usize >= libc::CMSG_LEN(1) as usize
            {
                tos = *libc::CMSG_DATA(c);
            }
            c = libc::CMSG_NXTHDR(&msg, c);
        }
    }
    // SAFETY: `addr` was zeroed (a valid sockaddr_in, plain data) and recvmsg wrote the
    // sender's address over it.
    let addr = unsafe { addr.assume_init() };
    let from = SocketAddrV4::new(
        Ipv4Addr::from(u32::from_be(addr.sin_addr.s_addr)),
        u16::from_be(addr.sin_port),
    );
    Ok(Some(Received {
        len: n as usize,
        truncated: msg.msg_flags & libc::MSG_TRUNC != 0,
        from,
        tos,
    }))
}
