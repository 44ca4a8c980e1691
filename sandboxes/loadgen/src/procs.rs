//! `--sample-procs`: the server's processes as `/proc` shows them.
//!
//! The runner starts the load generator's container in the server container's pid
//! namespace, so every process in `/proc` but the load generator itself is the server's
//! (its `strace` wrapper included, when there is one). At every progress interval the
//! coordinator reads `/proc/[pid]/status` of each: how many processes, their threads, their
//! resident memory, and how often they were switched out — voluntarily (blocked: waiting
//! for I/O, a lock, a sleep) or not (preempted: time slice used up). The lessons contrast
//! these per I/O model: a thread per connection blocks a lot; an event loop rarely does.
//!
//! Relies on: `/proc/[pid]/status` fields `Threads` and `VmRSS` (kB; absent for kernel
//! threads and zombies) for the process, and `voluntary_ctxt_switches` and
//! `nonvoluntary_ctxt_switches` (Linux 2.6.23), which are one *thread's* totals since it
//! started: `/proc/[pid]/status` shows the main thread's only, so the switches are read from
//! every thread's `/proc/[pid]/task/[tid]/status` and counted per thread (a thread that has
//! exited takes its last interval's switches with it).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use crate::stats::round_to;

/// What one `/proc/[pid]/status` says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProcStatus {
    /// The real user id (`Uid:`'s first field); `None` where the file has no `Uid` line.
    pub uid: Option<u32>,
    pub threads: u64,
    pub rss_bytes: u64,
    pub voluntary_ctxt_switches: u64,
    pub nonvoluntary_ctxt_switches: u64,
}

/// Parses the text of a `/proc/[pid]/status` file; `None` if it has no `Threads` line (not
/// a status file, or cut short). Missing `VmRSS` or switch counts read as 0.
pub fn parse_status(text: &str) -> Option<ProcStatus> {
    let mut status = ProcStatus::default();
    let mut has_threads = false;
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let number = || value.split_whitespace().next()?.parse::<u64>().ok();
        match key {
            "Uid" => status.uid = value.split_whitespace().next()?.parse().ok(),
            "Threads" => {
                status.threads = number()?;
                has_threads = true;
            }
            "VmRSS" => status.rss_bytes = number()?.saturating_mul(1024), // "1234 kB"
            "voluntary_ctxt_switches" => status.voluntary_ctxt_switches = number()?,
            "nonvoluntary_ctxt_switches" => status.nonvoluntary_ctxt_switches = number()?,
            _ => {}
        }
    }
    has_threads.then_some(status)
}

/// The processes at one progress interval's end; context switches during the interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ProcSample {
    pub processes: u64,
    pub threads: u64,
    pub rss_bytes: u64,
    pub voluntary_ctxt_switches: u64,
    pub nonvoluntary_ctxt_switches: u64,
}

/// Reads the processes at each interval and turns their switch totals into per-interval
/// counts.
#[derive(Debug)]
pub struct ProcSampler {
    root: PathBuf,
    own_pid: u32,
    /// Only the processes of this user, when given (see [`crate::observe`]).
    uid: Option<u32>,
    /// Each pid's switch totals (voluntary, nonvoluntary) at the previous sample.
    previous: HashMap<u32, (u64, u64)>,
}

impl ProcSampler {
    /// A sampler of `/proc`, leaving out this process.
    pub fn new() -> ProcSampler {
        ProcSampler::at(Path::new("/proc"), std::process::id())
    }

    /// A sampler of the proc file system mounted at `root`, leaving out `own_pid`.
    pub fn at(root: &Path, own_pid: u32) -> ProcSampler {
        ProcSampler {
            root: root.to_path_buf(),
            own_pid,
            uid: None,
            previous: HashMap::new(),
        }
    }

    /// The same sampler, counting only the processes whose real user id is `uid`.
    pub fn only_uid(self, uid: u32) -> ProcSampler {
        ProcSampler {
            uid: Some(uid),
            ..self
        }
    }

    /// Records every process's switch counts so far without reporting them, so that the
    /// first interval counts only its own switches, not those since each process started.
    pub fn baseline(&mut self) {
        self.sample();
    }

    /// Reads every process now; `None` when there is none but this one.
    pub fn sample(&mut self) -> Option<ProcSample> {
        let statuses = read_statuses(&self.root, self.own_pid, self.uid);
        self.account(&statuses)
    }

