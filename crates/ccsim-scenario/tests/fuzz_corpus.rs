//! Replays the scenario fuzzer's kept corpus and every input it ever crashed on
//! (`fuzz/corpus/scenario`, `fuzz/regressions`) through the fuzz target's body, so CI
//! checks on each change what the fuzzer found once.

use std::path::Path;

fn replay(dir: &Path) -> usize {
    let mut n = 0;
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("the fuzz folder {} is missing: {e}", dir.display()));
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let data = std::fs::read(&path).expect("readable corpus file");
        let result = std::panic::catch_unwind(|| ccsim_scenario::fuzzing::exercise(&data));
        assert!(result.is_ok(), "fuzz input {} panics", path.display());
        n += 1;
    }
    n
}

#[test]
fn the_fuzz_corpus_and_every_past_crash_run_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let corpus = replay(&root.join("corpus/scenario"));
    let regressions = replay(&root.join("regressions"));
    assert!(corpus >= 14, "the seed corpus is there ({corpus} files)");
    assert!(
        regressions >= 1,
        "the past crashes are there ({regressions} files)"
    );
    // The corpus holds inputs for the paths `run` adds to building: captures and web traffic.
    let holds = |needle: &str| {
        std::fs::read_dir(root.join("corpus/scenario"))
            .expect("corpus folder")
            .filter_map(Result::ok)
            .any(|e| {
                std::fs::read(e.path())
                    .is_ok_and(|d| d.windows(needle.len()).any(|w| w == needle.as_bytes()))
            })
    };
    for needle in [
        "pcap",
        "kind = \"web\"",
        "[[events]]",
        "[[tcpm]]",
        "[[ticp]]",
        "warmup",
        "rto = \"ns2\"",
        "clock_granularity",
        "initial_rto",
        "profile = \"ns2.35\"",
    ] {
        assert!(holds(needle), "no corpus input holds {needle:?}");
    }
    eprintln!("replayed {corpus} corpus inputs and {regressions} past crashes");
}
