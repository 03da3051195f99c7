"""Seed replicas: the 95 % interval over seeds and the verdict it gives (experiments/base.py).

The interval is checked by what it promises: over many samples drawn from a known normal, the
intervals from K values cover the true mean in 95 % of the draws.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ccsim.experiments.base import FRACTION, Check, ExperimentReport, combine, student_t_975


@pytest.mark.parametrize("k", [2, 3, 5, 10])
def test_the_interval_covers_the_true_mean_95_percent_of_the_time(k: int) -> None:
    rng = np.random.default_rng(2026)
    trials = 4000
    covered = 0
    for _ in range(trials):
        samples = list(rng.normal(10.0, 3.0, size=k))
        check = Check("x", sum(samples) / k, "", -math.inf, math.inf, unit="ratio", samples=samples)
        lo, hi = check.interval or (math.nan, math.nan)
        covered += lo <= 10.0 <= hi
    # Binomial(4000, 0.95) has a standard deviation of 0.0034: four of them either side.
    assert abs(covered / trials - 0.95) < 0.014


def test_t_quantiles_fall_towards_the_normal() -> None:
    values = [student_t_975(df) for df in (1, 2, 5, 30, 40, 60, 120, 100_000)]
    assert values == sorted(values, reverse=True)
    assert values[-1] == pytest.approx(1.960)
    with pytest.raises(ValueError):
        student_t_975(0)


def _check(samples: list[float], low: float = 0.9, high: float = 1.0) -> Check:
    return Check("utilisation", sum(samples) / len(samples), "> 0.9", low, high, unit="ratio", samples=samples)


def test_verdicts_are_judged_on_the_interval() -> None:
    assert _check([0.95, 0.96, 0.97]).verdict == "reproduced"
    assert _check([0.80, 0.81, 0.82]).verdict == "not reproduced"
    # Mean 0.91 lies in the band but the interval reaches below 0.9: the seeds cannot tell.
    straddling = _check([0.88, 0.91, 0.94])
    assert straddling.passed and straddling.verdict == "inconclusive"
    # One seed: the value alone decides.
    assert Check("u", 0.95, "", 0.9, 1.0, unit="ratio").verdict == "reproduced"
    assert Check("u", 0.85, "", 0.9, 1.0, unit="ratio").verdict == "not reproduced"
    # Equal samples: a point interval, judged as one value.
    assert _check([0.95, 0.95]).verdict == "reproduced"
    assert _check([0.95, math.nan]).verdict == "not reproduced"


def test_replicas_combine_by_check_name() -> None:
    one = [Check("a", 1.0, "", 0, 2, unit="s"), Check("b", 5.0, "", 0, 10, unit="s")]
    two = [Check("a", 3.0, "", 0, 2, unit="s"), Check("b", 7.0, "", 0, 10, unit="s")]
    a, b = combine([one, two])
    assert (a.name, a.measured, a.samples) == ("a", 2.0, [1.0, 3.0])
    assert (b.name, b.measured, b.samples) == ("b", 6.0, [5.0, 7.0])
    # A name that holds a measured count differs between seeds: the same place is the same check.
    renamed = combine([[Check("drops (2)", 2.0, "", 0, 5, unit="packets")],
                       [Check("drops (4)", 4.0, "", 0, 5, unit="packets")]])
    assert [(c.name, c.samples) for c in renamed] == [("drops (2)", [2.0, 4.0])]
    lacking = combine([one, [Check("b", 7.0, "", 0, 10, unit="s")]])
    assert math.isnan(lacking[0].measured) and lacking[0].verdict == "not reproduced"


def test_a_report_is_inconclusive_only_without_a_failure() -> None:
    good, unsure, bad = _check([0.95, 0.96, 0.97]), _check([0.88, 0.91, 0.94]), _check([0.5, 0.6, 0.55])
    assert ExperimentReport("e", [good, unsure]).verdict == "inconclusive"
    assert ExperimentReport("e", [good, unsure, bad]).verdict == "not reproduced"
    assert ExperimentReport("e", [good]).verdict == "reproduced"
    table = ExperimentReport("e", [good, unsure]).table_markdown()
    assert "mean of 3 seeds" in table and "inconclusive" in table


def test_equal_and_infinite_samples_are_points_not_rounding_noise() -> None:
    # 0.1 three times at the band's lower edge: one value, reproduced as one seed would be.
    edge = combine([[Check("x", 0.1, "", 0.1, 1, unit="ratio")] for _ in range(3)])[0]
    assert edge.measured == 0.1 and edge.interval == (0.1, 0.1) and edge.verdict == "reproduced"
    always = combine([[Check("x", math.inf, "", 1, math.inf, unit="ratio")] for _ in range(3)])[0]
    assert always.verdict == "reproduced"
    mixed = combine([[Check("x", v, "", 1, math.inf, unit="ratio")] for v in (math.inf, 5.0, 6.0)])[0]
    assert mixed.interval is None and mixed.verdict == "not reproduced"


def test_checks_of_one_name_are_kept_apart() -> None:
    one = [Check("share", 1.0, "", 0, 2, unit="ratio"), Check("share", 5.0, "", 0, 10, unit="ratio")]
    two = [Check("share", 3.0, "", 0, 2, unit="ratio"), Check("share", 7.0, "", 0, 10, unit="ratio")]
    assert [c.samples for c in combine([one, two])] == [[1.0, 3.0], [5.0, 7.0]]


def test_the_interval_is_clipped_to_the_quantitys_physical_range() -> None:
    # xcp-capacity's drop rates over three seeds, 0.0043, 0.0087 and 0 %, against [0, 0.1]: the
    # t interval reaches below 0 %, which no drop rate can; clipped at 0 the whole interval is
    # in the band.
    drops = Check("drop rate", 0.0043, "near zero", 0.0, 0.1, unit="%", samples=[0.0043, 0.0087, 0.0])
    lo, hi = drops.interval or (math.nan, math.nan)
    assert lo == 0.0 and 0.0 < hi < 0.1
    assert drops.verdict == "reproduced"
    # The same numbers as a difference (a "ratio" that may be negative) keep their interval.
    diff = Check("a less b", 0.0043, "above 0", 0.0, 0.1, unit="ratio", samples=[0.0043, 0.0087, 0.0])
    assert (diff.interval or (0.0, 0.0))[0] < 0 and diff.verdict == "inconclusive"
    # A utilisation given its range: never above 1.
    util = Check("utilisation", 0.99, "high", 0.95, 1.0, unit="ratio", samples=[0.999, 1.0, 0.97],
                 physical=FRACTION)
    assert (util.interval or (0.0, 2.0))[1] == 1.0
