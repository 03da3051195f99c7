"""Both traces of ccsim's ns-2-style Vegas against ns-2.35's Agent/TCP/Vegas (README.md):
tcpm-random's 50 kbit/s shortfall and failed receiver (tcpm_random.py), tcpm-reroute's rate
after the crash (tcpm_reroute.py), and the wire size of translate.py's Vegas packets
(vegas_packet_size.py). One process at a time; 6-7 s on this machine.

    .venv/bin/python validation/ns2/vegas-tcpm/run.py [--out /tmp/vegas-tcpm]

Every scenario it runs is (re)written to scenarios/: ccsim specs as JSON (`ccsim run FILE -o
DIR`), ns-2.35 scripts as Tcl (`ns FILE` in an empty folder; they write their traces there).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tcpm_random  # noqa: E402
import tcpm_reroute  # noqa: E402
import vegas_packet_size  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("/tmp/vegas-tcpm"))
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    rc = tcpm_random.main(["--out", str(args.out / "tcpm-random")])
    print()
    rc |= tcpm_reroute.main(["--out", str(args.out / "tcpm-reroute")])
    print()
    rc |= vegas_packet_size.main(["--out", str(args.out / "packet-size")])
    print(f"\n(wall {time.perf_counter() - t0:.1f} s)")
    return rc


if __name__ == "__main__":
    raise SystemExit(main())
