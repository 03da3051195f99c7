"""The `ccsim` command line.

Exit status: 0 success, 1 internal error (a ccsim bug) or a run the machine cannot hold, 2 bad input, 3 an experiment did
not reproduce (or an emulated link that was not faithful under ``emulate --strict``), 130 interrupted; ``emulate``
otherwise returns its command's status. Errors are one line on stderr; `--traceback` shows more.
"""

from __future__ import annotations

import argparse
import signal
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any, Callable

from .cliargs import duration_seconds
from .errors import InternalError, ResourceError, SimulationError, SpecError


_MAX_FLOW_LINES = 20
_MAX_STARVED_NAMES = 10


def natural_key(name: str) -> list[Any]:
    """Sort key that orders the digits in a name by value: tcp2 before tcp10."""
    # Split on ASCII digits only: str.isdigit() also holds for "²", which int() refuses.
    return [int(part) if i % 2 else part for i, part in enumerate(re.split(r"([0-9]+)", name))]


def format_rate(bps: float) -> str:
    """A rate with a unit that shows its digits: 157 bit/s, 12.5 kbit/s, 3.2 Mbit/s."""
    for unit, scale in (("Gbit/s", 1e9), ("Mbit/s", 1e6), ("kbit/s", 1e3)):
        if bps >= scale:
            return f"{bps / scale:.3g} {unit}"
    return f"{bps:.3g} bit/s"


def flow_lines(names: list[str], goodputs: list[float], lost: list[int], greedy: list[bool] | None = None,
               arrivals: list[float] | None = None, held: list[int] | None = None) -> list[str]:
    """The summary lines of the flows: the first flows in natural order, and a line naming
    the starved ones: flows that always have data to send (``greedy``, all by default) with
    goodput under 10 % of an equal share of what those flows carry together.

    A flow whose in-order goodput shows above what arrived in the window (``arrivals``) gets
    the arrival rate beside it and the bytes held above a gap at the window's start
    (``held``), which goodput counts when they are released: the goodputs of flows sharing a
    link can then sum above its capacity, their arrivals never (docs/metrics.md)."""
    order = sorted(range(len(names)), key=lambda i: natural_key(names[i]))

    def line(i: int) -> str:
        text = f"  {names[i]:<16} goodput {goodputs[i] / 1e6:9.3f} Mbit/s"
        if arrivals is not None and round(goodputs[i] / 1e3) > round(arrivals[i] / 1e3):
            bytes_held = f"; {held[i]} B held above a gap at the window's start" if held is not None else ""
            text += f" in order ({arrivals[i] / 1e6:.3f} arrived in the window{bytes_held})"
        return f"{text}  lost {lost[i]}"

    lines = [line(i) for i in order[:_MAX_FLOW_LINES]]
    if len(names) > _MAX_FLOW_LINES:
        total = sum(goodputs)
        lines.append(f"  ... and {len(names) - _MAX_FLOW_LINES} more flows (flows.parquet has them all); "
                     f"{len(names)} flows carry {total / 1e6:.3f} Mbit/s")
    eligible = [i for i in order if greedy is None or greedy[i]]
    share = sum(goodputs[i] for i in eligible) / max(len(eligible), 1)
    starved = [names[i] for i in eligible if goodputs[i] < STARVED_SHARE * share]
    if starved:
        shown = ", ".join(starved[:_MAX_STARVED_NAMES])
        more = f" and {len(starved) - _MAX_STARVED_NAMES} more" if len(starved) > _MAX_STARVED_NAMES else ""
        lines.append(f"  starved (goodput under {STARVED_SHARE:.0%} of an equal share, "
                     f"{format_rate(share * STARVED_SHARE)}): {shown}{more}")
    return lines


def traffic_lines(traffic: dict[str, Any]) -> list[str]:
    """One line per traffic generator: web transfers started, completed and their completion
    times; voice and streaming packets sent and received."""
    lines = []
    for name in sorted(traffic, key=natural_key):
        t = traffic[name]
        if t["kind"] == "web":
            fct = (f", FCT mean {t['mean_fct_s']:.3f} s" if t.get("mean_fct_s") is not None else "")
            slow = (f", slowdown median {t['slowdown']['median']:.2f}" if t.get("slowdown") else "")
            lines.append(f"  {name:<16} web: {t['started']} transfers, {t['completed']} completed{fct}{slow}")
        else:
            lines.append(f"  {name:<16} {t['kind']}: {t['started']} sources, {t['sent_packets']} packets sent, "
                         f"{t['received_packets']} received, {format_rate(t['goodput_bps'])}")
    return lines


#: A flow is starved under this fraction of an equal share (as summary.json's aggregate.starved_flows).
STARVED_SHARE = 0.1


def _captures(path: str) -> set[str]:
    """The pcap files a scenario file asks for, read without validating it (the run does), so
    that a file of the user's with such a name is found before the run."""
    from .results import capture_file_name

    from .inputs import read_input_text

    try:
        text = read_input_text(path, "scenario")
        if "pcap" not in text:  # no capture asked for: spare parsing a large file twice
            return set()
        if Path(path).suffix.lower() == ".json":
            doc = json.loads(text)
        else:
            import tomllib

            doc = tomllib.loads(text)
        return {capture_file_name(d) for d in doc.get("output", {}).get("pcap", []) if isinstance(d, str)}
    except Exception:  # noqa: BLE001 - the run reports whatever is wrong with the file
        return set()


