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
    "rto-ns2": ("20p", 'rto = "ns2"\ntick = "100ms"\ninitial_rto = "6s"\nmin_rto = "0s"\n'),
    "rto-rfc6298": ("20p", 'rto = "rfc6298"\nclock_granularity = "1ns"\nmin_rto = "200ms"\n'),
    "rto-ns3": ("20p", 'rto = "ns3"\nclock_granularity = "1ms"\n'),
    "recovery-rfc6675": ("20p", 'recovery = "rfc6675"\n'),
    "recovery-ns3": ("20p", 'recovery = "ns3"\nmax_window = 8\n'),
    "recovery-linux": ("20p", 'recovery = "linux"\nrescue_retransmission = true\n'),
    "recovery-prr": ("20p", 'prr = true\nrecovery = "rfc6675"\n'),
    "recovery-rack": ("20p", 'rack = true\ntlp = true\nsize = "300kB"\n'),
    "recovery-handshake": ("20p", 'handshake = true\nrecovery = "linux"\ntimestamps = true\npacket_size = "1052B"\n'),
    "red-ns2": ('{ kind = "red", profile = "ns2.35", limit = "25kB", ecn = true, mark_p = 0.2 }', 'ecn = true\n'),
    "tahoe": ("20kB", ""),
    "reno": ("20p", 'ecn = true\n'),
    "sack": ('{ kind = "red", limit = "40p", min_th = 5, max_th = 15, ecn = true }',
             'ecn = true\nsize = "200kB"\n'),
    "vegas": ("20p", "vegas = { alpha = 1, beta = 3, gamma = 1 }\n"),
    "vegas-ns2": ("20p", 'vegas = { variant = "ns2" }\n'),
    "cubic": ("20p", 'cubic = { beta = 0.7, c = 0.4, fast_convergence = false, reno_friendly = true }\n'),
    "cubic-hystart": ("40p", 'hystart = "rfc9406"\ninitial_window = 10\n'),
    "hystart-linux": ("20p", 'hystart = "linux"\nlimited_transmit = true\n'),
    "dctcp": ('{ kind = "step", limit = "60p", threshold = 12 }', 'delayed_ack = true\n'),
    "bbr": ("20p", 'recovery = "linux"\ninitial_window = 10\n'),
    "bbr3": ('{ kind = "step", limit = "40p", threshold = 8 }', 'ecn = true\nrecovery = "linux"\ninitial_window = 10\n'),
    "cubic-pacing": ("20p", 'pacing = true\n'),
    "cubic-accecn": ("20p", 'accecn = true\nhandshake = true\n'),
    "prague": ('{ kind = "dualpi2", limit = "100p" }', 'prague = { classic_ecn_fallback = true }\n'),
    "cbr": ("20p", 'rate = "1Mbps"\npacket_size = "500B"\nstop = "1s"\n'),
    "poisson": ("20p", 'rate = "1Mbps"\n'),
    "tfrc": ("20p", "tfrc = { history_discounting = true }\n"),
    "tcp-friend": ("20p", 'report_interval = "0.2s"\ninitial_rate = "100kbps"\n'),
    "cbraa": ("20p", 'report_interval = "0.2s"\nmax_rate = "3Mbps"\n'),
    "primo": ("20p", "primo = { tau = 2.0, rcv_samples = 2 }\n"),
    "xcp": ("20p", 'xcp = { desired_rate = "4Mbps", recovery = "reno" }\n'),
    "obp": ("20p", 'obp = { delta = 0.9, gamma = 0.09, initial_rtt = "0.5s" }\nsize = "100kB"\n'),
}

# The paths `run` adds to building: captures, web arrivals and retirements (with router
# functions), failures and rerouting, a warm-up off the packet grid, RED in byte mode.
RUN_PATHS = """[run]
duration = "2s"
seed = 5
warmup = "0.123456789s"
reroute = "instant"
obp_period = "5ms"

[[links]]
between = ["s1", "r1"]
rate = "100Mbps"
delay = "1ms"

[[links]]
between = ["r1", "d1"]
rate = "5Mbps"
delay = "10ms"
queue = { kind = "red", limit = "30kB", min_th = 5, max_th = 15, bytes = true, mean_packet_size = "1000B" }

[[links]]
between = ["s1", "d1"]
rate = "1Mbps"
delay = "30ms"
assist = false

[[flows]]
name = "f1"
protocol = "sack"
from = "s1"
to = "d1"

[[traffic]]
name = "web"
kind = "web"
protocol = "{web}"
from = ["s1"]
to = ["d1"]
arrivals = 20.0
mean_size = "20kB"
stop = "1.5s"

[[traffic]]
name = "calls"
kind = "voice"
from = ["s1"]
to = ["d1"]
count = 2

[[events]]
at = "0.7s"
link = ["r1", "d1"]
state = "down"

[[events]]
at = "1.1s"
link = ["r1", "d1"]
state = "up"

[output]
interval = "0.25s"
series = ["rate", "queue"]
pcap = ["r1->d1", "d1->r1"]
per_flow_series = true
"""

TICP = """[run]
duration = "5s"

[[links]]
between = ["c", "r"]
rate = "10Mbps"
delay = "5ms"

[[links]]
between = ["r", "b1"]
rate = "10Mbps"
delay = "40ms"

[[links]]
between = ["r", "l1"]
rate = "10Mbps"
delay = "2ms"

[[ticp]]
name = "census"
collector = "c"
sources = { b1 = 50, r = 20 }
rs = 2
delivery = "relay"
clusters = "binning"
landmarks = ["l1"]
probes = 2
binning_phase = "0.5s"
allotted = "4s"
"""

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
        name = ("sack" if protocol.startswith(("rto-", "red-", "recovery-", "hystart-"))
                else "vegas" if protocol.startswith("vegas-")
                else "cubic" if protocol.startswith("cubic-") else protocol)
        text = BASE.format(protocol=name,
                           extra=extra).replace("QUEUE", q)
        (OUT / f"seed-{protocol}.toml").write_text(text)
    spec = {
        "run": {"duration": "1s", "seed": 1},
        "links": [{"between": ["a", "b"], "rate": "10Mbps", "delay": "5ms", "loss": 0.01}],
        "flows": [{"name": "x", "protocol": "sack", "from": "a", "to": "b"}],
    }
    (OUT / "seed-json.json").write_text(json.dumps(spec))
    tcpm = BASE.format(protocol="vegas", extra="").replace("QUEUE", '"20p"') + TCPM
    (OUT / "seed-tcpm.toml").write_text(tcpm)
    for web in ("newreno", "xcp", "obp"):
        (OUT / f"seed-run-paths-{web}.toml").write_text(RUN_PATHS.replace("{web}", web))
    (OUT / "seed-ticp-binning.toml").write_text(TICP)


if __name__ == "__main__":
    main()
