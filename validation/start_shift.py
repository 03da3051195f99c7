"""Which checks of the one-trajectory experiments a start shift of up to one round trip moves
across their band (issue 41; docs/experiments.md, "Start shifts of the one-trajectory
experiments").

Every experiment that runs one trajectory (no ``randomness``, no ``jitter``) is run in its quick
variant over K seed replicas with a start-time jitter of one round trip of its set-up
(:class:`ccsim.experiments.base.StartJitter`), readings off, and each check's replicas are set
against its band: a check whose replicas fall on both sides of an edge is one a single
trajectory cannot judge. The registered runs are left as they are: this only measures.

    .venv/bin/python validation/start_shift.py [-k 5] [-j 2] [NAME ...] [--markdown FILE]

The round trips (ours, from each module's set-up, without queueing): dumbbell-newreno 40 ms;
ticp-fwd and ticp-rev 220 ms (bin 5's, the TICP experiments' jitter);
sat-slowstart 504 ms; the CBRAA experiments 60 ms (the 25-100 ms of cbraa-rtt's paths in between);
the TCP-M experiments 100 ms (Figure 7's longest receiver path is about 90 ms; the random graph's
and the fusion trees' round trips are longer, so a shift there is under one RTT);
xcp-rtt-fairness 40 ms (its shortest); xcp-convergence 40 ms; obp-convergence 100 ms.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path

from ccsim.experiments import REGISTRY
from ccsim.experiments.base import StartJitter, combine
from ccsim.sweep import sweep_options

#: One round trip of each one-trajectory experiment's set-up, seconds (module docstring).
ROUND_TRIP_S: dict[str, float] = {
    "dumbbell-newreno": 0.040, "ticp-fwd": 0.220, "ticp-rev": 0.220, "sat-slowstart": 0.504,
    "cbraa-vs-mathis": 0.060, "cbraa-arrivals": 0.060, "cbraa-fair": 0.060, "cbraa-rtt": 0.060,
    **{name: 0.100 for name in REGISTRY if name.startswith("tcpm-")},
    "xcp-rtt-fairness": 0.040, "xcp-convergence": 0.040, "obp-convergence": 0.100,
}


def one_trajectory() -> list[str]:
    """The registered experiments judged on one trajectory: no randomness, no jitter, no study."""
    return [n for n, e in REGISTRY.items() if not e.randomness and e.jitter is None and not e.study]


def scan(name: str, replicas: int, jobs: int) -> list[tuple[str, list[float], str, str]]:
    """Per check of ``name``: its replicas' values, its band, and "moves" when they fall on both
    sides of the band's edge, "in" or "out" when all fall on one side."""
    exp = REGISTRY[name]
    jittered = type(exp).__new__(type(exp))
    jittered.__dict__.update(exp.__dict__)
    jittered.jitter = StartJitter(ROUND_TRIP_S[name], "one round trip of the set-up (validation/start_shift.py)")
    jittered.readings = ()
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(1, replicas + 1):
            with sweep_options(replica=k):
                runs.append(jittered.run(Path(tmp) / f"r{k}", quick=True, jobs=jobs).checks)
    out = []
    for c in combine(runs):
        if not c.banded:
            continue
        inside = [c.contains(x) for x in c.samples if not math.isnan(x)]
        verdict = "moves" if any(inside) and not all(inside) else ("in" if all(inside) else "out")
        out.append((c.name, c.samples, c.band, verdict))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="experiments (default: every one-trajectory experiment)")
    parser.add_argument("-k", type=int, default=5, help="replicas per experiment (default 5)")
    parser.add_argument("-j", type=int, default=2, help="parallel runs (default 2)")
    parser.add_argument("--markdown", type=Path, help="also write the table of checks that move to FILE")
    args = parser.parse_args(argv)
    names = args.names or one_trajectory()
    unknown = [n for n in names if n not in ROUND_TRIP_S]
    if unknown:
        print(f"start_shift: no round trip recorded for {', '.join(unknown)}", file=sys.stderr)
        return 2
    rows = ["| experiment | check | band | replicas' values | side |", "|---|---|---|---|---|"]
    for name in names:
        moved = 0
        results = scan(name, args.k, args.j)
        for check, samples, band, side in results:
            if side != "in":
                rows.append(f"| {name} | {check} | {band} | {', '.join(f'{x:.4g}' for x in samples)} | {side} |")
            moved += side == "moves"
        print(f"{name}: {moved} of {len(results)} checks move across their band "
              f"(shift up to {ROUND_TRIP_S[name] * 1e3:g} ms, {args.k} replicas)", flush=True)
    if args.markdown:
        args.markdown.write_text("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
