//! `observe`: the server's side of a run, as the kernel counts it.
//!
//! The load generator is the measurer, and a learner's edited server is code the course did
//! not write, so the two share nothing but the network path: the load generator runs in a
//! pid namespace of its own, as a user the server is not. What the lessons need from the
//! server's processes (threads, memory, context switches) is read by this program instead,
//! in a container of its own that joins the server's pid and network namespaces as a third
//! user. The server can see it in `/proc`, but the kernel's permission checks for another
//! user keep it from signalling, tracing, or opening the descriptors of this process, and
//! what it prints reaches the runner through its own container's stream.
//!
//! Every `--interval-ms`, and once more when it is asked to stop (SIGTERM or SIGINT), it
//! prints one JSON line:
//!
//! - `procs`: the processes of `--uid` (the server's user) as `/proc/[pid]/status` shows
//!   them ([`crate::procs`]); the first line's switches are each thread's since it started,
//!   later lines' those of their interval.
//! - `net`: the bytes and packets every interface of the network namespace has received and
//!   sent so far (`/proc/net/dev`; the server's namespace has only loopback). Every byte the
//!   load generator says it exchanged crossed it, so the runner checks the load generator's
//!   figures against this count, which no process of the server can change.
//! - `cpu_s`: this process's own CPU time, so its cost is not mistaken for interference on
//!   the load generator's CPUs, where it runs.

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use clap::Parser;
use serde::Serialize;

use crate::procs::{ProcSample, ProcSampler};
use crate::stats::round_to;

/// Observes the server's processes and its network namespace's traffic, one JSON line per
/// interval on stdout, a last one on SIGTERM or SIGINT.
#[derive(Clone, Debug, Parser)]
#[command(name = "observe", version, about, max_term_width = 100)]
pub struct Args {
    /// The server's user id: only its processes are counted.
    #[arg(long)]
    pub uid: u32,

    /// Interval between lines, in milliseconds (10..=60000).
    #[arg(long, value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub interval_ms: u64,
}

/// Bytes and packets all the interfaces of one network namespace carried so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct NetCounters {
    pub rx_bytes: u64,
    pub rx_packets: u64,
    pub tx_bytes: u64,
    pub tx_packets: u64,
}

/// Sums the interfaces of a `/proc/net/dev` text: two header lines, then per interface
/// `name: rx_bytes rx_packets errs drop fifo frame compressed multicast tx_bytes tx_packets
/// …`. `None` when no interface line parses.
pub fn parse_net_dev(text: &str) -> Option<NetCounters> {
    let mut total = NetCounters::default();
    let mut interfaces = 0;
    for line in text.lines() {
        let Some((_, counters)) = line.split_once(':') else {
            continue;
        };
        let fields: Vec<u64> = counters
            .split_whitespace()
            .map_while(|f| f.parse().ok())
            .collect();
        if fields.len() < 10 {
            continue;
        }
        total.rx_bytes += fields[0];
        total.rx_packets += fields[1];
        total.tx_bytes += fields[8];
        total.tx_packets += fields[9];
        interfaces += 1;
    }
    (interfaces > 0).then_some(total)
}

/// One line of output.
#[derive(Debug, Serialize)]
pub struct Observation {
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Seconds since the observer started.
    pub elapsed_s: f64,
    /// Seconds since the previous line (0 for the first).
    pub interval_s: f64,
    /// The last line: the observer was asked to stop.
    #[serde(rename = "final")]
    pub last: bool,
    /// The server's processes; `null` when none of `--uid` was found.
    pub procs: Option<ProcSample>,
    /// The network namespace's traffic so far; `null` when /proc/net/dev could not be read.
    pub net: Option<NetCounters>,
    /// This process's CPU time so far, in seconds.
    pub cpu_s: f64,
}

