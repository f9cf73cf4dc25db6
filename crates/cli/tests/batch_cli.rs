//! `zermelo batch`: job files, records, skip and resume after kills and corruption, locks,
//! signals, time limits, shards and merge, driving the binary as users and schedulers do.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

/// Small jobs of every kind, with a Grundy job long enough to be checkpointed (every second)
/// and killed in the middle.
const JOBS: &str = r#"
[defaults]
threads = 1
tt_mb = 16
checkpoint_secs = 1

[[job]]
name = "hex-1x1"
kind = "hex-openings"
size = 1

[[job]]
name = "hex-3x3"
kind = "hex-openings"
size = 3

[[job]]
name = "hex-4x4"
kind = "hex-openings"
size = 4

[[job]]
name = "misere-3x3"
kind = "hex-openings"
size = 3
misere = true

[[job]]
name = "parity"
kind = "hex-parity"
max_size = 3

[[job]]
name = "solve-b2"
kind = "hex-solve"
size = 3
moves = "b2"

[[job]]
name = "kayles"
kind = "grundy-octal"
game = "0.77"
max = 3000
stop_when_proven = true

[[job]]
name = "dawson"
kind = "grundy-octal"
game = "0.07"
max = "2^12"

[[job]]
name = "officers"
kind = "grundy-octal"
game = "0.6"
max = "2^17"
"#;

/// A quicker list for the runs that happen several times at once.
const SMALL: &str = r#"
[defaults]
threads = 1
tt_mb = 8

[[job]]
name = "hex-2x2"
kind = "hex-openings"
size = 2

[[job]]
name = "hex-3x3"
kind = "hex-openings"
size = 3

[[job]]
name = "misere-parity"
kind = "hex-parity"
max_size = 2

[[job]]
name = "kayles"
kind = "grundy-octal"
game = "0.77"
max = 2000
stop_when_proven = true

[[job]]
name = "dawson"
kind = "grundy-octal"
game = "0.07"
max = 1000

[[job]]
name = "officers"
kind = "grundy-octal"
game = "0.6"
max = 5000
"#;

/// Two jobs of the same size, a second or two each.
const TWINS: &str = r#"
[defaults]
threads = 1

[[job]]
name = "officers-a"
kind = "grundy-octal"
game = "0.6"
max = "2^19"

[[job]]
name = "officers-b"
kind = "grundy-octal"
game = "0.6"
max = "2^19"
"#;

/// A job that runs for many seconds, to be stopped.
const LONG: &str = r#"
[[job]]
name = "officers"
kind = "grundy-octal"
game = "0.6"
max = "2^22"
checkpoint_secs = 1
"#;

fn command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_zermelo"));
    c.args(args);
    for var in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
    ] {
        c.env_remove(var);
    }
    c
}