    /// Sums `statuses` (id, status) into a sample, counting each id's switches since the
    /// previous call: an id seen for the first time contributes its whole count, one whose
    /// counts went down is a new thread under a reused id (whole count too), and ids that
    /// are gone are forgotten. An entry with `threads` > 0 is a process (its main thread);
    /// one with 0 is another thread of a process, carrying only its switches.
    pub fn account(&mut self, statuses: &[(u32, ProcStatus)]) -> Option<ProcSample> {
        let mut sample = ProcSample::default();
        let mut seen = HashMap::with_capacity(statuses.len());
        for &(pid, status) in statuses {
            let now = (
                status.voluntary_ctxt_switches,
                status.nonvoluntary_ctxt_switches,
            );
            let before = match self.previous.get(&pid) {
                Some(&before) if before.0 <= now.0 && before.1 <= now.1 => before,
                _ => (0, 0),
            };
            sample.processes += u64::from(status.threads > 0);
            sample.threads += status.threads;
            sample.rss_bytes += status.rss_bytes;
            sample.voluntary_ctxt_switches += now.0 - before.0;
            sample.nonvoluntary_ctxt_switches += now.1 - before.1;
            seen.insert(pid, now);
        }
        self.previous = seen;
        (sample.processes > 0).then_some(sample)
    }
}

impl Default for ProcSampler {
    fn default() -> Self {
        ProcSampler::new()
    }
}

/// Numeric entries of a directory: the pids of `/proc`, or the tids of `/proc/[pid]/task`.
fn numbered(dir: &Path) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .collect()
}

fn read_status(path: &Path) -> Option<ProcStatus> {
    parse_status(&std::fs::read_to_string(path).ok()?)
}

/// Every thread of every process under `root` but `skip` (of user `uid` only, when given), keyed by thread id: the main
/// thread's entry carries its process's `threads` and `rss_bytes`, the others only their
/// own switches (see [`ProcSampler::account`]). A process whose threads cannot be listed
/// counts as its main thread alone. Ids that vanish or cannot be read meanwhile (they come
/// and go) are left out without a word.
pub fn read_statuses(root: &Path, skip: u32, uid: Option<u32>) -> Vec<(u32, ProcStatus)> {
    let mut statuses = Vec::new();
    for pid in numbered(root).into_iter().filter(|&pid| pid != skip) {
        let dir = root.join(pid.to_string());
        let Some(process) = read_status(&dir.join("status")) else {
            continue;
        };
        if uid.is_some() && process.uid != uid {
            continue;
        }
        let tasks = numbered(&dir.join("task"));
        if tasks.is_empty() {
            statuses.push((pid, process));
            continue;
        }
        for tid in tasks {
            let Some(thread) = read_status(&dir.join("task").join(tid.to_string()).join("status"))
            else {
                continue;
            };
            let main = tid == pid;
            statuses.push((
                tid,
                ProcStatus {
                    threads: if main { process.threads } else { 0 },
                    rss_bytes: if main { process.rss_bytes } else { 0 },
                    ..thread
                },
            ));
        }
    }
    statuses.sort_unstable_by_key(|&(id, _)| id);
    statuses
}

/// The measure phase's samples, added up for the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProcTotals {
    samples: u64,
    processes_peak: u64,
    threads_peak: u64,
    rss_peak_bytes: u64,
    rss_sum_bytes: u128,
    voluntary_ctxt_switches: u64,
    nonvoluntary_ctxt_switches: u64,
}

/// The summary's `procs`: peaks and means over the measure phase's samples, switches per
/// second of the measure phase.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ProcSummary {
    pub samples: u64,
    pub processes_peak: u64,
    pub threads_peak: u64,
    pub rss_peak_bytes: u64,
    pub rss_mean_bytes: u64,
    pub voluntary_ctxt_switches_per_s: f64,
    pub nonvoluntary_ctxt_switches_per_s: f64,
}

impl ProcTotals {
    pub fn add(&mut self, sample: &ProcSample) {
        self.samples += 1;
        self.processes_peak = self.processes_peak.max(sample.processes);
        self.threads_peak = self.threads_peak.max(sample.threads);
        self.rss_peak_bytes = self.rss_peak_bytes.max(sample.rss_bytes);
        self.rss_sum_bytes += u128::from(sample.rss_bytes);
        self.voluntary_ctxt_switches += sample.voluntary_ctxt_switches;
        self.nonvoluntary_ctxt_switches += sample.nonvoluntary_ctxt_switches;
    }

