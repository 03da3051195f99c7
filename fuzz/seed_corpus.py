"""Write the seed corpus of the scenario fuzz target: the examples, one small dumbbell per
protocol and option family (TOML and JSON), so the fuzzer starts from every spec table."""

import json
import pathlib
import shutil

HERE = pathlib.Path(__file__).parent
OUT = HERE / "corpus" / "scenario"

BASE = """[run]
duration = "2s"
seed = 3
warmup = "0.5s"

[[links]]
between = ["s1", "r1"]
rate = "100Mbps"
delay = "1ms"

[[links]]
between = ["r1", "d1"]
rate = "5Mbps"
delay = "10ms"
queue = QUEUE

[[flows]]
name = "f1"
protocol = "{protocol}"
from = "s1"
to = "d1"
{extra}
[output]
interval = "0.5s"
series = ["rate", "cwnd", "queue"]
"""

CASES = {
    "newreno": ("20p", 'delayed_ack = true\ninitial_window = 4\nmax_window = 30\nmin_rto = "200ms"\n'),
    "tahoe": ("20kB", ""),
    "reno": ("20p", 'ecn = true\n'),
    "sack": ('{ kind = "red", limit = "40p", min_th = 5, max_th = 15, ecn = true }',
             'ecn = true\nsize = "200kB"\n'),
    "vegas": ("20p", "vegas = { alpha = 1, beta = 3, gamma = 1 }\n"),
    "cbr": ("20p", 'rate = "1Mbps"\npacket_size = "500B"\nstop = "1s"\n'),
    "poisson": ("20p", 'rate = "1Mbps"\n'),
    "tfrc": ("20p", "tfrc = { history_discounting = true }\n"),
    "tcp-friend": ("20p", 'report_interval = "0.2s"\ninitial_rate = "100kbps"\n'),
    "cbraa": ("20p", 'report_interval = "0.2s"\nmax_rate = "3Mbps"\n'),
    "primo": ("20p", "primo = { tau = 2.0, rcv_samples = 2 }\n"),
}

TCPM = """
[[links]]
between = ["r1", "d2"]
rate = "2Mbps"
delay = "5ms"

[[tcpm]]
name = "m"
source = "s1"
receivers = ["d1", "d2"]
protocol = "sack"
fusion = ["r1"]
size = "100kB"
rcvr_timeout = "0.5s"
tcpm_timeout = "1s"
max_duplicate = 3
options = { initial_window = 4 }

[[drops]]
flow = "m"
link = "r1->d2"
seqs = [5, 6]
"""


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for ex in sorted((HERE.parent / "examples").glob("*.toml")):
        shutil.copy(ex, OUT / f"example-{ex.stem}.toml")
    for protocol, (queue, extra) in CASES.items():
        q = queue if queue.startswith("{") else f'"{queue}"'
        text = BASE.format(protocol=protocol, extra=extra).replace("QUEUE", q)
        (OUT / f"seed-{protocol}.toml").write_text(text)
    spec = {
        "run": {"duration": "1s", "seed": 1},
        "links": [{"between": ["a", "b"], "rate": "10Mbps", "delay": "5ms", "loss": 0.01}],
        "flows": [{"name": "x", "protocol": "sack", "from": "a", "to": "b"}],
    }
    (OUT / "seed-json.json").write_text(json.dumps(spec))
    tcpm = BASE.format(protocol="vegas", extra="").replace("QUEUE", '"20p"') + TCPM
    (OUT / "seed-tcpm.toml").write_text(tcpm)


if __name__ == "__main__":
    main()
