"""The registered experiments' runs through ns-2.35: which translate, and how the two compare.

    python validation/ns2/arms.py obp-jain sat-slowstart --quick
    python validation/ns2/arms.py --all-ns2 --quick        # every experiment on an ns-2 profile

Each experiment runs as `ccsim reproduce` runs it (its timer and ns-2.35's agents applied by
`ccsim.experiments.base.run_many`); every spec it hands to the simulator is recorded and offered
to translate.py. A spec whose every part translates (its baseline arms: TCP variants over
DropTail or ns-2.35's RED, CBR) runs in ns-2.35 too, and the table gives, per flow, ccsim's and
ns-2.35's in-order goodput, timeouts and retransmissions. A spec that does not translate is
counted under the key that stopped it (a TICP session, an OBP flow, a web generator): the
report says what part of each experiment ns-2.35 can check today.

`ccsim reproduce NAME --oracle ns2` judges the experiment's checks with those runs from ns-2.35
(docs/validation.md); this script compares them flow by flow.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import tempfile
from pathlib import Path
from typing import Any


import ccsim.sweep  # noqa: E402
from ccsim.experiments import REGISTRY  # noqa: E402
from ccsim.experiments.base import NS2_AGENTS  # noqa: E402
from ccsim.ns2.oracle import Ns2Failed, ns2_available, run_ns2  # noqa: E402
from ccsim.ns2.translate import Untranslatable, generated_flows, translate  # noqa: E402


def recorded_specs(name: str, quick: bool) -> list[dict[str, Any]]:
    """The specs experiment `name` runs, as the simulator receives them."""
    specs: list[dict[str, Any]] = []
    original = ccsim.sweep.run_many

    def recording(batch: Any, *args: Any, **kwargs: Any) -> Any:
        specs.extend(dict(s) for s in batch)
        return original(batch, *args, **kwargs)

    ccsim.sweep.run_many = recording  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory(prefix="ccsim-arms-") as tmp:
            REGISTRY[name].run(Path(tmp), quick=quick, jobs=2)
    finally:
        ccsim.sweep.run_many = original  # type: ignore[assignment]
    return specs


def compare_experiment(name: str, quick: bool) -> list[str]:
    specs = recorded_specs(name, quick)
    refused: collections.Counter[str] = collections.Counter()
    rows: list[str] = []
    for i, spec in enumerate(specs):
        try:
            translate(spec, generated=[])  # the generators' flows are replayed from ccsim's run
            result = ccsim.run(spec, progress=False)
            t = translate(spec, generated=generated_flows(result))
        except Untranslatable as e:
            key, why = str(e).split(": ", 1)
            path = re.sub(r"\[[0-9]+\]", "[]", key)
            refused[f"{path}: {why[:90]}"] += 1
            continue
        ours = result.summary
        try:
            theirs, wall = run_ns2(t.tcl)
        except Ns2Failed as e:
            rows.append(f"| {name} | run {i} | ns-2 failed: {str(e)[:120]} | | | |")
            continue
        for flow in t.flows:
            c, n = ours["flows"][flow], theirs.flows[flow]
            rows.append(f"| {name} | run {i} | {flow} ({c['protocol']}) | "
                        f"{c['goodput_bps'] / 1e6:.3f} / {n['goodput_bps'] / 1e6:.3f} | "
                        f"{c['timeouts']:.0f} / {n['timeouts']:.0f} | "
                        f"{c['retransmitted_packets']:.0f} / {n['retransmitted_packets']:.0f} |")
    head = [f"{name}: {len(specs)} runs, {len(specs) - sum(refused.values())} translated"]
    head += [f"  not translated ({n}): {why}" for why, n in refused.most_common()]
    return head + rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="experiments")
    ap.add_argument("--all-ns2", action="store_true", help="every experiment on an ns-2 profile")
    ap.add_argument("--quick", action="store_true", help="the quick variants")
    args = ap.parse_args(argv)
    names = [n for n, e in REGISTRY.items() if e.timer in NS2_AGENTS] if args.all_ns2 else args.names
    unknown = [n for n in names if n not in REGISTRY]
    if unknown or not names:
        print(f"ccsim: error: names: {unknown or 'none given'} (see ccsim reproduce --list)", file=sys.stderr)
        return 2
    if not ns2_available():
        print("ccsim: error: ns-2.35 is not installed (`ns` not on PATH); apt-get install ns2", file=sys.stderr)
        return 3
    print("| experiment | run | flow | goodput Mbit/s (ccsim / ns-2) | timeouts | retransmitted |")
    print("|---|---|---|---|---|---|")
    notes = []
    for name in names:
        lines = compare_experiment(name, args.quick)
        notes += [x for x in lines if not x.startswith("|")]
        for x in lines:
            if x.startswith("|"):
                print(x, flush=True)
    print()
    print("\n".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