def _cmd_run(args: argparse.Namespace) -> int:
    from .api import run
    from .results import check_output_dir, output_lock, planned_names, prepare_output_dir

    # A bad output folder fails before the simulation, and a bad spec too (the run validates it
    # before it builds anything, and the folder made for it is removed again); the folder is
    # held from before the run to the end of the write, so a second ccsim writing it refuses.
    names = planned_names(plots=not args.no_plots, csv=args.csv) | _captures(args.scenario)
    check_output_dir(args.output, names)
    existed = Path(args.output).exists()
    out = prepare_output_dir(args.output, names)
    try:
        with output_lock(out):
            result = run(args.scenario, progress=not args.quiet)
            out = result.write(out, plots=not args.no_plots, csv=args.csv)
    except BaseException:
        # Leave no trace of a run that wrote nothing: the folder ccsim made for it.
        if not existed and out.is_dir() and not any(out.iterdir()):
            out.rmdir()
        raise
    if args.json:
        sys.stdout.write((out / "summary.json").read_text())
    elif not args.quiet:
        s = result.overview
        files = sorted(f.name for f in out.iterdir() if not f.name.startswith("."))
        print(f"wrote {out}/ ({', '.join(files)})")
        cols = result.flow_columns("name", "goodput_bps", "lost_packets", "greedy", "generator", "arrival_bps",
                                   "held_at_start_bytes")
        own = [i for i, g in enumerate(cols["generator"]) if not g]
        cols = {k: [v[i] for i in own] for k, v in cols.items()}
        for line in flow_lines(cols["name"], cols["goodput_bps"], cols["lost_packets"], cols["greedy"],
                               cols["arrival_bps"], cols["held_at_start_bytes"]):
            print(line)
        for line in traffic_lines(s.get("traffic", {})):
            print(line)
        changes = s.get("topology", [])
        if changes:
            links = sum(1 for c in changes if c["what"] in ("link", "node"))
            routes = sum(1 for c in changes if c["what"] == "routes")
            print(f"  topology: {links} state changes, {routes} route recomputations (summary.json has them)")
        for name, t in s.get("ticp", {}).items():
            done = f"done in {t['duration_s']:.2f} s" if t["duration_s"] is not None else "incomplete"
            print(f"  ticp {name:<11} {t['reports_received']}/{t['reports_expected']} reports, {done}, "
                  f"{t['rounds']} rounds")
        for name, m in s.get("tcpm", {}).items():
            rate = f"{m['throughput_bps'] / 1e6:.3g} Mbit/s" if m["throughput_bps"] is not None else "no data phase"
            done = f"closed at {m['completion_s']:.2f} s" if m["completion_s"] is not None else "not closed"
            failed = f", failed: {', '.join(m['failed'])}" if m["failed"] else ""
            print(f"  tcpm {name:<11} {rate}, {len(m['completed'])} receivers completed, {done}{failed}")
        jain = s["fairness"]["jain"]
        r = s["run"]
        n_flows = len(cols["name"])
        fairness = (f"  Jain {jain:.4f}" if jain is not None
                    else "  Jain undefined (no flow got any goodput)" if n_flows
                    else "  (no flows)" if not (s.get("ticp") or s.get("tcpm")) else " ")
        print(fairness, f"| {r['events']} events in {r['wall_seconds']:.2f} s ({r['events_per_second'] / 1e6:.1f} M/s)")
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    from .spec import validate

    spec = validate(args.scenario)
    if args.print:
        from . import _ccsim

        # Every key, defaults included: the canonical form the hash is taken of leaves the
        # defaults out.
        print(_ccsim.full_spec(json.dumps(spec)))
    elif not args.quiet:
        parts = [f"{len(spec['links'])} links", f"{len(spec['flows'])} flows"]
        for key, what in (("ticp", "TICP sessions"), ("tcpm", "TCP-M sessions"), ("traffic", "traffic generators"), ("events", "events")):
            if spec.get(key):
                parts.append(f"{len(spec[key])} {what}")
        print(f"{args.scenario}: ok ({', '.join(parts)})")
    return 0


def _cmd_flows(args: argparse.Namespace) -> int:
    from .api import flow_file

    text = flow_file(args.scenario, args.traffic)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    out = Path(args.output)
    if out.exists() or out.is_symlink():
        raise SpecError(f"{out} exists; ccsim flows never replaces a file: choose another name", "--output")
    if not out.parent.is_dir():
        raise SpecError(f"cannot write {out}: {out.parent} is not a folder", "--output")
    from .results import atomic_write_text

    atomic_write_text(out, text)
    if not args.quiet:
        print(f"{out}: {text.split(chr(10), 1)[0]} flows")
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    from . import _ccsim

    print(_ccsim.schema())
    return 0


def _cmd_emulate(args: argparse.Namespace) -> int:
    from .emulate import emulate

    return emulate(args.link, list(args.cmd), server=args.server, out=args.output, strict=args.strict,
                   quiet=args.quiet, drain_s=duration_seconds(args.drain, "--drain"),
                   grace_s=duration_seconds(args.grace, "--grace"))


