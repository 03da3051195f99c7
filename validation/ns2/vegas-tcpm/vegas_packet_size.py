"""A side finding of the traces (README.md): translate.py's Agent/TCP/Vegas puts packets 40 B
smaller than ccsim's on the wire, and its goodput then counts them as ccsim's.

ns-2.35's `VegasTcpAgent::output` (tcp/tcp-vegas.cc lines 455-490) sends `allocpkt()`'s size,
`packetSize_`, and never adds `headersize()` as `TcpAgent::output` does (tcp/tcp.cc lines
773-774); translate.py writes packetSize_ = packet_size - 40 for every TCP agent, so a Vegas
flow of 1000 B packets is 960 B on ns-2.35's wire, and one of 80 B packets (tcpm-fusion's 40 B
segments) 40 B, while goodput is the sink's `bytes_` (wire bytes) x payload / packet_size. This
runs tcpm-fusion's unicast Vegas (the 63-node tree, its registered spec and timer) through
ccsim, through ns-2.35 as translate.py wrote it before issue 41 fixed it, and as it writes it
since (packetSize_ = packet_size; common.translated_tcl), and prints the three goodputs
(docs/validation.md: 70.0 kbit/s in ccsim, 36.3 in ns-2.35 before, 70.0 since).

    .venv/bin/python validation/ns2/vegas-tcpm/vegas_packet_size.py [--out DIR]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from common import HERE, ccsim, ns_available, run_ns2, translated_tcl

from ccsim.experiments import REGISTRY  # noqa: E402
from ccsim.experiments.base import TIMERS as EXPERIMENT_TIMERS  # noqa: E402
from ccsim.experiments.base import with_timer  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("/tmp/vegas-tcpm/packet-size"))
    args = ap.parse_args(argv)
    if not ns_available():
        print("ns (ns-2.35) is not on PATH")
        return 1
    e = REGISTRY["tcpm-fusion"]
    spec = with_timer(e.specs(True)["63-unicast"], EXPERIMENT_TIMERS[e.timer])  # type: ignore[attr-defined]
    ours = ccsim.run(spec, progress=False).summary["flows"]["unicast"]
    print("# tcpm-fusion, 63 nodes: the unicast Vegas n0 -> farthest leaf, 80 B packets (40 B of payload), 60 s\n")
    print("| run | goodput (bit/s) | data packets sent |")
    print("|---|---|---|")
    print(f"| ccsim | {ours['goodput_bps']:.1f} | {ours['sent_packets']} |")
    for fix, label in ((False, "ns-2.35, translate.py before issue 41 (packetSize_ 40: 40 B on the wire)"),
                       (True, "ns-2.35, translate.py since (packetSize_ 80: 80 B on the wire, as ccsim)")):
        tcl, _ = translated_tcl(spec, args.out, "fusion", [], vegas_wire=fix)
        name = f"tcpm-fusion-63-unicast-{'wire80' if fix else 'translate'}"
        (HERE / "scenarios").mkdir(exist_ok=True)
        (HERE / "scenarios" / f"{name}.tcl").write_text(tcl)
        result, _, _ = run_ns2(tcl, args.out / name, name)
        f = result["flow:unicast"]
        print(f"| {label} | {f['goodput_bps']:.1f} | {f['sent_packets']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
