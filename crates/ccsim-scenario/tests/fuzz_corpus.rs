//! Replays the scenario fuzzer's kept corpus and every input it ever crashed on
//! (`fuzz/corpus/scenario`, `fuzz/regressions`) through the fuzz target's body, so CI
//! checks on each change what the fuzzer found once.

use std::path::Path;

fn replay(dir: &Path) -> usize {
    let mut n = 0;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
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
    eprintln!("replayed {corpus} corpus inputs and {regressions} past crashes");
}