def _cmd_real(args: argparse.Namespace) -> int:
    from .real import real, ticp_collect, ticp_source

    if args.role == "ticp":
        from .real import parse_binning, ticp_landmark

        if args.ticp_role == "landmark":
            return ticp_landmark(args.listen, quiet=args.quiet)
        binning = parse_binning(args.landmarks, args.bin_thresholds, args.probes, args.binning_phase)
        if args.ticp_role == "collect":
            allotted = None if args.allotted is None else duration_seconds(args.allotted, "--allotted")
            return ticp_collect(args.sources, args.key_file, bind=args.listen, out=args.output, rs=args.rs,
                                request_size=args.request_size,
                                initial_timeout_s=duration_seconds(args.initial_timeout, "--initial-timeout"),
                                allotted_s=allotted, timeout_s=duration_seconds(args.timeout, "--timeout"),
                                binning=binning, quiet=args.quiet)
        return ticp_source(args.ids, args.key_file, bind=args.listen, report_file=args.report_file,
                           report_command=args.report_command, report_size=args.report_size,
                           request_size=args.request_size, idle_end_s=duration_seconds(args.idle_end, "--idle-end"),
                           first_request_timeout_s=duration_seconds(args.first_request_timeout, "--first-request-timeout"),
                           out=args.output, collector=args.collector, binning=binning, quiet=args.quiet)
    if args.role == "send":
        return real("send", args.scenario, bind=args.bind, to=args.to, flow=args.flow, out=args.output,
                    quiet=args.quiet)
    return real("recv", args.scenario, bind=args.listen, flow=args.flow, out=args.output,
                idle_end_s=duration_seconds(args.idle_end, "--idle-end"),
                first_arrival_timeout_s=duration_seconds(args.first_arrival_timeout, "--first-arrival-timeout"),
                quiet=args.quiet)


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import bench

    names = args.names or bench.names(large=args.large)
    known = bench.names(large=True)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SpecError(f"unknown benchmark {unknown[0]!r} (known: {', '.join(known)})", "bench")
    engine = [n for n in names if n not in bench.SETUP_BENCHMARKS and n != bench.QUEUE_BENCHMARK
              and n not in bench.LARGE_FLOW_BENCHMARKS]
    if not args.json and engine:
        print(f"{'scenario':<16}{'events/s':>14}{'packets/s':>14}{'wall s':>9}{'peak RSS':>11}{'(sim part)':>12}")
    whole: dict[str, float] = {}
    for name in names:
        r = bench.run_isolated(name)
        whole[name] = r["process_seconds"]
        if args.json:
            print(json.dumps(r), flush=True)
        elif name == bench.QUEUE_BENCHMARK:
            for row in r["rows"]:
                print(f"{name}: {row['pending']} pending, M pops/s: the simulation's queue "
                      f"{row['queue_ops_per_second'] / 1e6:.1f}, radix heap {row['radix_ops_per_second'] / 1e6:.1f}, "
                      f"binary heap {row['heap_ops_per_second'] / 1e6:.1f}", flush=True)
        elif name in bench.LARGE_FLOW_BENCHMARKS:
            print(f"{name}: {r['flows']} SACK flows; whole ccsim run {r['whole_seconds']:.1f} s, peak RSS "
                  f"{r['peak_rss_bytes'] / 2**20:.0f} MB; spec path (parse, validate, build) "
                  f"{r['spec_path_seconds']:.2f} s; engine {r['events'] / 1e6:.1f} M events in "
                  f"{r['engine_seconds']:.2f} s ({r['events_per_second'] / 1e6:.2f} M/s)", flush=True)
        elif name in bench.SETUP_BENCHMARKS:
            print(f"{name}: {r['flows']} flows; parse+validate+build {r['setup_seconds']:.2f} s, run "
                  f"{r['run_seconds']:.2f} s (of which build + simulation {r['sim_wall_seconds']:.2f} s), write "
                  f"{r['write_seconds']:.2f} s, peak RSS {r['peak_rss_bytes'] / 2**20:.0f} MB, files "
                  f"{sum(r['output_bytes'].values()) / 2**20:.1f} MB", flush=True)
        elif name in bench.DATACENTER_BENCHMARKS:
            print(f"{name:<16}{r['events_per_second'] / 1e6:>12.2f} M{r['packets_per_second'] / 1e6:>12.2f} M"
                  f"{r['wall_seconds']:>9.2f}{r['peak_rss_bytes'] / 2**20:>9.0f} MB; "
                  f"{r['sim_seconds_per_wall_second'] * 1e3:.3g} sim ms per wall s, {r['flows_started']} flows "
                  f"({r['flows_completed']} completed, {r['alone_runs']} alone runs)", flush=True)
        else:
            print(f"{name:<16}{r['events_per_second'] / 1e6:>12.2f} M{r['packets_per_second'] / 1e6:>12.2f} M"
                  f"{r['wall_seconds']:>9.2f}{r['peak_rss_bytes'] / 2**20:>9.0f} MB"
                  f"{max(0, r['peak_rss_bytes'] - r['baseline_rss_bytes']) / 2**20:>9.0f} MB", flush=True)
    for name, (native, protocol, _) in bench.PYTHON_BENCHMARKS.items():
        if name in whole and native in whole and not args.json:
            print(f"{name}: {protocol} in Python takes {whole[name] / whole[native]:.2f} times {native}'s "
                  f"whole-process time ({whole[name]:.2f} s against {whole[native]:.2f} s)", flush=True)
    return 0