fn zermelo(args: &[&str]) -> Output {
    command(args).output().expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = zermelo(args);
    assert!(
        out.status.success(),
        "zermelo {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs a command that must fail and returns its error line (one line, no panic).
fn error(args: &[&str]) -> String {
    let out = zermelo(args);
    assert!(!out.status.success(), "zermelo {args:?} should fail");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.trim().lines().last().unwrap_or_default().to_string();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(last.starts_with("zermelo: "), "{stderr}");
    last
}

fn write_jobs(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn status(dir: &Path) -> Value {
    serde_json::from_str(&ok(&["batch", "status", &s(dir), "--json"])).unwrap()
}

fn states(dir: &Path) -> Vec<(String, String)> {
    status(dir)["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            (
                j["name"].as_str().unwrap().to_string(),
                j["state"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The merged results of a finished folder (batch.json's `results`: no provenance).
fn merged(dir: &Path) -> Value {
    ok(&["batch", "merge", &s(dir), "--out", &s(dir)]);
    let text = std::fs::read_to_string(dir.join("batch.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["results"].clone()
}

/// The values of every Grundy table of a folder.
fn tables(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for name in ["kayles", "dawson", "officers"] {
        let path = dir.join(format!("{name}.zgt"));
        if path.exists() {
            let csv = ok(&["grundy", "show", &s(&path), "--csv"]);
            out.push((name.to_string(), csv));
        }
    }
    out
}

fn clean_run(tmp: &Path, jobs: &str) -> PathBuf {
    let dir = tmp.join("clean");
    ok(&["batch", "run", jobs, "--out", &s(&dir)]);
    dir
}

#[test]
fn run_records_results_with_provenance_and_skips_them_next_time() {
    let tmp = tempfile::tempdir().unwrap();
    let jobs = write_jobs(tmp.path(), "jobs.toml", SMALL);
    let dir = clean_run(tmp.path(), &jobs);
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("hex-3x3.json")).unwrap()).unwrap();
    assert_eq!(record["status"], "done");
    assert_eq!(record["job"]["size"], 3);
    assert_eq!(
        record["result"]["winning_openings"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    assert!(record["result"]["openings"][0].get("nodes").is_none());
    let p = &record["provenance"];
    for key in [
        "zermelo_version",
        "started",
        "finished",
        "wall_seconds",
        "cpu_seconds",
        "threads",
        "nodes_per_second",
    ] {
        assert!(!p[key].is_null(), "provenance lacks {key}: {p}");
    }
    assert!(record["checksum"].as_str().unwrap().starts_with("crc32:"));
    let kayles: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("kayles.json")).unwrap()).unwrap();
    assert_eq!(kayles["result"]["period"], 12);
    assert_eq!(kayles["result"]["preperiod"], 71);
    assert!(kayles["provenance"]["values_per_second"].is_number());

    let before = std::fs::read(dir.join("hex-3x3.json")).unwrap();
    let out = zermelo(&["batch", "run", &jobs, "--out", &s(&dir)]);
    assert!(out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    assert_eq!(log.matches("already done").count(), 6, "{log}");
    assert_eq!(std::fs::read(dir.join("hex-3x3.json")).unwrap(), before);
    assert!(states(&dir).iter().all(|(_, st)| st == "done"));

    ok(&["batch", "report", &s(&dir)]);
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("| kayles | grundy-octal |"), "{report}");
    assert!(report.contains("period 12 from 71, proven"), "{report}");
    assert!(report.contains("6 of 6 jobs done"), "{report}");
}

#[test]
fn corrupted_results_are_detected_and_redone() {
    let tmp = tempfile::tempdir().unwrap();
    let jobs = write_jobs(tmp.path(), "jobs.toml", SMALL);
    let dir = clean_run(tmp.path(), &jobs);
    let reference = merged(&dir);
    let reference_tables = tables(&dir);

    // A flipped byte in a record, a truncated table, a truncated record.
    let path = dir.join("hex-3x3.json");
    let mut bytes = std::fs::read(&path).unwrap();
    let i = bytes
        .iter()
        .position(|&b| b == b'+')
        .unwrap_or(bytes.len() / 2);
    let at = bytes[i..].iter().position(u8::is_ascii_digit).unwrap() + i;
    bytes[at] = if bytes[at] == b'1' { b'2' } else { b'1' };
    std::fs::write(&path, &bytes).unwrap();
    let table = dir.join("dawson.zgt");
    let t = std::fs::read(&table).unwrap();
    std::fs::write(&table, &t[..t.len() - 3]).unwrap();
    let record = dir.join("misere-parity.json");
    let r = std::fs::read(&record).unwrap();
    std::fs::write(&record, &r[..r.len() / 2]).unwrap();
    // A kill between a Grundy job's finished table and its record: the table is resumed and
    // must stop exactly where the proof completed, as the first run did.
    std::fs::remove_file(dir.join("kayles.json")).unwrap();

    let st = states(&dir);
    assert!(
        st.contains(&("kayles".into(), "checkpointed".into())),
        "{st:?}"
    );
    for name in ["hex-3x3", "dawson", "misere-parity"] {
        assert!(st.contains(&(name.into(), "corrupt".into())), "{st:?}");
    }
    let out = zermelo(&["batch", "run", &jobs, "--out", &s(&dir)]);
    assert!(out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    assert_eq!(log.matches("redoing the job").count(), 3, "{log}");
    assert_eq!(merged(&dir), reference);
    assert_eq!(tables(&dir), reference_tables);
}

#[test]
fn killed_at_random_moments_then_resumed_gives_the_clean_results() {
    let tmp = tempfile::tempdir().unwrap();
    let jobs = write_jobs(tmp.path(), "jobs.toml", JOBS);
    let reference_dir = clean_run(tmp.path(), &jobs);
    let reference = merged(&reference_dir);
    let reference_tables = tables(&reference_dir);
    assert_eq!(reference.as_object().unwrap().len(), 9);

    let dir = tmp.path().join("killed");
    // A fixed pseudo-random sequence of delays, so a failure can be reproduced.
    let mut seed: u64 = 0x5eed;
    let mut saw_checkpoint = false;
    for _ in 0..6 {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let delay = 50 + (seed >> 33) % 1500;
        let mut child = command(&["batch", "run", &jobs, "--out", &s(&dir)])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        child.kill().unwrap(); // SIGKILL: no handler runs, no cleanup.
        child.wait().unwrap();
        saw_checkpoint |= states(&dir).iter().any(|(_, st)| st == "checkpointed");
    }
    // A write cut short by a kill leaves its temporary file, which the job's next run removes.
    std::fs::write(dir.join(".officers.zgt.4242.tmp"), b"half a table").unwrap();
    std::fs::remove_file(dir.join("officers.json")).ok();
    ok(&["batch", "run", &jobs, "--out", &s(&dir)]);
    let leftovers: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp") && !n.starts_with(".jobs.toml."))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let resumed = merged(&dir);
    for (name, result) in reference.as_object().unwrap() {
        assert_eq!(&resumed[name], result, "job {name}");
    }
    assert_eq!(resumed, reference);
    assert_eq!(tables(&dir), reference_tables);
    // Which moments the kills hit depends on the machine's speed, so this is only reported.
    eprintln!("a kill left a checkpoint to resume: {saw_checkpoint}");
}

fn wait_for(path: &Path) {
    for _ in 0..600 {
        if path.exists() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{} never appeared", path.display());
}

fn spawn_long(tmp: &Path) -> (String, PathBuf, Child) {
    let jobs = write_jobs(tmp, "long.toml", LONG);
    let dir = tmp.join("long");
    let child = command(&["batch", "run", &jobs, "--out", &s(&dir), "--log-every", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    (jobs, dir, child)
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args(["-s", sig, &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
}

#[test]
fn sigterm_checkpoints_and_a_second_runner_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (jobs, dir, child) = spawn_long(tmp.path());
    // The first checkpoint is written a second into the job.
    wait_for(&dir.join("officers.zgt"));
    let second = error(&["batch", "run", &jobs, "--out", &s(&dir)]);
    assert!(
        second.contains("in use by another zermelo batch run"),
        "{second}"
    );
    assert!(states(&dir).contains(&("officers".into(), "running".into())));

    // Long enough for a log line or two, whatever the machine's speed.
    std::thread::sleep(Duration::from_millis(2500));
    signal(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Not on a terminal: plain progress lines with the batch's and the job's facts.
    // The line carries an estimate once the running job has reported its own.
    assert!(
        stderr
            .lines()
            .any(|l| l.contains("batch: 0/1 jobs ended") && l.contains("; officers running")),
        "{stderr}"
    );
    assert!(stderr.contains("values"), "{stderr}");
    let last = stderr.trim().lines().last().unwrap();
    assert!(
        last.contains("interrupted: job officers checkpointed"),
        "{stderr}"
    );
    assert!(last.contains("run the same command again"), "{stderr}");
    assert_eq!(
        states(&dir),
        vec![("officers".into(), "checkpointed".into())]
    );
    // The interrupted run's time is kept for the record of the run that will finish the job.
    let parts = |dir: &Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("officers.parts.json")).unwrap())
            .unwrap()
    };
    assert_eq!(parts(&dir)["parts"], 1);
    assert!(parts(&dir)["wall_seconds"].as_f64().unwrap() >= 2.5);
    let table = dir.join("officers.zgt");
    let show: Value = serde_json::from_str(&ok(&["grundy", "show", &s(&table), "--json"])).unwrap();
    assert_eq!(show["complete"], false);
    let computed = show["computed"].as_u64().unwrap();
    assert!(computed > 0);

    // The next run says in its log that it goes on from the checkpoint (a cluster log is how a
    // requeued task shows it resumed); it is stopped again once it has said so.
    let mut child = command(&["batch", "run", &jobs, "--out", &s(&dir), "--log-every", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let said = lines
        .by_ref()
        .map(Result::unwrap)
        .find(|l| l.contains("resuming"))
        .unwrap_or_default();
    // Stopped once the job has started: a job stopped before its child starts is not started,
    // and its interrupted run would add no part.
    let started = lines
        .by_ref()
        .map(Result::unwrap)
        .any(|l| l.contains("officers started"));
    assert!(started, "the resumed job never started");
    signal(&child, "TERM");
    lines.for_each(drop);
    child.wait().unwrap();
    assert_eq!(
        said,
        format!(
            "batch: officers: resuming from its checkpoint ({} of {} values)",
            computed + 1,
            (1u64 << 22) + 1
        )
    );
    assert_eq!(
        states(&dir),
        vec![("officers".into(), "checkpointed".into())]
    );
    assert_eq!(parts(&dir)["parts"], 2);
}

#[test]
fn a_second_ctrl_c_stops_at_once_without_corrupting_anything() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, dir, child) = spawn_long(tmp.path());
    wait_for(&dir.join("officers.zgt"));
    signal(&child, "INT");
    signal(&child, "INT");
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    let st = states(&dir);
    assert!(
        st == vec![("officers".into(), "checkpointed".into())],
        "{st:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn failed_jobs_are_recorded_with_their_reason_and_the_others_go_on() {
    let tmp = tempfile::tempdir().unwrap();
    let text = r#"
[[job]]
name = "slow"
kind = "grundy-octal"
game = "0.6"
max = "2^22"
time_limit = 1

[[job]]
name = "ok"
kind = "hex-openings"
size = 2
threads = 1
tt_mb = 8

[[job]]
name = "slow-hex"
kind = "hex-openings"
size = 6
misere = true
threads = 1
tt_mb = 64
time_limit = 1

[[job]]
name = "huge-table"
kind = "hex-openings"
size = 2
tt_mb = 1048576
"#;
    let jobs = write_jobs(tmp.path(), "jobs.toml", text);
    let dir = tmp.path().join("r");
    let err = error(&["batch", "run", &jobs, "--out", &s(&dir)]);
    assert!(err.contains("3 failed"), "{err}");
    let st = status(&dir);
    let by_name = |n: &str| {
        st["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|j| j["name"] == n)
            .unwrap()
            .clone()
    };
    assert_eq!(by_name("ok")["state"], "done");
    for name in ["slow", "slow-hex", "huge-table"] {
        assert_eq!(by_name(name)["state"], "failed", "{st}");
    }
    assert!(by_name("slow")["detail"]
        .as_str()
        .unwrap()
        .starts_with("out of time (limit 1 s); checkpointed"));
    // The Hex job's process is stopped, and saves its proofs first, for a rerun.
    assert_eq!(
        by_name("slow-hex")["detail"].as_str().unwrap(),
        "out of time (limit 1 s); checkpointed, a rerun resumes it"
    );
    let proofs = ok(&[
        "hex",
        "proofs",
        "merge",
        &s(&tmp.path().join("copy.proofs")),
        &s(&dir.join("slow-hex.proofs")),
    ]);
    assert!(proofs.contains("of 6x6 misère Hex"), "{proofs}");
    // Refused before anything is allocated (unless this machine has a terabyte of memory).
    let huge = by_name("huge-table")["detail"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(huge.contains("MiB of memory"), "{huge}");
    assert_eq!(st["counts"]["failed"], 3);
    ok(&["batch", "report", &s(&dir)]);
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("failed: out of time"), "{report}");
    // The open entries of its table are saved beside the proofs; damaged, a rerun drops them
    // and goes on from the proofs.
    let open = dir.join("slow-hex.proofs.open");
    assert!(open.exists());
    std::fs::write(&open, b"not a table").unwrap();
    let out = zermelo(&["batch", "run", &jobs, "--out", &s(&dir)]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr) + String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("slow-hex: ") && said.contains("going on from the proofs alone"),
        "{said}"
    );
    let merge = error(&["batch", "merge", &s(&dir), "--out", &s(&dir)]);
    assert!(merge.contains("3 of 4 jobs are not done"), "{merge}");
}

#[test]
fn bad_values_stop_the_batch_before_its_first_job() {
    let tmp = tempfile::tempdir().unwrap();
    for (job, says) in [
        ("kind = \"hex-openings\"\nsize = 13", "size = 13"),
        ("kind = \"grundy-octal\"\ngame = \"0.9Z\"\nmax = 10", "0.9Z"),
        ("kind = \"hex-solve\"\nsize = 5\nmoves = \"a1 a1\"", "a1 a1"),
        (
            "kind = \"grundy-octal\"\ngame = \"0.77\"\nmax = \"2^99\"",
            "2^99",
        ),
    ] {
        let text = format!(
            "[[job]]\nname = \"fine\"\nkind = \"hex-openings\"\nsize = 2\n\n\
             [[job]]\nname = \"bad\"\n{job}\n"
        );
        let jobs = write_jobs(tmp.path(), "jobs.toml", &text);
        let dir = tmp.path().join("r");
        for command in ["run", "check"] {
            let args: Vec<&str> = if command == "run" {
                vec!["batch", "run", &jobs, "--out", s(&dir).leak()]
            } else {
                vec!["batch", "check", &jobs]
            };
            let err = error(&args);
            assert!(err.contains("job \"bad\"") && err.contains(says), "{err}");
        }
        assert!(!dir.exists(), "no job ran, no folder was made");
    }
    let good = write_jobs(tmp.path(), "good.toml", SMALL);
    let said = ok(&["batch", "check", &good]);
    assert!(
        said.contains("6 jobs") && said.contains("hex-2x2"),
        "{said}"
    );
}

#[test]
fn shards_in_separate_processes_merge_to_the_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    let jobs = write_jobs(tmp.path(), "jobs.toml", SMALL);
    let reference = merged(&clean_run(tmp.path(), &jobs));

    // Three shards at once into one folder, the last one told its shard by Slurm's variables.
    let shared = tmp.path().join("shared");
    let mut children = Vec::new();
    for i in 0..3 {
        let mut c = command(&["batch", "run", &jobs, "--out", &s(&shared)]);
        if i < 2 {
            c.args(["--shard", &format!("{i}/3")]);
        } else {
            c.env("SLURM_ARRAY_TASK_MIN", "1")
                .env("SLURM_ARRAY_TASK_ID", "3")
                .env("SLURM_ARRAY_TASK_COUNT", "3");
        }
        let c = c.stdout(Stdio::null()).stderr(Stdio::piped());
        children.push(c.spawn().unwrap());
    }
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(merged(&shared), reference);

    // Two shards in folders of their own (two machines), merged into a third.
    let (a, b, m) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("m"),
    );
    ok(&["batch", "run", &jobs, "--out", &s(&a), "--shard", "0/2"]);
    let partial = error(&["batch", "merge", &s(&a), "--out", &s(&m)]);
    assert!(partial.contains("jobs are not done"), "{partial}");
    assert!(!m.exists(), "a failed merge left {} behind", m.display());
    ok(&["batch", "run", &jobs, "--out", &s(&b), "--shard", "1/2"]);
    ok(&["batch", "merge", &s(&a), &s(&b), "--out", &s(&m)]);
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(m.join("batch.json")).unwrap()).unwrap();
    assert_eq!(v["results"], reference);
    assert!(states(&m).iter().all(|(_, st)| st == "done"));
}

/// `--parallel` runs several jobs at once in one folder: the same results as one at a time,
/// each job's CPU time its own (the time of a job reaped while it runs is not counted in its
/// record), a log line for each running job, and a signal stops every running job at its
/// checkpoint.
#[test]
fn parallel_jobs_give_the_single_run_and_stop_together() {
    let tmp = tempfile::tempdir().unwrap();
    let jobs = write_jobs(tmp.path(), "jobs.toml", SMALL);
    let reference = merged(&clean_run(tmp.path(), &jobs));
    let dir = tmp.path().join("parallel");
    ok(&["batch", "run", &jobs, "--out", &s(&dir), "--parallel", "3"]);
    assert_eq!(merged(&dir), reference);

    // Two jobs of the same size at once: whichever ends last ran while the other was reaped,
    // and its record counts its own CPU time alone, near what it took run alone.
    let twins = write_jobs(tmp.path(), "twins.toml", TWINS);
    let cpu = |dir: &Path| -> Vec<f64> {
        ["officers-a", "officers-b"]
            .map(|name| {
                let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
                let record: Value = serde_json::from_str(&text).unwrap();
                record["provenance"]["cpu_seconds"].as_f64().unwrap()
            })
            .to_vec()
    };
    let alone = cpu(&clean_run(&tmp.path().join("twins"), &twins));
    let dir = tmp.path().join("twins-parallel");
    ok(&["batch", "run", &twins, "--out", &s(&dir), "--parallel", "2"]);
    for (both, alone) in cpu(&dir).into_iter().zip(alone) {
        assert!(
            both <= 1.6 * alone + 0.1,
            "{both} s of CPU, {alone} s alone"
        );
    }

    let long = write_jobs(
        tmp.path(),
        "long2.toml",
        &format!("{LONG}\n{}", LONG.replace("officers", "officers-too")),
    );
    let dir = tmp.path().join("long2");
    let child = command(&["batch", "run", &long, "--out", &s(&dir), "--parallel", "2"])
        .args(["--log-every", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&dir.join("officers.zgt"));
    wait_for(&dir.join("officers-too.zgt"));
    assert!(states(&dir).iter().all(|(_, st)| st == "running"));
    std::thread::sleep(Duration::from_millis(2500));
    signal(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    for name in ["officers", "officers-too"] {
        let running = format!("; {name} running");
        assert!(stderr.lines().any(|l| l.contains(&running)), "{stderr}");
    }
    let last = stderr.trim().lines().last().unwrap();
    assert!(
        last.contains("job officers checkpointed")
            && last.contains("job officers-too checkpointed"),
        "{stderr}"
    );
    assert_eq!(
        states(&dir),
        vec![
            ("officers".into(), "checkpointed".into()),
            ("officers-too".into(), "checkpointed".into())
        ]
    );
    let bad = error(&["batch", "run", &long, "--out", &s(&dir), "--parallel", "0"]);
    assert!(
        bad.contains("--parallel must be between 1 and 1024"),
        "{bad}"
    );
}

/// `--only` runs the named jobs alone, and the shards of an array deal out those alone: two
/// shards of two named jobs run one each, whatever the costs of the others, with the results
/// of the whole run, once all have run; a name not in the job file is one clear error, before
/// any job runs.
#[test]
fn only_the_named_jobs_run_and_shards_deal_them_out() {
    let tmp = tempfile::tempdir().unwrap();
    let jobs = write_jobs(tmp.path(), "jobs.toml", SMALL);
    let reference = merged(&clean_run(tmp.path(), &jobs));
    let dir = tmp.path().join("only");
    let out = s(&dir);
    // `batch run JOBS --out DIR` followed by `extra`.
    let args = |extra: &[&str]| -> Vec<String> {
        ["batch", "run", &jobs, "--out", &out]
            .iter()
            .chain(extra)
            .map(|a| a.to_string())
            .collect()
    };
    let run = |extra: &[&str]| ok(&args(extra).iter().map(String::as_str).collect::<Vec<_>>());
    for i in 0..2 {
        let shard = format!("{i}/2");
        let said = run(&["--only", "hex-3x3,kayles", "--shard", &shard]);
        assert!(said.contains("1 of 1 jobs done"), "{said}");
    }
    let done: Vec<String> = states(&dir)
        .into_iter()
        .filter(|(_, st)| st == "done")
        .map(|(name, _)| name)
        .collect();
    assert_eq!(done, ["hex-3x3", "kayles"]);
    run(&["--only", "dawson", "--only", "officers"]);
    assert_eq!(
        states(&dir).iter().filter(|(_, st)| st == "done").count(),
        4
    );
    run(&["--only", "hex-2x2,misere-parity"]);
    assert_eq!(merged(&dir), reference);

    let err = error(
        &args(&["--only", "hex-3x3,hex-9x9"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(
        err.contains("--only \"hex-9x9\"") && err.contains("no job of that name"),
        "{err}"
    );
}

#[test]
fn bad_input_gets_one_clear_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = s(&tmp.path().join("r"));
    let cases = [
        ("[[job]\nname = 1", "line 1"),
        (
            "[[job]]\nname = \"a\"\nkind = \"chess\"\n",
            "unknown kind \"chess\"",
        ),
        (
            "[[job]]\nname = \"a\"\nkind = \"hex-parity\"\nmax_size = 2\n\
             [[job]]\nname = \"a\"\nkind = \"hex-parity\"\nmax_size = 3\n",
            "two jobs are named \"a\"",
        ),
        (
            "[[job]]\nname = \"a\"\nkind = \"hex-parity\"\nmax_size = 2\ncolour = 1\n",
            "unknown field `colour`",
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let jobs = write_jobs(tmp.path(), &format!("bad{i}.toml"), text);
        let out = zermelo(&["batch", "run", &jobs, "--out", &dir]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
    let jobs = write_jobs(
        tmp.path(),
        "good.toml",
        "[[job]]\nname = \"a\"\nkind = \"hex-openings\"\nsize = 2\nthreads = 1\ntt_mb = 8\n",
    );
    for shard in ["3/3", "x", "1/0"] {
        let err = error(&["batch", "run", &jobs, "--out", &dir, "--shard", shard]);
        assert!(err.contains("--shard"), "{err}");
    }
    ok(&["batch", "run", &jobs, "--out", &dir]);
    let changed = write_jobs(
        tmp.path(),
        "changed.toml",
        "[[job]]\nname = \"a\"\nkind = \"hex-openings\"\nsize = 3\n",
    );
    let err = error(&["batch", "run", &changed, "--out", &dir]);
    assert!(err.contains("another definition of job \"a\""), "{err}");
    let err = error(&["batch", "status", &s(tmp.path())]);
    assert!(err.contains("not a batch results folder"), "{err}");
}

#[test]
fn a_run_with_part_of_the_job_file_keeps_the_other_results_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let jobs = write_jobs(tmp.path(), "jobs.toml", SMALL);
    let dir = clean_run(tmp.path(), &jobs);
    let reference = merged(&dir);
    // Two of the six jobs again, and one new job.
    let part = write_jobs(
        tmp.path(),
        "part.toml",
        "[[job]]\nname = \"hex-2x2\"\nkind = \"hex-openings\"\nsize = 2\n\
         [[job]]\nname = \"kayles\"\nkind = \"grundy-octal\"\ngame = \"0.77\"\nmax = 2000\n\
         stop_when_proven = true\n\
         [[job]]\nname = \"hex-1x1\"\nkind = \"hex-openings\"\nsize = 1\n",
    );
    ok(&["batch", "run", &part, "--out", &s(&dir)]);
    let listed = states(&dir);
    assert_eq!(listed.len(), 7, "{listed:?}");
    assert!(listed.iter().all(|(_, st)| st == "done"), "{listed:?}");
    let all = merged(&dir);
    for (name, result) in reference.as_object().unwrap() {
        assert_eq!(&all[name], result, "{name}");
    }
    let report = ok(&["batch", "report", &s(&dir)]);
    assert!(report.contains("report.md"), "{report}");
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    for name in ["hex-1x1", "hex-3x3", "officers", "misere-parity"] {
        assert!(md.contains(name), "{name} missing from the report:\n{md}");
    }
}

#[test]
fn a_results_folder_whose_name_is_not_utf8_works_for_every_kind() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let jobs = write_jobs(tmp.path(), "jobs.toml", SMALL);
    let dir = tmp
        .path()
        .join(std::ffi::OsStr::from_bytes(b"results-\xfd"));
    let out = command(&["batch", "run", &jobs, "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in ["kayles", "dawson", "officers"] {
        assert!(dir.join(format!("{name}.zgt")).exists(), "{name}");
    }
    let status = command(&["batch", "status", "--json"])
        .arg(&dir)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert!(v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .all(|j| j["state"] == "done"));
}

/// A streamed Grundy job stopped by its time limit.
const STREAMED_LONG: &str = r#"
[[job]]
name = "officers"
kind = "grundy-octal"
game = "0.6"
max = "2^24"
stream = true
time_limit = 2
checkpoint_secs = 1
"#;

/// A streamed Grundy job that finishes.
const STREAMED: &str = r#"
[[job]]
name = "dawson"
kind = "grundy-octal"
game = "0.07"
max = 3000
stop_when_proven = true
stream = true
"#;

#[test]
fn streamed_jobs_checkpoint_and_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let jobs = write_jobs(tmp.path(), "jobs.toml", STREAMED_LONG);
    let dir = tmp.path().join("out");
    let officers = dir.join("officers.stream");
    let mut reached = Vec::new();
    for _ in 0..2 {
        let _ = zermelo(&["batch", "run", &jobs, "--out", &s(&dir)]);
        assert_eq!(
            states(&dir),
            [("officers".to_string(), "failed".to_string())]
        );
        let shown = ok(&["grundy", "show", &s(&officers), "--json"]);
        let shown: Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(shown["complete"], false);
        reached.push(shown["computed"].as_u64().unwrap());
    }
    // The second run went on from the pieces of the first.
    assert!(0 < reached[0] && reached[0] < reached[1], "{reached:?}");
}

#[test]
fn streamed_jobs_verify_and_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let jobs = write_jobs(tmp.path(), "jobs.toml", STREAMED);
    let dir = tmp.path().join("out");
    ok(&["batch", "run", &jobs, "--out", &s(&dir)]);
    assert_eq!(states(&dir), [("dawson".to_string(), "done".to_string())]);
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("dawson.json")).unwrap()).unwrap();
    assert_eq!(record["result"]["table"], "dawson.stream");
    assert_eq!(record["result"]["computed"], 175);
    let shown = ok(&["grundy", "show", &s(&dir.join("dawson.stream")), "--json"]);
    assert!(shown.contains("\"period\":34"), "{shown}");

    // A damaged piece of a finished stream is found by the status check, and the job redone.
    let piece = dir.join("dawson.stream/piece-000000.zgt");
    let mut bytes = std::fs::read(&piece).unwrap();
    let i = bytes.len() - 9;
    bytes[i] ^= 0x20;
    std::fs::write(&piece, bytes).unwrap();
    assert_eq!(states(&dir)[0].1, "corrupt");
    ok(&["batch", "run", &jobs, "--out", &s(&dir)]);
    assert_eq!(states(&dir)[0].1, "done");

    // The merge copies the stream folder, which verifies where it lands.
    let merged_dir = tmp.path().join("merged");
    std::fs::create_dir_all(&merged_dir).unwrap();
    ok(&["batch", "merge", &s(&dir), "--out", &s(&merged_dir)]);
    let copy = ok(&[
        "grundy",
        "show",
        &s(&merged_dir.join("dawson.stream")),
        "--csv",
    ]);
    let original = ok(&["grundy", "show", &s(&dir.join("dawson.stream")), "--csv"]);
    assert_eq!(copy, original);
}

/// An openings table spread over solve jobs, one per opening up to the 180° rotation, as
/// jobs/hex-8x8.toml spreads 8x8: the jobs' proofs, pooled with `hex proofs merge`, give through
/// `hex openings --proofs --proven-only` (which searches nothing) the table a plain `hex
/// openings` run gives. On 5x5: 13 jobs, a1 to c3.
#[test]
fn openings_spread_over_solve_jobs_give_the_openings_table() {
    let tmp = tempfile::tempdir().unwrap();
    let mut jobs = String::from("[defaults]\nthreads = 1\ntt_mb = 16\n");
    let cells: Vec<String> = (0..13)
        .map(|i| format!("{}{}", char::from(b'a' + i % 5), i / 5 + 1))
        .collect();
    for cell in &cells {
        jobs += &format!(
            "\n[[job]]\nname = \"5x5-{cell}\"\nkind = \"hex-solve\"\nsize = 5\n\
             moves = \"{cell}\"\nall = false\n"
        );
    }
    let file = write_jobs(tmp.path(), "openings.toml", &jobs);
    let run = tmp.path().join("run");
    ok(&["batch", "run", &file, "--out", &s(&run)]);
    let pooled = s(&run.join("5x5.proofs"));
    let mut merge = vec![
        "hex".to_string(),
        "proofs".into(),
        "merge".into(),
        pooled.clone(),
    ];
    merge.extend(
        cells
            .iter()
            .map(|c| s(&run.join(format!("5x5-{c}.proofs")))),
    );
    ok(&merge.iter().map(String::as_str).collect::<Vec<_>>());
    // Each job's proofs hold its opening, even one its analysis decides at once (b3, d3's twin:
    // the analysis of d3, built in another order, may not decide it).
    for cell in &cells {
        let opening = s(&tmp.path().join("opening.proofs"));
        let proofs = s(&run.join(format!("5x5-{cell}.proofs")));
        let args = [
            "hex",
            "proofs",
            "merge",
            &opening,
            &proofs,
            "--max-stones",
            "1",
            "--json",
        ];
        let kept: Value = serde_json::from_str(&ok(&args)).unwrap();
        assert_eq!(kept["proofs"], 1, "{cell}: {kept}");
    }
    let table = |dir: &Path, extra: &[&str]| -> Vec<(String, bool)> {
        let mut args = vec!["hex", "openings", "--size", "5", "--no-plies"];
        let out = s(dir);
        args.extend(extra);
        args.extend(["--out", &out]);
        ok(&args);
        let text = std::fs::read_to_string(dir.join("5x5-openings.json")).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        v["openings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                let cell = o["cell"].as_str().unwrap().to_string();
                (cell, o["first_player_wins"].as_bool().unwrap())
            })
            .collect()
    };
    let spread = table(
        &tmp.path().join("spread"),
        &["--proofs", &pooled, "--proven-only"],
    );
    let plain = table(&tmp.path().join("plain"), &[]);
    assert_eq!(spread.len(), 25);
    assert_eq!(spread, plain);
    // What a run keeps with its results to go on elsewhere: the openings' proofs alone
    // (--max-stones 1) and the done jobs' records. In a fresh folder the batch finds every job
    // done and searches nothing, and the table is the same.
    let kept = tmp.path().join("kept");
    std::fs::create_dir(&kept).unwrap();
    let roots = s(&kept.join("5x5-openings.proofs"));
    let merged = ok(&[
        "hex",
        "proofs",
        "merge",
        &roots,
        &pooled,
        "--max-stones",
        "1",
        "--json",
    ]);
    let merged: Value = serde_json::from_str(&merged).unwrap();
    assert!(merged["proofs"].as_u64().unwrap() <= 25, "{merged}");
    assert!(merged["dropped"].as_u64().unwrap() > 0, "{merged}");
    for cell in &cells {
        let name = format!("5x5-{cell}.json");
        std::fs::copy(run.join(&name), kept.join(&name)).unwrap();
    }
    ok(&["batch", "run", &file, "--out", &s(&kept)]);
    assert!(!kept.join("5x5-a1.proofs").exists());
    let from_roots = table(
        &tmp.path().join("roots"),
        &["--proofs", &roots, "--proven-only"],
    );
    assert_eq!(from_roots, plain);
    // With --batch, each solved opening carries its job's time and nodes, its twin none.
    let timed = tmp.path().join("timed");
    ok(&[
        "hex",
        "openings",
        "--size",
        "5",
        "--proofs",
        &pooled,
        "--proven-only",
        "--batch",
        &s(&run),
        "--out",
        &s(&timed),
    ]);
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(timed.join("5x5-openings.json")).unwrap())
            .unwrap();
    let record = |cell: &str| -> Value {
        let text = std::fs::read_to_string(run.join(format!("5x5-{cell}.json"))).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    for o in doc["openings"].as_array().unwrap() {
        let cell = o["cell"].as_str().unwrap();
        if cells.iter().any(|c| c == cell) {
            let p = &record(cell)["provenance"];
            assert_eq!(o["nodes"], p["nodes"], "{cell}");
            assert_eq!(o["seconds"], p["wall_seconds"], "{cell}");
        } else {
            assert_eq!(
                (o["nodes"].as_u64(), o["seconds"].as_f64()),
                (Some(0), Some(0.0))
            );
        }
    }
    let md = std::fs::read_to_string(timed.join("5x5-openings.md")).unwrap();
    assert!(
        md.contains("| opening | first player | seconds | nodes |"),
        "{md}"
    );
    // While openings are still open (here only a1's proofs are pooled), the report and the
    // JSON give a1, solved by a done job, its time and nodes.
    let partial = tmp.path().join("partial");
    let a1_proofs = s(&run.join("5x5-a1.proofs"));
    let out = zermelo(&[
        "hex",
        "openings",
        "--size",
        "5",
        "--json",
        "--proofs",
        &a1_proofs,
        "--proven-only",
        "--batch",
        &s(&run),
        "--out",
        &s(&partial),
    ]);
    assert_eq!(out.status.code(), Some(3));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let a1 = &doc["openings"].as_array().unwrap()[0];
    let p = &record("a1")["provenance"];
    assert_eq!(
        (&a1["cell"], &a1["nodes"]),
        (&"a1".into(), &p["nodes"]),
        "{doc}"
    );
    assert_eq!(a1["seconds"], p["wall_seconds"], "{doc}");
    let md = std::fs::read_to_string(partial.join("5x5-report.md")).unwrap();
    let seconds = p["wall_seconds"].as_f64().unwrap();
    let line = format!("| a1 | loses | {seconds:.1} | {} |", p["nodes"]);
    assert!(md.contains(&line), "{line} missing:\n{md}");
    assert!(
        md.contains("The 13 done jobs of the batch folder took"),
        "{md}"
    );
    assert!(
        md.contains("| opening | first player | seconds | nodes |"),
        "{md}"
    );
    // A job with all = false reports one winning move: after a1, White's.
    let a1: Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("5x5-a1.json")).unwrap()).unwrap();
    let result = &a1["result"];
    assert_eq!(result["winner"], "white", "{a1}");
    assert!(result["winning_move"].is_string(), "{a1}");
    assert!(result["winning_moves"].is_null(), "{a1}");
}
