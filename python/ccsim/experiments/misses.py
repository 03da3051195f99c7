"""Why each claim that does not reproduce does not (issue 41, "the class of every miss"): its class
(:data:`ccsim.experiments.base.MISS_CLASSES`), one sentence of cause, and the test that
demonstrates the cause. The report's "why" column and docs/experiments.md's status table print
them for the experiments whose verdict is "not reproduced" or "inconclusive"; an experiment that
reproduces ignores its entry.

The classes and causes come from the reproduction audit (../shared/research/reproduction-audit.md)
and the measurements in docs/experiments.md, each checked again by the test named. Where the test
is a strict xfail of the quick variant, the xfail's reason states the cause and the measured
value; the others run the mechanism itself.
"""

from __future__ import annotations

from .base import Miss

_TICP = "tests/test_ticp.py"
_STATED = "tests/test_stated_causes.py"
_TCPM = "tests/test_tcpm_experiments.py"

MISSES: dict[str, Miss] = {
    "ticp-tcp-fwd": Miss(
        "honest negative", "in bin 1, which the session opens in slow start until the collector's first 3 s timer, "
        "TICP takes 1.6 times the TCP's rate (band 3:2 from \"almost the same throughput\"), over round 1 and over "
        "the bin's whole time alike (1.55-1.91 over eight replicas); bins 2-5 hold 1.26-1.38",
        f"{_TICP}::test_quick_ticp_experiment_check"),
    "ticp-tcp-rev": Miss(
        "too few replicas", "each trajectory's per-bin TICP/TCP ratio swings between 1.7 and 15 with the exact "
        "start; over twenty jittered replicas bins 3 and 5 straddle \">= 3\", and the paper's \"about 10 TCP "
        "flows\" is reached in no run", f"{_TICP}::test_quick_ticp_experiment_check"),
    "ticp-tcp-rev-fair": Miss(
        "honest negative", "with RS = 10 and 100 B reports each request makes ten reports leave one node at once; "
        "the bursts take half of the 20-packet buffer and the reverse TCP loses whole windows",
        f"{_TICP}::test_the_whole_bin_reading_measures_every_round_of_a_bin"),
    "ticp-two": Miss(
        "too few replicas", "bin 1 is shared for a few seconds while the sessions separate, and its split follows "
        "the exact start (0.61/1.39 to 1.94/0.05 over five starts); twenty jittered replicas straddle the band",
        f"{_TICP}::test_ticp_two_measured_from_the_second_sessions_first_timeout_judges_bin_1_on_fewer_replicas"),
    "cbraa-vs-mathis": Miss(
        "too few replicas", "a start shift within one round trip moves CBRAA's held rate and its time to 90 % of "
        "its share across their bands (validation/start_shift.py); ten jittered replicas straddle both edges, "
        "under ns-2.35's timer for the TCPs too (with the registered start REAL's timer gave 2.60 Mbit/s and "
        "ns-2.35's 1.97)", "tests/test_rate_based.py::test_the_fine_timer_reading_gets_its_own_verdict"),
    "cbraa-arrivals": Miss(
        "honest negative", "the paced CBRAA source loses about half what the TCPs beside it lose at a 20-packet "
        "DropTail queue, so it holds above the TCPs' share", f"{_STATED}::test_cbraa_loses_half_of_what_the_tcps_beside_it_lose"),
    "cbraa-fair": Miss(
        "honest negative", "CBRAA holds 1.2-1.6 times the TCPs under every timer and beta tried (the paper: 0.95), "
        "because Reno loses more beside it", f"{_STATED}::test_cbraa_runs_above_its_band_because_reno_loses_more_beside_it"),
    "cbraa-rtt": Miss(
        "open reading", "REAL's TCP (flavour and timer) decides: 4.3BSD-timer Reno idles in coarse timeouts (0.35 "
        "of its share); NewReno matches the paper's 0.83 / 1.08 / 1.00",
        f"{_STATED}::test_the_tcp_in_cbraa_rtt_idles_in_coarse_timeouts"),
    "primo-bw": Miss(
        "honest negative", "Primo's thresholds (fractions of RTT_ref / 2) and its per-packet reception rate hold "
        "more queue than Vegas (21 % of the buffer against 13 %)",
        f"{_STATED}::test_primos_queue_in_primo_bw_is_its_thresholds_and_its_per_packet_rate"),
    "primo-queue": Miss(
        "honest negative", "the per-packet reception rate (size over the last gap) lets the larger flow grow at the "
        "smaller's expense: fairness 10-18 % once the two sources are not in lockstep",
        f"{_STATED}::test_primos_steps_widen_the_gap_left_by_the_start_or_keep_it"),
    "primo-delay": Miss(
        "too few replicas", "Primo's sending stability follows how unequal its two flows are, which the start "
        "decides (77.9 % with the registered start alone); five jittered replicas straddle the band's 85 %",
        f"{_STATED}::test_primos_unequal_flows_fluctuate_in_primo_delay"),
    "primo-hetero": Miss(
        "honest negative", "Primo's thresholds scale with each flow's own RTT_ref, so the longer path wins",
        f"{_STATED}::test_the_longer_path_wins_because_the_thresholds_scale_with_its_own_round_trip"),
    "primo-parking": Miss(
        "honest negative", "with the per-packet rate two flows take most of a link and nothing pulls the flows "
        "together (the topology is ours)", f"{_STATED}::test_primo_parking_shares_only_with_the_16_gap_rate_and_staggered_starts"),
    "tcpm-unicast": Miss(
        "too few replicas", "the split between the session and the unicast Vegas is bimodal by the start (1.07 / "
        "0.93 or 0.67-0.71 / 1.29-1.33 of half the link over five shifts within 100 ms), and the replicas straddle "
        "the band", f"{_TCPM}::test_quick_tcpm_experiment_check"),
    "tcpm-reroute": Miss(
        "honest negative", "ns-2's Vegas keeps the old path's BaseRTT (39.9 ms; re-measured only in a round with at "
        "most one segment), so it holds 5 segments once the RTT is 99 ms; ns-2.35's own Vegas does the same on "
        "Figure 7 with R2 down (validation/ns2/vegas-tcpm)",
        f"{_TCPM}::test_quick_tcpm_experiment_check"),
    "tcpm-random": Miss(
        "honest negative", "ns-2's Vegas averages a round's RTT samples, and the fused ACKs queue behind every "
        "receiver's REVERSE_PATH on the 50 kbit/s link, so it holds 7 segments: ns-2.35's own Vegas on that path "
        "with those streams holds the same (0.747 / 0.747; validation/ns2/vegas-tcpm)",
        f"{_TCPM}::test_ns2_vegas_fills_the_slow_link_alone_but_not_behind_the_fused_acks"),
    "tcpm-fusion": Miss(
        "open reading", "the tree's delays and the window are not given: the unicast runs at 20 x 40 B per 91 ms "
        "(70 kbit/s against the paper's 174), and Vegas settles without loss at the ACK link's ceiling",
        f"{_TCPM}::test_quick_tcpm_experiment_check"),
    "xcp-capacity": Miss(
        "honest negative", "at 1.5 Mbit/s 100 flows with a one-packet window floor keep 50 packets against 15 of "
        "path and 15 of buffer; at 10-45 Mbit/s the reverse flows' ACK compression holds the queue above 20 %",
        f"{_STATED}::test_xcp_capacitys_queue_is_the_reverse_flows"),
    "obp-capacity": Miss(
        "honest negative", "OBP's flows step together and leave the link idle between router periods: from 622 "
        "Mbit/s up OBP's utilisation lags XCP's by 0.07-0.08 (band 0.05, Fig. 4's \"similar results\"), at 30 "
        "and 50 ms periods too; at 10 Mbit/s the web traffic (ours) overloads every scheme",
        f"{_STATED}::test_obp_flows_alone_oscillate_in_lock_step_and_leave_the_link_idle"),
    "obp-rtt": Miss(
        "honest negative", "expression (2) as printed keeps +gamma at AB = 0 and every flow steps together; the "
        "oscillation deepens with the round trip (0.74-0.91)",
        f"{_STATED}::test_the_oscillation_deepens_with_more_flows_and_longer_round_trips"),
    "obp-jain": Miss(
        "honest negative", "OBP's fairness term is about 2 delta / n at 50 flows and its multiplicative steps keep "
        "the flows' ratios, so Jain's index drifts below 0.95", f"{_STATED}::test_obp_fairness_among_fifty_flows_drifts_away_with_time"),
    "obp-parking-flows": Miss(
        "honest negative", "OBP's flows step together and leave the links idle: 0.894 at every flow count against "
        "\"always higher than 90 %\", at 30 and 50 ms router periods too",
        f"{_STATED}::test_the_oscillation_deepens_with_more_flows_and_longer_round_trips"),
    "obp-parking-rtt": Miss(
        "honest negative", "the lock-step oscillation deepens with the round trip: OBP's utilisation spreads by 0.067 "
        "over the RTTs and falls 0.087 below XCP's at 1 s (Fig. 9: not sensitive, higher than XCP), and at 10 ms "
        "OBP drops packets where the paper sees none",
        f"{_STATED}::test_the_oscillation_deepens_with_more_flows_and_longer_round_trips"),
}
