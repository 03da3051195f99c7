"""Writes cellular-2s.trace: a synthetic mahimahi trace (not a recording) whose rate changes
every 100 ms, 2.4 to 14 Mbit/s, 2 s long; seeded, so the file is reproducible."""
import random
from pathlib import Path

rng = random.Random(29)
lines: list[int] = []
slots = [rng.choice([2, 3, 5, 8, 12, 6, 4]) for _ in range(20)]  # opportunities per 10 ms
for s, per_10ms in enumerate(slots):
    acc = 0.0
    for ms in range(s * 100 + 1, s * 100 + 101):
        acc += per_10ms / 10 * (0.5 + rng.random())
        while acc >= 1:
            lines.append(ms)
            acc -= 1
if lines[-1] != 2000:
    lines.append(2000)
Path(__file__).with_name("cellular-2s.trace").write_text("".join(f"{t}\n" for t in lines))
