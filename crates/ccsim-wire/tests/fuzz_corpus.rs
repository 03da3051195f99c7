//! Replays the `wire` fuzzer's kept corpus and every input it ever crashed on
//! (`fuzz/corpus/wire`, `fuzz/regressions/wire-*`) through the fuzz target's body,
//! `ccsim_wire::fuzzing::check`, so CI checks on each change what the fuzzer found once.

use std::path::{Path, PathBuf};

fn inputs(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("the fuzz folder {} is missing: {e}", dir.display()));
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix))
        })
        .collect();
    paths.sort();
    paths
}

fn replay(paths: &[PathBuf]) {
    for path in paths {
        let data = std::fs::read(path).expect("readable corpus file");
        let result = std::panic::catch_unwind(|| ccsim_wire::fuzzing::check(&data));
        assert!(result.is_ok(), "fuzz input {} panics", path.display());
    }
}

#[test]
fn the_fuzz_corpus_and_every_past_crash_run_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let corpus = inputs(&root.join("corpus/wire"), "");
    let regressions = inputs(&root.join("regressions"), "wire-");
    replay(&corpus);
    replay(&regressions);
    // The seeds are there: an IPv4 encoding and a private header of every sample.
    let seeds = corpus
        .iter()
        .filter(|p| p.to_string_lossy().contains("seed-"))
        .count();
    assert!(
        seeds >= 2 * ccsim_wire::fuzzing::samples().len(),
        "{seeds} seeds in the corpus"
    );
    // Every private message type has an input the decoder accepts.
    let mut types = std::collections::BTreeSet::new();
    for path in &corpus {
        let data = std::fs::read(path).expect("readable corpus file");
        if let Ok(m) = ccsim_wire::decode_private(&data) {
            types.insert(ccsim_wire::PrivateType::of(&m.header) as u8);
        }
    }
    assert_eq!(types.len(), 19, "types decoded from the corpus: {types:?}");
    eprintln!(
        "replayed {} corpus inputs and {} past crashes",
        corpus.len(),
        regressions.len()
    );
}
