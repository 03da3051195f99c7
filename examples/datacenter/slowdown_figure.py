"""The figure of docs/datacenter.md: FCT slowdown by flow size on the k = 8 fat-tree of
fattree-k8-websearch.toml at 30, 50 and 70 % load, each run for DURATION of simulated time.

    python examples/datacenter/slowdown_figure.py 20ms docs/datacenter-slowdown.png
"""
import json
import sys
import time
import tomllib
from pathlib import Path

import ccsim
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
doc0 = tomllib.loads(open(Path(__file__).with_name("fattree-k8-websearch.toml")).read())
fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
out = {}
for load, color in ((0.3, "tab:green"), (0.5, "tab:blue"), (0.7, "tab:red")):
    doc = json.loads(json.dumps(doc0)); doc["run"]["duration"] = sys.argv[1]; doc["traffic"][0]["load"] = load
    t = time.time(); r = ccsim.run(doc, progress=False); w = time.time() - t
    b = r.slowdown()
    tr = r.overview["traffic"]["websearch"]
    out[load] = {"wall": w, "started": tr["started"], "completed": tr["completed"], "events": r.overview["run"]["events"],
                 "p50": list(b.p50), "p99": list(b.p99), "size": list(b.max_size_bytes)}
    print(load, w, tr["started"], tr["completed"], flush=True)
    axes[0].plot(b.max_size_bytes, b.p50, marker="o", ms=3, color=color, label=f"{int(load*100)} % load")
    axes[1].plot(b.max_size_bytes, b.p99, marker="^", ms=3, color=color, label=f"{int(load*100)} % load")
for ax, what in zip(axes, ("median", "99th percentile")):
    ax.set_xscale("log"); ax.set_yscale("log"); ax.grid(True, which="both", alpha=0.3)
    ax.set_xlabel("flow size, bytes (largest of each 5 % of flows by size)")
    ax.set_title(f"{what} FCT slowdown")
axes[0].set_ylabel("FCT / FCT alone")
axes[0].legend()
fig.suptitle(f"k = 8 fat-tree, 100 Gbit/s, DCTCP over ECMP, WebSearch sizes, {sys.argv[1]} simulated")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