    /// The summary over a measure phase of `duration`; `None` without samples.
    pub fn summary(&self, duration: Duration) -> Option<ProcSummary> {
        if self.samples == 0 {
            return None;
        }
        let per_s = |count: u64| round_to(count as f64 / duration.as_secs_f64(), 1);
        Some(ProcSummary {
            samples: self.samples,
            processes_peak: self.processes_peak,
            threads_peak: self.threads_peak,
            rss_peak_bytes: self.rss_peak_bytes,
            rss_mean_bytes: (self.rss_sum_bytes / u128::from(self.samples)) as u64,
            voluntary_ctxt_switches_per_s: per_s(self.voluntary_ctxt_switches),
            nonvoluntary_ctxt_switches_per_s: per_s(self.nonvoluntary_ctxt_switches),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATUS: &str = "Name:\tc-threaded\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t42\n\
        VmPeak:\t  10000 kB\nVmRSS:\t    3512 kB\nRssAnon:\t     120 kB\nThreads:\t101\n\
        SigQ:\t0/95361\nvoluntary_ctxt_switches:\t1500\nnonvoluntary_ctxt_switches:\t27\n";

    fn status(threads: u64, rss: u64, vol: u64, nonvol: u64) -> ProcStatus {
        ProcStatus {
            uid: None,
            threads,
            rss_bytes: rss,
            voluntary_ctxt_switches: vol,
            nonvoluntary_ctxt_switches: nonvol,
        }
    }

    #[test]
    fn parses_a_status_file() {
        assert_eq!(
            parse_status(STATUS),
            Some(status(101, 3512 * 1024, 1500, 27))
        );
        let with_uid = format!("Uid:\t65534\t65534\t65534\t65534\n{STATUS}");
        assert_eq!(parse_status(&with_uid).unwrap().uid, Some(65534));
    }

    #[test]
    fn kernel_threads_have_no_rss_and_garbage_is_rejected() {
        let kthread = "Name:\tkthreadd\nThreads:\t1\nvoluntary_ctxt_switches:\t9\n";
        assert_eq!(parse_status(kthread), Some(status(1, 0, 9, 0)));
        assert_eq!(parse_status(""), None);
        assert_eq!(parse_status("Name:\tx\nVmRSS:\t12 kB\n"), None);
        assert_eq!(parse_status("Threads:\tmany\n"), None);
    }

    #[test]
    fn switches_are_counted_per_interval_and_per_pid() {
        let mut s = ProcSampler::at(Path::new("/nonexistent"), 1);
        // First sight: whole counts.
        let first = s
            .account(&[(10, status(2, 1000, 100, 5)), (11, status(1, 500, 50, 1))])
            .unwrap();
        assert_eq!(
            first,
            ProcSample {
                processes: 2,
                threads: 3,
                rss_bytes: 1500,
                voluntary_ctxt_switches: 150,
                nonvoluntary_ctxt_switches: 6,
            }
        );
        // 10 went on, 11 exited, 12 is new: deltas for 10, the whole count of 12.
        let second = s
            .account(&[(10, status(2, 2000, 130, 7)), (12, status(4, 100, 8, 2))])
            .unwrap();
        assert_eq!(second.processes, 2);
        assert_eq!(second.threads, 6);
        assert_eq!(second.rss_bytes, 2100);
        assert_eq!(second.voluntary_ctxt_switches, 30 + 8);
        assert_eq!(second.nonvoluntary_ctxt_switches, 2 + 2);
        // 11 comes back (pid reused): whole count, not a delta against its old life.
        let third = s.account(&[(11, status(1, 10, 3, 0))]).unwrap();
        assert_eq!(third.voluntary_ctxt_switches, 3);
        // 10's counts going down means a new process under that pid.
        s.account(&[(10, status(1, 10, 500, 5))]);
        let reused = s.account(&[(10, status(1, 10, 4, 1))]).unwrap();
        assert_eq!(reused.voluntary_ctxt_switches, 4);
        assert_eq!(reused.nonvoluntary_ctxt_switches, 1);
        // Nobody there.
        assert_eq!(s.account(&[]), None);
    }

    #[test]
    fn switches_are_summed_over_every_thread_of_a_process() {
        let root = std::env::temp_dir().join(format!("loadgen-tasks-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let process = "Threads:\t3\nVmRSS:\t100 kB\nvoluntary_ctxt_switches:\t1\n";
        std::fs::create_dir_all(root.join("20/task")).unwrap();
        std::fs::write(root.join("20/status"), process).unwrap();
        for (tid, switches) in [("20", 1), ("21", 700), ("22", 300)] {
            let dir = root.join("20/task").join(tid);
            std::fs::create_dir_all(&dir).unwrap();
            let text = format!(
                "Threads:\t3\nVmRSS:\t100 kB\nvoluntary_ctxt_switches:\t{switches}\n\
                 nonvoluntary_ctxt_switches:\t2\n"
            );
            std::fs::write(dir.join("status"), text).unwrap();
        }
        let sample = ProcSampler::at(&root, 1).sample().unwrap();
        assert_eq!(
            sample,
            ProcSample {
                processes: 1,
                threads: 3,
                rss_bytes: 100 * 1024,
                voluntary_ctxt_switches: 1001,
                nonvoluntary_ctxt_switches: 6,
            }
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn reads_a_proc_tree_skipping_itself_and_the_unreadable() {
        let root = std::env::temp_dir().join(format!("loadgen-proc-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (pid, text) in [
            ("7", STATUS),
            ("8", STATUS),
            ("9", "garbage"),
            ("self", STATUS),
        ] {
            std::fs::create_dir_all(root.join(pid)).unwrap();
            std::fs::write(root.join(pid).join("status"), text).unwrap();
        }
        std::fs::create_dir_all(root.join("10")).unwrap(); // vanished: no status file
        std::fs::write(root.join("uptime"), "1.0 2.0").unwrap();
        let statuses = read_statuses(&root, 8, None);
        assert_eq!(statuses, vec![(7, parse_status(STATUS).unwrap())]);
        let sample = ProcSampler::at(&root, 7).sample().unwrap();
        assert_eq!(sample.processes, 1);
        assert_eq!(sample.threads, 101);
        std::fs::remove_dir_all(&root).unwrap();
        assert!(ProcSampler::at(&root, 7).sample().is_none());
    }

    #[test]
    fn only_the_given_users_processes_count() {
        let root = std::env::temp_dir().join(format!("loadgen-uids-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (pid, uid) in [("2", 65534), ("3", 0), ("4", 65534)] {
            std::fs::create_dir_all(root.join(pid)).unwrap();
            let text = format!("Uid:\t{uid}\t{uid}\t{uid}\t{uid}\n{STATUS}");
            std::fs::write(root.join(pid).join("status"), text).unwrap();
        }
        let ids = |uid| -> Vec<u32> {
            read_statuses(&root, 1, uid)
                .iter()
                .map(|&(id, _)| id)
                .collect()
        };
        assert_eq!(ids(Some(65534)), vec![2, 4]);
        assert_eq!(ids(Some(0)), vec![3]);
        assert_eq!(ids(None), vec![2, 3, 4]);
        let sample = ProcSampler::at(&root, 1).only_uid(0).sample().unwrap();
        assert_eq!(sample.processes, 1);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_real_proc_shows_other_processes() {
        let mut child = std::process::Command::new("sleep")
            .arg("10")
            .spawn()
            .unwrap();
        let sample = ProcSampler::new().sample();
        child.kill().unwrap();
        child.wait().unwrap();
        let sample = sample.expect("the child at least");
        assert!(sample.processes >= 1 && sample.threads >= 1 && sample.rss_bytes > 0);
    }

    #[test]
    fn totals_take_peaks_means_and_rates() {
        let mut totals = ProcTotals::default();
        assert_eq!(totals.summary(Duration::from_secs(1)), None);
        for (processes, threads, rss, vol, nonvol) in [(1, 5, 1000, 300, 10), (2, 9, 3000, 100, 30)]
        {
            totals.add(&ProcSample {
                processes,
                threads,
                rss_bytes: rss,
                voluntary_ctxt_switches: vol,
                nonvoluntary_ctxt_switches: nonvol,
            });
        }
        let s = totals.summary(Duration::from_secs(2)).unwrap();
        assert_eq!(s.samples, 2);
        assert_eq!(s.processes_peak, 2);
        assert_eq!(s.threads_peak, 9);
        assert_eq!(s.rss_peak_bytes, 3000);
        assert_eq!(s.rss_mean_bytes, 2000);
        assert_eq!(s.voluntary_ctxt_switches_per_s, 200.0);
        assert_eq!(s.nonvoluntary_ctxt_switches_per_s, 20.0);
    }
}