/// The program: parses `argv`, then prints lines to `out` until SIGTERM or SIGINT. Returns
/// the exit status: 0 when stopped, 1 when `out` fails, 2 for bad arguments.
pub fn main_with_args(argv: impl IntoIterator<Item = OsString>, out: &mut dyn Write) -> i32 {
    let args = match Args::try_parse_from(argv) {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let stop = StopSignals::block();
    let mut sampler = ProcSampler::new().only_uid(args.uid);
    let interval = Duration::from_millis(args.interval_ms);
    let start = Instant::now();
    let mut previous = start;
    let mut tick = 0u32;
    let mut last = false;
    loop {
        let now = Instant::now();
        let line = Observation {
            kind: "observe",
            elapsed_s: round_to((now - start).as_secs_f64(), 6),
            interval_s: round_to((now - previous).as_secs_f64(), 6),
            last,
            procs: sampler.sample(),
            net: std::fs::read_to_string(Path::new("/proc/net/dev"))
                .ok()
                .as_deref()
                .and_then(parse_net_dev),
            cpu_s: round_to(own_cpu_seconds(), 6),
        };
        previous = now;
        let written = serde_json::to_writer(&mut *out, &line)
            .map_err(std::io::Error::other)
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush());
        if written.is_err() {
            return 1;
        }
        if last {
            return 0;
        }
        tick += 1;
        last = stop.wait_until(start + interval * tick);
    }
}

/// SIGTERM and SIGINT, blocked so that they are waited for rather than delivered: the last
/// line is printed after one arrives, never cut off by it.
struct StopSignals {
    set: libc::sigset_t,
}

impl StopSignals {
    fn block() -> StopSignals {
        // SAFETY: a zeroed sigset_t is a valid argument to sigemptyset, which initialises it;
        // the calls only read and write the set we own.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGTERM);
            libc::sigaddset(&mut set, libc::SIGINT);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            StopSignals { set }
        }
    }

    /// Waits until `deadline` or a stop signal; true when a signal came.
    fn wait_until(&self, deadline: Instant) -> bool {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let timeout = libc::timespec {
                tv_sec: left.as_secs() as libc::time_t,
                tv_nsec: left.subsec_nanos() as libc::c_long,
            };
            // SAFETY: the set was initialised in `block`; no siginfo is asked for.
            let signal = unsafe { libc::sigtimedwait(&self.set, std::ptr::null_mut(), &timeout) };
            if signal > 0 {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            // EINTR (another signal) or an early wake-up: wait out the rest.
        }
    }
}

/// CPU time this process has used, user and system, in seconds.
fn own_cpu_seconds() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec we own.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) } == 0;
    if ok {
        now.tv_sec as f64 + now.tv_nsec as f64 / 1e9
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NET_DEV: &str = "Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo: 1296000   20250    0    0    0     0          0         0  1296000   20250    0    0    0     0       0          0
  eth0:     100       2    0    0    0     0          0         0      300       4    0    0    0     0       0          0
";

    #[test]
    fn sums_every_interface_of_proc_net_dev() {
        assert_eq!(
            parse_net_dev(NET_DEV),
            Some(NetCounters {
                rx_bytes: 1_296_100,
                rx_packets: 20_252,
                tx_bytes: 1_296_300,
                tx_packets: 20_254,
            })
        );
    }

    #[test]
    fn a_text_without_interfaces_is_none() {
        assert_eq!(parse_net_dev(""), None);
        assert_eq!(parse_net_dev("Inter-|   Receive\n face |bytes\n"), None);
        assert_eq!(parse_net_dev("lo: 1 2 3\n"), None);
    }

    #[test]
    fn this_process_reads_its_own_namespace_and_cpu_time() {
        let text = std::fs::read_to_string("/proc/net/dev").unwrap();
        assert!(parse_net_dev(&text).is_some(), "{text}");
        let spent = (0..200_000u64).fold(0u64, |a, b| a.wrapping_add(b * b));
        assert!(spent > 0 && own_cpu_seconds() > 0.0);
    }

    #[test]
    fn an_observation_is_one_json_object_of_the_documented_shape() {
        let line = Observation {
            kind: "observe",
            elapsed_s: 1.0,
            interval_s: 1.0,
            last: true,
            procs: None,
            net: Some(NetCounters::default()),
            cpu_s: 0.5,
        };
        let json = serde_json::to_value(&line).unwrap();
        assert_eq!(json["type"], "observe");
        assert_eq!(json["final"], true);
        assert_eq!(json["procs"], serde_json::Value::Null);
        assert_eq!(json["net"]["rx_bytes"], 0);
    }
}
