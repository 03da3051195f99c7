"""Sweep the delay target against CUBIC and BBR, behind a DropTail queue, DualPI2 and the
sojourn AQM; plot the Python flow's share of the bottleneck and its queueing delay."""

import copy
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import ccsim

base = ccsim.load("dumbbell.toml")
queues = {
    "droptail": "200p",
    "dualpi2": {"kind": "dualpi2"},
    "sojourn": {"kind": "python", "class": "sojourn_aqm:Sojourn", "target": 0.005},
}
targets = [0.002, 0.005, 0.01, 0.02]
specs, labels = [], []
for queue_name, queue in queues.items():
    for target in targets:
        spec = copy.deepcopy(base)
        spec["links"][3]["queue"] = queue
        spec["flows"][0]["cc"] = {"target": target}
        specs.append(spec)
        labels.append((queue_name, target))

results = ccsim.run_many(specs, progress=False)

fig, (share_ax, delay_ax) = plt.subplots(1, 2, figsize=(10, 4))
for queue_name in queues:
    rows = [(t, r) for (q, t), r in zip(labels, results) if q == queue_name]
    shares = [r.summary["flows"]["mine"]["goodput_bps"] / 20e6 for _, r in rows]
    delays = [r.summary["flows"]["mine"]["mean_delay_s"] * 1e3 for _, r in rows]
    share_ax.plot([t * 1e3 for t, _ in rows], shares, marker="o", label=queue_name)
    delay_ax.plot([t * 1e3 for t, _ in rows], delays, marker="o", label=queue_name)
share_ax.set(xlabel="delay target (ms)", ylabel="share of 20 Mbit/s", title="DelayTarget against CUBIC and BBR")
delay_ax.set(xlabel="delay target (ms)", ylabel="mean one-way delay (ms)")
share_ax.legend()
fig.tight_layout()
out = sys.argv[1] if len(sys.argv) > 1 else "sweep.png"
fig.savefig(out)
print(f"wrote {out}")
