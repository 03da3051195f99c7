//! A fixed-size log-linear histogram of nanosecond values, for quantiles within 0.8 % of
//! the exact value at any count: a DualPI2 queue's sojourn times, a real-time driver's timer
//! lateness.

/// Values in nanoseconds (a queue's sojourn times, a timer's lateness): count, sum, maximum
/// and a log-linear histogram (64 buckets per octave: each bucket spans at most 1/64 of its
/// lower edge), of fixed size whatever the number of values.
#[derive(Clone, Debug, PartialEq)]
pub struct LogHistogram {
    /// Values recorded.
    pub count: u64,
    /// Sum of the values, ns.
    pub sum_ns: u128,
    /// Largest, ns.
    pub max_ns: u64,
    /// Counts per bucket ([`LogHistogram::bucket`]).
    pub buckets: Vec<u64>,
}

const SUB_BITS: u32 = 6;
const SUB: u64 = 1 << SUB_BITS;
const BUCKETS: usize = ((64 - SUB_BITS + 1) as usize) * SUB as usize;

impl Default for LogHistogram {
    fn default() -> Self {
        LogHistogram {
            count: 0,
            sum_ns: 0,
            max_ns: 0,
            buckets: vec![0; BUCKETS],
        }
    }
}

impl LogHistogram {
    /// The bucket of `v` ns: exact below 64 ns, then 64 per octave.
    #[must_use]
    pub fn bucket(v: u64) -> usize {
        if v < SUB {
            return v as usize;
        }
        let e = 63 - v.leading_zeros();
        let oct = (e - SUB_BITS + 1) as usize;
        oct * SUB as usize + ((v >> (e - SUB_BITS)) - SUB) as usize
    }

    /// The bucket's range `[lo, hi)`, ns.
    #[must_use]
    pub fn bucket_range(i: usize) -> (u64, u64) {
        let (oct, sub) = (i as u64 / SUB, i as u64 % SUB);
        if oct == 0 {
            return (sub, sub + 1);
        }
        let shift = oct - 1;
        let lo = (SUB + sub) << shift;
        (lo, lo.saturating_add(1 << shift))
    }

    /// Record one value of `ns`.
    pub fn record(&mut self, ns: u64) {
        self.count += 1;
        self.sum_ns += u128::from(ns);
        self.max_ns = self.max_ns.max(ns);
        self.buckets[Self::bucket(ns)] += 1;
    }

    /// Mean, seconds (`None` without values).
    #[must_use]
    pub fn mean_s(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum_ns as f64 / self.count as f64 / 1e9)
    }

    /// The `q` quantile (0 < q <= 1), seconds: the midpoint of the bucket holding the
    /// ceil(q n)-th smallest value (within half a bucket, 0.8 %, of the exact value).
    #[must_use]
    pub fn quantile_s(&self, q: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (i, n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen >= rank {
                let (lo, hi) = Self::bucket_range(i);
                let mid = if hi - lo <= 1 {
                    lo as f64
                } else {
                    (lo as f64 + hi as f64) / 2.0
                };
                return Some(mid.min(self.max_ns as f64) / 1e9);
            }
        }
        None
    }

    /// These counts less `earlier`'s (a window's).
    #[must_use]
    pub fn since(&self, earlier: &LogHistogram) -> LogHistogram {
        LogHistogram {
            count: self.count - earlier.count,
            sum_ns: self.sum_ns - earlier.sum_ns,
            max_ns: self.max_ns,
            buckets: self
                .buckets
                .iter()
                .zip(&earlier.buckets)
                .map(|(a, b)| a - b)
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_cover_and_order() {
        let mut last = 0;
        for v in [
            0u64,
            1,
            63,
            64,
            65,
            127,
            128,
            1000,
            999_999,
            1 << 40,
            u64::MAX,
        ] {
            let b = LogHistogram::bucket(v);
            let (lo, hi) = LogHistogram::bucket_range(b);
            assert!(lo <= v && (v < hi || hi == u64::MAX), "{v} {b} {lo} {hi}");
            assert!(b >= last);
            last = b;
            assert!(b < BUCKETS);
        }
    }

    #[test]
    fn quantiles_of_a_uniform_sample_within_half_a_bucket() {
        let mut h = LogHistogram::default();
        for v in 1..=100_000u64 {
            h.record(v * 10);
        }
        for q in [0.5, 0.9, 0.99] {
            let exact = q * 1_000_000.0 / 1e9;
            let got = h.quantile_s(q).expect("values");
            assert!(
                (got - exact).abs() <= exact / 128.0 + 1e-9,
                "{q}: {got} {exact}"
            );
        }
        assert_eq!(h.max_ns, 1_000_000);
        assert_eq!(h.since(&h).count, 0);
    }
}
