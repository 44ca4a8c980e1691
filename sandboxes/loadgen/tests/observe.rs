//! The `observe` binary as the runner uses it: lines while it runs, a last one on SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use serde_json::Value;

#[test]
fn prints_lines_until_sigterm_then_a_final_one() {
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    let mut child = Command::new(env!("CARGO_BIN_EXE_observe"))
        .args(["--uid", &uid.to_string(), "--interval-ms", "50"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = || -> Value { serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap() };
    let first = next();
    let second = next();
    assert_eq!(first["type"], "observe");
    assert_eq!(first["final"], false);
    assert_eq!(first["interval_s"], 0.0);
    assert!(second["interval_s"].as_f64().unwrap() > 0.02, "{second}");
    // This test's own process is of the same user, so there is someone to count.
    assert!(
        second["procs"]["processes"].as_u64().unwrap() >= 1,
        "{second}"
    );
    assert!(second["net"]["rx_bytes"].is_u64(), "{second}");
    // SAFETY: signalling our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let mut last = next();
    while last["final"] == false {
        last = next();
    }
    assert!(last["cpu_s"].as_f64().unwrap() >= 0.0);
    assert!(child.wait().unwrap().success());
}

#[test]
fn only_some_other_user_means_no_processes() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_observe"))
        .args(["--uid", "4000000000", "--interval-ms", "10"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(first["procs"], Value::Null);
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn bad_arguments_exit_2() {
    let status = Command::new(env!("CARGO_BIN_EXE_observe"))
        .args(["--interval-ms", "5"])
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}