def _cmd_reproduce(args: argparse.Namespace) -> int:
    from .experiments.base import STUDY

    from .experiments import REGISTRY

    if args.list or (not args.names and not args.all):
        for name, e in REGISTRY.items():
            print(f"{name:<22} {e.title}")
        return 0
    if args.no_cache and args.cache is not None:
        raise SpecError("give --cache DIR or --no-cache, not both", "reproduce")
    if args.all and args.names:
        raise SpecError("give experiment names or --all, not both", "reproduce")
    unknown = [n for n in args.names if n not in REGISTRY]
    if unknown:
        raise SpecError(f"unknown experiment {unknown[0]!r} (known: {', '.join(REGISTRY)})", "reproduce")
    names = list(REGISTRY) if args.all else list(dict.fromkeys(args.names))
    from .cache import ResultCache
    from .reproduce import reproduce

    from .results import check_output_dir

    check_output_dir(args.output)  # a bad output folder is refused before anything is printed or run
    cache = None if args.no_cache else ResultCache(args.cache)
    if not args.quiet and len(names) == 1:
        exp = REGISTRY[names[0]]
        print(f"{exp.name}: {exp.title_for(args.quick)}{' (quick)' if args.quick else ''}", file=sys.stderr)

    def echo(line: str) -> None:
        print(line, flush=True)

    start = time.perf_counter()
    outcomes = reproduce([REGISTRY[n] for n in names], args.output, quick=args.quick, jobs=args.jobs,
                         seeds=args.seeds, cache=cache, scheduler=args.scheduler, progress=not args.quiet,
                         keep_going=len(names) > 1, echo=None if len(names) == 1 else echo,
                         include_machine=args.include_machine, oracle=args.oracle)
    if len(names) == 1:
        if not args.quiet:
            print((Path(args.output) / names[0] / "table.md").read_text().partition("\n\n")[2], end="")
        print(outcomes[0].line(Path(args.output)))
    else:
        counts = {v: sum(o.verdict == v for o in outcomes) for v in ("reproduced", "not reproduced", "inconclusive",
                                                                      "failed", STUDY)}
        print(f"{len(outcomes)} experiments in {time.perf_counter() - start:.1f} s: "
              + ", ".join(f"{n} {v}" for v, n in counts.items() if n)
              + f"; report: {Path(args.output) / 'index.html'}")
    if any(o.status != "ran" for o in outcomes):
        return 1
    return 0 if all(o.verdict in ("reproduced", STUDY) for o in outcomes) else 3


def _cmd_topology(args: argparse.Namespace) -> int:
    from . import topology

    def given(*names: str) -> dict[str, Any]:
        return {n: getattr(args, n) for n in names if getattr(args, n, None) is not None}

    try:
        if args.shape == "dumbbell":
            graph = topology.dumbbell(args.pairs, **given("access_rate", "access_delay", "access_queue",
                                                          "bottleneck_rate", "bottleneck_delay", "bottleneck_queue"))
        elif args.shape == "parking-lot":
            hop_rates: dict[int, str] = {}
            for item in args.hop_rate or []:
                index, eq, rate = item.partition("=")
                if not eq or not index.strip().isascii() or not index.strip().isdigit():
                    raise SpecError(f"expected HOP=RATE such as 3=50Mbps, found {item!r}", "--hop-rate")
                hop_rates[int(index)] = rate.strip()
            graph = topology.parking_lot(args.bottlenecks, hop_rates=hop_rates, cross=not args.no_cross,
                                         **given("rate", "delay", "queue", "access_rate", "access_delay",
                                                 "access_queue"))
        elif args.shape == "binary-tree":
            graph = topology.binary_tree(args.depth, **given("rate", "delay", "queue", "delay_max", "seed"))
        elif args.shape == "fat-tree":
            graph = topology.fat_tree(args.k, **given("rate", "delay", "queue", "host_rate", "host_delay",
                                                      "host_queue", "oversubscription"))
        elif args.shape == "leaf-spine":
            graph = topology.leaf_spine(args.leaves, args.spines, args.hosts,
                                        **given("rate", "delay", "queue", "host_rate", "host_delay", "host_queue"))
        elif args.shape == "meta-fabric":
            graph = topology.meta_fabric(**given("pods", "racks", "hosts", "fabrics", "spines", "rate", "delay", "queue",
                                                 "host_rate", "host_delay", "host_queue"))
        else:
            method = int(args.method) if args.method is not None and args.method.isdigit() else args.method
            options = given("scale", "alpha", "beta", "seed", "rate", "queue", "reachable_from")
            if args.delay_per_unit is not None:
                options["ms_per_unit"] = duration_seconds(args.delay_per_unit, "--delay-per-unit") * 1e3
            if method is not None:
                options["method"] = method
            graph = topology.waxman(args.nodes, **options)
        if args.run_seed is not None and not 0 <= args.run_seed < 2**64:
            raise SpecError(f"expected a whole number from 0 to {2**64 - 1}, found {args.run_seed}", "--run-seed")
        run = given("duration") | ({"seed": args.run_seed} if args.run_seed is not None else {})
        if args.output is None:
            sys.stdout.write(topology.to_toml(graph, **run))
            return 0
        path = topology.write(graph, args.output, force=args.force, **run)
    except SpecError as e:
        # Generator arguments are named as the command line spells them.
        if e.path and re.fullmatch(r"[a-z_]+", e.path) and e.path not in ("output", "graph", "hop_rates"):
            raise SpecError(e.message, "--" + e.path.replace("_", "-")) from None
        if e.path == "hop_rates":
            raise SpecError(e.message, "--hop-rate") from None
        if e.path and e.path.startswith("hop_rates["):
            raise SpecError(e.message, "--hop-rate " + e.path[len("hop_rates["):-1]) from None
        raise
    if not args.quiet:
        linked = sum(1 for v in graph.nodes if graph.degree(v) > 0)
        print(f"wrote {path} ({args.shape}: {linked} nodes, {graph.number_of_edges()} links; add [[flows]] to it)")
    return 0


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, found {value}")
    return value


