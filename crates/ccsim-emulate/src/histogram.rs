//! A fixed-size histogram of nanosecond durations (release lateness): log-linear buckets, 64
//! per power of two above 128 ns, so a quantile is read within 1/64 (1.6 %) of the true value
//! and the memory does not grow with the number of packets.

/// Sub-buckets per power of two.
const SUB_BITS: u32 = 6;
const SUB: u64 = 1 << SUB_BITS;
/// Values up to 2^48 ns (about 3.3 days); larger ones share the last bucket.
const MAX_BITS: u32 = 48;
const BUCKETS: usize = ((MAX_BITS - SUB_BITS) as usize + 1) * SUB as usize;

/// Counts of durations by bucket, with the exact count and maximum.
#[derive(Clone, Debug)]
pub struct Histogram {
    counts: Vec<u64>,
    n: u64,
    max: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            counts: vec![0; BUCKETS],
            n: 0,
            max: 0,
        }
    }
}

fn bucket(v: u64) -> usize {
    if v < 2 * SUB {
        return v as usize;
    }
    let msb = 63 - v.leading_zeros();
    if msb >= MAX_BITS {
        return BUCKETS - 1;
    }
    let shift = msb - SUB_BITS;
    ((shift as u64 + 1) * SUB + ((v >> shift) & (SUB - 1))) as usize
}

/// The largest value in bucket `i`.
fn upper(i: usize) -> u64 {
    let i = i as u64;
    if i < 2 * SUB {
        return i;
    }
    let shift = i / SUB - 1;
    let base = (SUB + i % SUB) << shift;
    base + (1 << shift) - 1
}

impl Histogram {
    /// Count one duration.
    pub fn record(&mut self, ns: u64) {
        self.counts[bucket(ns)] += 1;
        self.n += 1;
        self.max = self.max.max(ns);
    }

    /// Durations counted.
    #[must_use]
    pub fn count(&self) -> u64 {
        self.n
    }

    /// The largest duration counted, exactly.
    #[must_use]
    pub fn max(&self) -> u64 {
        self.max
    }

    /// The `q` quantile (0 < q <= 1): the upper edge of the bucket holding it, at most the
    /// maximum; `None` when empty.
    #[must_use]
    pub fn quantile(&self, q: f64) -> Option<u64> {
        if self.n == 0 {
            return None;
        }
        let rank = ((q * self.n as f64).ceil() as u64).clamp(1, self.n);
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return Some(upper(i).min(self.max));
            }
        }
        Some(self.max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Buckets cover every value once, in order, and each holds values within 1/64.
    #[test]
    fn buckets_are_ordered_and_tight() {
        let check = |v: u64| {
            let b = bucket(v);
            assert!(upper(b) >= v, "{v} above its bucket's edge {}", upper(b));
            if b > 0 {
                assert!(upper(b - 1) < v, "{v} also fits bucket {}", b - 1);
            }
            assert!((upper(b) - v) as f64 <= v as f64 / 64.0 + 1.0, "{v}");
            b
        };
        let mut last = 0;
        for v in 0..5000u64 {
            let b = check(v);
            assert!(b >= last, "{v}");
            last = b;
        }
        for k in 13..47 {
            for v in [(1u64 << k) - 1, 1u64 << k, (1u64 << k) + 12_345] {
                check(v);
            }
        }
    }

    /// Quantiles against the sorted values they come from.
    #[test]
    fn quantiles_match_the_sorted_values_within_a_bucket() {
        let mut h = Histogram::default();
        let mut x: u64 = 88_172_645_463_325_252;
        let mut values = Vec::new();
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = x % 2_000_000;
            values.push(v);
            h.record(v);
        }
        values.sort_unstable();
        for q in [0.5, 0.9, 0.99, 1.0] {
            let exact = values[((q * values.len() as f64).ceil() as usize).max(1) - 1];
            let got = h.quantile(q).unwrap();
            assert!(
                got >= exact && (got - exact) as f64 <= exact as f64 / 64.0 + 1.0,
                "q {q}: {got} vs {exact}"
            );
        }
        assert_eq!(h.max(), *values.last().unwrap());
        assert_eq!(Histogram::default().quantile(0.5), None);
    }
}
