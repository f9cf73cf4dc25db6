//! The program as a whole: what `--version` says, the shell completions and the manual pages.

mod common;
use common::zermelo;

#[test]
fn version_names_the_commit_and_the_build() {
    let out = zermelo(&["--version"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let rest = text
        .trim()
        .strip_prefix(&format!("zermelo {} (commit ", env!("CARGO_PKG_VERSION")))
        .unwrap_or_else(|| panic!("{text}"));
    let (commit, build) = rest.split_once(", ").unwrap_or_else(|| panic!("{text}"));
    assert!(
        commit == "unknown" || commit.bytes().all(|b| b.is_ascii_hexdigit()),
        "{text}"
    );
    // The tests run a debug build.
    assert_eq!(build, "debug build)", "{text}");
}

#[test]
fn completions_cover_every_subcommand() {
    for shell in ["bash", "zsh", "fish"] {
        let out = zermelo(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8_lossy(&out.stdout);
        for word in [
            "openings",
            "lookup",
            "octal",
            "merge",
            "tt-mb",
            "stop-when-proven",
        ] {
            assert!(script.contains(word), "{shell}: no {word}");
        }
    }
    let out = zermelo(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn manual_pages_are_written_for_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let out = zermelo(&["man", "--out", dir.path().to_str().unwrap()]);
    assert!(out.status.success());
    for page in [
        "zermelo.1",
        "zermelo-hex-solve.1",
        "zermelo-grundy-octal.1",
        "zermelo-batch-run.1",
    ] {
        let text = std::fs::read_to_string(dir.path().join(page)).unwrap();
        assert!(text.starts_with(".ie") || text.contains(".TH"), "{page}");
    }
    let solve = std::fs::read_to_string(dir.path().join("zermelo-hex-solve.1")).unwrap();
    assert!(solve.contains("perfect\\-play length"), "{solve}");
}

#[test]
fn the_main_job_of_the_readme_writes_outside_the_committed_results() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let main = readme
        .lines()
        .find(|l| l.contains("# main job"))
        .expect("the README names its main job");
    let out = main
        .split_whitespace()
        .skip_while(|w| *w != "--out")
        .nth(1)
        .expect("the main job writes to --out");
    assert!(!out.starts_with("results"), "{main}");
    // The scratch folder is ignored by git, so a run leaves the clone clean.
    let folder = out.split('/').next().unwrap();
    let ignored = std::fs::read_to_string(format!("{root}/.gitignore")).unwrap();
    assert!(
        ignored.lines().any(|l| l.trim_matches('/') == folder),
        "{folder} is not in .gitignore"
    );
}