def _version() -> str:
    from . import _ccsim

    return f"{_ccsim.__version__} ({_ccsim.build_profile} build)"


def build_parser() -> argparse.ArgumentParser:
    from .emulate import DRAIN_S, GRACE_S

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--traceback", action="store_true", default=argparse.SUPPRESS,
                        help="show Python tracebacks on errors")
    p = argparse.ArgumentParser(prog="ccsim", description="ccsim: a congestion-control laboratory", parents=[common])
    p.add_argument("--version", action="version", version=f"ccsim {_version()}")
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="run a scenario file", parents=[common])
    r.add_argument("scenario", help="scenario file (TOML, or the JSON of spec.json)")
    r.add_argument("-o", "--output", metavar="DIR", default="out", help="output folder (default: out)")
    r.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary lines")
    r.add_argument("--json", action="store_true",
                   help="print summary.json's content on standard output instead of the summary lines")
    r.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    r.add_argument("--csv", action="store_true", help="also write series.csv")
    r.set_defaults(func=_cmd_run)

    v = sub.add_parser("validate", help="check a scenario file without running it", parents=[common])
    v.add_argument("scenario", help="scenario file (TOML, or the JSON of spec.json)")
    v.add_argument("--print", action="store_true",
                   help="print the whole spec as JSON, every key with its value (defaults included)")
    v.add_argument("-q", "--quiet", action="store_true", help="no line when the file is valid (the exit status says)")
    v.set_defaults(func=_cmd_validate)

    fl = sub.add_parser("flows", parents=[common],
                        help="write the flows a workload generator starts, in HPCC's flow-file format")
    fl.add_argument("scenario", help="scenario file (TOML, or the JSON of spec.json)")
    fl.add_argument("--traffic", metavar="NAME", help="the flows generator (needed if there are several)")
    fl.add_argument("-o", "--output", metavar="FILE", help="file to write, never replaced (default: print it)")
    fl.add_argument("-q", "--quiet", action="store_true", help="no line naming the file written")
    fl.set_defaults(func=_cmd_flows)

    s = sub.add_parser("schema", help="print the JSON Schema of scenario files", parents=[common])
    s.set_defaults(func=_cmd_schema)

    b = sub.add_parser("bench", help="run the engine benchmark", parents=[common])
    b.add_argument("names", nargs="*", help="benchmarks to run (default: all but the large ones)")
    b.add_argument("--large", action="store_true",
                   help="also the large benchmarks: obp-parking-flows' 1000-flow point (minutes each)")
    b.add_argument("--json", action="store_true", help="one JSON object per line")
    b.set_defaults(func=_cmd_bench)

    e = sub.add_parser("reproduce", help="run registered experiments and write their report", parents=[common],
                       description="Run experiments over their seed replicas; write each one's folder, and "
                                   "DIR/index.html, the report of them all (docs/experiments.md).")
    e.add_argument("names", nargs="*", metavar="NAME", help="experiments (see --list)")
    e.add_argument("--all", action="store_true", help="every registered experiment")
    e.add_argument("--list", action="store_true", help="list the experiments")
    e.add_argument("--quick", action="store_true", help="the reduced variants (seconds each)")
    e.add_argument("-o", "--output", metavar="DIR", default="out", help="output folder (default: out)")
    e.add_argument("-j", "--jobs", type=_positive_int, default=None, help="parallel runs (default: all cores)")
    e.add_argument("--seeds", type=_positive_int, default=None, metavar="K",
                   help="seed replicas of each experiment (default: each experiment's own; 1 for those "
                        "that no seed changes)")
    e.add_argument("--cache", metavar="DIR", default=None,
                   help="result cache folder (default: $CCSIM_CACHE_DIR, else ~/.cache/ccsim)")
    e.add_argument("--no-cache", action="store_true", help="run every spec, read and store nothing")
    e.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run on a Dask cluster, e.g. tcp://host:8786 (default: the local cores)")
    e.add_argument("--include-machine", action="store_true",
                   help="record the host name, the full platform, the cache folder and the scheduler's host in "
                        "reproduce.json and the report (left out by default: the report is written to be mailed)")
    e.add_argument("--oracle", choices=["ns2"], default=None,
                   help="also run each experiment of an ns-2 paper with every run that translates run by ns-2.35 "
                        "(Debian's ns2), and give each check ns-2.35's value and verdict beside ccsim's "
                        "(docs/validation.md)")
    e.add_argument("-q", "--quiet", action="store_true", help="no progress bar or verdict lines")
    e.set_defaults(func=_cmd_reproduce)
    em = sub.add_parser("emulate", help="run a command across a link emulated by ccsim (root, namespaces, TUN)",
                        parents=[common],
                        description="Run CMD in a client network namespace whose packets to and from a server "
                                    "namespace cross LINK.toml's link, emulated in real time by ccsim's own link "
                                    "and queue code (docs/real-networks.md). The server's address is in "
                                    "CCSIM_SERVER. The exit status is CMD's.")
    em.add_argument("link", metavar="LINK.toml",
                    help='one [[links]] entry, between = ["client", "server"], with the usual keys')
    em.add_argument("-o", "--output", metavar="DIR", default=None, help="write DIR/summary.json")
    em.add_argument("--server", metavar="CMD", default=None,
                    help="a shell command started in the server namespace first (e.g. \"iperf3 -s\")")
    em.add_argument("--strict", action="store_true",
                    help="exit with status 3 when a direction's p99 release lateness exceeds a tenth of one "
                         "1500-byte packet time")
    em.add_argument("--drain", metavar="DURATION", default=f"{DRAIN_S:g}s",
                    help="after CMD exits, keep the link running until it is empty and quiet, at most this "
                         f"long, so that what CMD wrote is delivered (default: {DRAIN_S:g}s)")
    em.add_argument("--grace", metavar="DURATION", default=f"{GRACE_S:g}s",
                    help=f"then give the server this long to exit on its own before SIGTERM (default: {GRACE_S:g}s)")
    em.add_argument("-q", "--quiet", action="store_true", help="no per-direction lines")
    em.add_argument("cmd", nargs="*", metavar="CMD", help="the client command and its arguments, after --")
    em.set_defaults(func=_cmd_emulate)
    _add_real_parser(sub, common)
    _add_topology_parser(sub, common)
    return p


def _add_real_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    from .real import FIRST_ARRIVAL_TIMEOUT_S, IDLE_END_S

    r = sub.add_parser("real", help="run one end of a scenario's flow over real UDP sockets", parents=[common],
                       description="Run the sender or the receiver of one flow of a scenario file over real UDP "
                                   "sockets: the agent the simulator would run, with a real clock and network "
                                   "(docs/real-networks.md). Start the receiver first.")
    roles = r.add_subparsers(dest="role", required=True, metavar="ROLE")
    out = argparse.ArgumentParser(add_help=False)
    out.add_argument("scenario", metavar="SCENARIO", help="a scenario file (TOML or .json) with the flow")
    out.add_argument("--flow", metavar="NAME", default=None, help="the flow to run (needed if the file has several)")
    out.add_argument("-o", "--output", metavar="DIR", default=None, help="write DIR/summary.json and DIR/series.parquet")
    out.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    s = roles.add_parser("send", parents=[common, out], help="run the flow's sender, sending to --to")
    s.add_argument("--to", metavar="ADDR:PORT", required=True, help="the receiver's IPv4 address and port")
    s.add_argument("--bind", metavar="ADDR:PORT", default="0.0.0.0:0",
                   help="the local address and port (default: any, a free port)")
    v = roles.add_parser("recv", parents=[common, out], help="run the flow's receiver on --listen")
    v.add_argument("--listen", metavar="ADDR:PORT", required=True, help="the local IPv4 address and port to bind")
    v.add_argument("--idle-end", metavar="DURATION", default=f"{IDLE_END_S:g}s",
                   help=f"end after this long without a datagram (default: {IDLE_END_S:g}s)")
    v.add_argument("--first-arrival-timeout", metavar="DURATION", default=f"{FIRST_ARRIVAL_TIMEOUT_S:g}s",
                   help=f"end if nothing arrives within this long (default: {FIRST_ARRIVAL_TIMEOUT_S:g}s)")
    for p in (s, v):
        p.set_defaults(func=_cmd_real)
    t = roles.add_parser("ticp", parents=[common], help="TICP: collect one report from each of many sources",
                         description="TICP (Barakat, Malli and Nonaka 2006) over UDP: a collector asks many "
                                     "sources for one report each, at a TCP-friendly rate, with authenticated "
                                     "reports (docs/real-networks.md).")
    ticp = t.add_subparsers(dest="ticp_role", required=True, metavar="ROLE")
    shared = argparse.ArgumentParser(add_help=False)
    shared.add_argument("--key-file", metavar="KEY", required=True,
                        help="the secret the collector and the sources share (at least 16 bytes)")
    shared.add_argument("--request-size", metavar="BYTES", type=int, default=64,
                        help="bytes of a request packet on the wire (default: 64)")
    shared.add_argument("-o", "--output", metavar="DIR", default=None, help="write DIR/summary.json (and reports)")
    shared.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    shared.add_argument("--landmarks", metavar="ADDR:PORT,...", default=None,
                        help="landmark binning (TICP section III.1): the landmarks, the same list at the "
                             "collector and every source")
    shared.add_argument("--bin-thresholds", metavar="DURATIONS", default="100ms,200ms",
                        help="round-trip level thresholds, ascending (default: 100ms,200ms)")
    shared.add_argument("--probes", type=int, default=3, help="probes per landmark (default: 3)")
    shared.add_argument("--binning-phase", metavar="DURATION", default="2s",
                        help="the binning phase before the session (default: 2s)")
    c = ticp.add_parser("collect", parents=[common, shared], help="run a collection session")
    c.add_argument("--sources", metavar="FILE", required=True,
                   help="one source host per line: ADDR:PORT FIRST-LAST (the IDs it serves, from 0, in order)")
    c.add_argument("--listen", metavar="ADDR:PORT", default="0.0.0.0:0", help="the local address (default: any)")
    c.add_argument("--rs", type=int, default=1, help="RS, the window's floor in request messages (default: 1)")
    c.add_argument("--initial-timeout", metavar="DURATION", default="3s",
                   help="the retransmission timer before the first round-trip sample (default: 3s, the paper's)")
    c.add_argument("--allotted", metavar="DURATION", default=None,
                   help="end the session this long after it began, complete or not")
    c.add_argument("--timeout", metavar="DURATION", default="3600s",
                   help="end the run after this long whatever happens (default: 3600s)")
    o = ticp.add_parser("source", parents=[common, shared], help="answer a collector for a block of source IDs")
    o.add_argument("--listen", metavar="ADDR:PORT", required=True, help="the local address the collector sends to")
    o.add_argument("--ids", metavar="FIRST-LAST", required=True, help="the source IDs served, e.g. 0-999")
    o.add_argument("--report-file", metavar="FILE", default=None, help="each report is this file's bytes")
    o.add_argument("--report-command", metavar="CMD", default=None,
                   help="each report is this shell command's output (CCSIM_SOURCE_ID in its environment)")
    o.add_argument("--report-size", metavar="BYTES", type=int, default=1000,
                   help="bytes of a report datagram on the wire; longer contents are cut (default: 1000)")
    o.add_argument("--idle-end", metavar="DURATION", default="10s",
                   help="end after this long without a request (default: 10s)")
    o.add_argument("--first-request-timeout", metavar="DURATION", default="300s",
                   help="end if no request arrives within this long (default: 300s)")
    o.add_argument("--collector", metavar="ADDR:PORT", default=None,
                   help="the collector's address (with --landmarks: the host registers its bin there)")
    lm = ticp.add_parser("landmark", parents=[common], help="answer TICP binning probes")
    lm.add_argument("--listen", metavar="ADDR:PORT", required=True, help="the local address")
    lm.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    for p in (c, o, lm):
        p.set_defaults(func=_cmd_real)


def _add_topology_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    t = sub.add_parser("topology", help="write a scenario file with a generated topology ([run] and [[links]])",
                       parents=[common],
                       description="Write the [run] and [[links]] of a generated topology (docs/topology.md); "
                                   "add [[flows]] to the file and run it.")
    shapes = t.add_subparsers(dest="shape", required=True, metavar="SHAPE")
    out = argparse.ArgumentParser(add_help=False)
    out.add_argument("-o", "--output", metavar="FILE", help="scenario file to write (default: print it)")
    out.add_argument("--force", action="store_true", help="replace a file that ccsim topology wrote")
    out.add_argument("--duration", metavar="DURATION", help="the run's duration (default: 60s)")
    out.add_argument("--run-seed", type=int, help="the run's seed (default: the topology's --seed, else 1)")
    out.add_argument("-q", "--quiet", action="store_true", help="no line naming the file written")

    def link_options(p: argparse.ArgumentParser, prefix: str, what: str) -> None:
        p.add_argument(f"--{prefix}rate", help=f"rate of {what}")
        p.add_argument(f"--{prefix}delay", help=f"one-way delay of {what}")
        p.add_argument(f"--{prefix}queue", help=f"queue limit of {what}")

    d = shapes.add_parser("dumbbell", parents=[common, out], help="n sender-receiver pairs across one bottleneck")
    d.add_argument("--pairs", type=int, required=True, help="sender-receiver pairs (s1..sn, d1..dn)")
    link_options(d, "access-", "each access link (defaults: 100Mbps, 1ms, 1000p)")
    link_options(d, "bottleneck-", "the bottleneck r1-r2 (defaults: 10Mbps, 20ms, 100p)")

    pl = shapes.add_parser("parking-lot", parents=[common, out], help="a chain of k bottlenecks with cross traffic")
    pl.add_argument("--bottlenecks", type=int, required=True, help="bottleneck links (routers r1..r(k+1))")
    link_options(pl, "", "each bottleneck (defaults: 10Mbps, 10ms, 100p)")
    pl.add_argument("--hop-rate", action="append", metavar="HOP=RATE",
                    help="rate of one bottleneck, numbered from 1 (repeatable: --hop-rate 5=50Mbps)")
    pl.add_argument("--no-cross", action="store_true", help="no cross-traffic hosts (only s0 and d0)")
    link_options(pl, "access-", "each host's link (defaults: 100Mbps, 1ms, 1000p)")

    bt = shapes.add_parser("binary-tree", parents=[common, out], help="the complete binary tree of a depth")
    bt.add_argument("--depth", type=int, required=True, help="levels, the root alone being 1 (6: 63 nodes)")
    link_options(bt, "", "each link (defaults: 10Mbps, 1ms, 100p)")
    bt.add_argument("--delay-max", help="draw each link's delay uniformly from [--delay, --delay-max]")
    bt.add_argument("--seed", type=int, help="seed of the random delays (default: 1)")

    ft = shapes.add_parser("fat-tree", parents=[common, out],
                           help="the k-ary fat-tree of a datacenter (k pods; hosts h0..h<N-1>)")
    ft.add_argument("--k", type=int, required=True, help="the arity, even: k pods, (k/2)^2 cores, k^3/4 hosts")
    ft.add_argument("--rate", help="rate of each switch link (default: 100Gbps)")
    ft.add_argument("--delay", help="one-way delay of each switch link (default: 1us)")
    ft.add_argument("--queue", help="queue limit of each switch link (default: 100p)")
    link_options(ft, "host-", "each host's link (default: the switch links')")
    ft.add_argument("--oversubscription", type=int,
                    help="hosts per edge switch over its k/2 uplinks (default: 1, full bisection bandwidth)")

    ls = shapes.add_parser("leaf-spine", parents=[common, out],
                           help="leaves each joined to every spine, hosts on the leaves (h0..h<N-1>)")
    ls.add_argument("--leaves", type=int, required=True, help="leaf switches (l0..)")
    ls.add_argument("--spines", type=int, required=True, help="spine switches (s0..)")
    ls.add_argument("--hosts", type=int, required=True, help="hosts per leaf")
    link_options(ls, "", "each leaf-spine link (defaults: 100Gbps, 1us, 100p)")
    link_options(ls, "host-", "each host's link (default: the fabric's)")

    mf = shapes.add_parser("meta-fabric", parents=[common, out],
                           help="Meta's fabric as Parsimon runs it: pods x racks x hosts (h0..h<N-1>)")
    mf.add_argument("--pods", type=int, help="pods (default: 8)")
    mf.add_argument("--racks", type=int, help="racks per pod, one ToR each (default: 48)")
    mf.add_argument("--hosts", type=int, help="hosts per rack (default: 16)")
    mf.add_argument("--fabrics", type=int, help="fabric switches per pod, and spine planes (default: 4)")
    mf.add_argument("--spines", type=int, help="spine switches per plane (default: 48)")
    link_options(mf, "", "each switch link (defaults: 10Gbps, 1us, 100p)")
    link_options(mf, "host-", "each host's link (default: the switch links')")

    w = shapes.add_parser("waxman", parents=[common, out], help="a GT-ITM random graph (Waxman RG1/RG2, pure random)")
    w.add_argument("--nodes", type=int, required=True, help="nodes (n0..n(N-1))")
    w.add_argument("--scale", type=int, help="side of the integer grid (default: 100)")
    w.add_argument("--method", help="GT-ITM edge method: 2 or rg1 (default), 1 or rg2, 3 or random")
    w.add_argument("--alpha", type=float, help="GT-ITM alpha, the largest edge probability (default: 0.4)")
    w.add_argument("--beta", type=float, help="GT-ITM beta, the distance scale (default: 0.1)")
    w.add_argument("--seed", type=int, help="seed (default: 1)")
    w.add_argument("--delay-per-unit", metavar="DURATION", help="link delay per grid unit of length (default: 1ms)")
    w.add_argument("--rate", help="rate of each link (default: 10Mbps)")
    w.add_argument("--queue", help="queue limit of each link (default: 100p)")
    w.add_argument("--reachable-from", metavar="NODE", help="keep only the nodes reachable from NODE (e.g. n0)")
    for shape in (d, pl, bt, ft, ls, mf, w):
        shape.set_defaults(func=_cmd_topology)


def main(argv: list[str] | None = None) -> int:
    from . import _ccsim

    argv = sys.argv[1:] if argv is None else list(argv)
    # `ccsim emulate LINK.toml [options] -- CMD ARGS`: what follows the first "--" is the
    # client command, whatever options it has (argparse would read them as ccsim's).
    command_tail: list[str] | None = None
    if "--" in argv and "emulate" in argv[: argv.index("--")]:
        cut = argv.index("--")
        argv, command_tail = argv[:cut], argv[cut + 1:]
    try:
        _ccsim._install_abort_handler()  # a failed allocation ends in a ccsim line and status 1
        args = build_parser().parse_args(argv)
        if command_tail is not None and getattr(args, "func", None) is _cmd_emulate:
            args.cmd = [*args.cmd, *command_tail]
    except KeyboardInterrupt:
        print("ccsim: interrupted", file=sys.stderr)
        return 130
    args.traceback = getattr(args, "traceback", False)
    if not args.traceback:
        # Rust prints a stack trace before aborting on a failed allocation when this is set.
        os.environ["RUST_BACKTRACE"] = "0"
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except SpecError as e:
        if args.traceback:
            raise
        print(f"ccsim: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ccsim: interrupted", file=sys.stderr)
        return 130
    except SimulationError as e:
        if args.traceback:
            raise
        print(f"ccsim: error: {e}", file=sys.stderr)
        return 1
    except ResourceError as e:
        if args.traceback:
            raise
        print(f"ccsim: error: {e}", file=sys.stderr)
        return 1
    except InternalError as e:
        if args.traceback:
            raise
        print(f"ccsim: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`ccsim validate --print | head -1`): end quietly, as a shell's
        # tools do, with SIGPIPE's status; Python's own flush at exit must not complain again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except OSError as e:
        # The machine's refusal (a full disk, a forbidden folder), not a ccsim bug.
        if args.traceback:
            raise
        from .errors import describe_os_error

        print(f"ccsim: error: {describe_os_error(e, None)}", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - the CLI's last line of defence
        if args.traceback:
            raise
        print(f"ccsim: internal error: {type(e).__name__}: {e} (run with --traceback and please report)",
              file=sys.stderr)
        return 1


def entry() -> Any:
    try:
        code = main()
    except KeyboardInterrupt:  # between main's own handlers, e.g. while it returns
        print("ccsim: interrupted", file=sys.stderr)
        code = 130
    # The work is done and reported: a Ctrl-C from here on (flushing output, shutting the
    # interpreter down) changes nothing, so it must not turn the status into death by SIGINT.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)


if __name__ == "__main__":
    entry()
