//! Published flow-size distributions: empirical CDFs of datacenter workloads, vendored with their
//! provenance (`workloads/PROVENANCE.md`), read as HPCC's traffic generator reads them.
//!
//! A CDF file has one point a line, `<bytes> <percent>`: sizes strictly increasing from 0 at 0 %
//! to the largest at 100 %, percents strictly increasing. Between points the CDF is linear, as
//! HPCC's `custom_rand.py` takes it: a draw is the size at a uniform percentile, interpolated
//! (`getValueFromPercentile`), and the mean is the trapezoid sum (`getAvg`).
//!
//! CHOICE: a size drawn is rounded up to a whole byte, and at least one byte (a flow carries
//! data); the mean stated is the continuous one, as HPCC states the load from it.

use ccsim_core::RngStream;

/// The vendored distributions: the name a scenario uses and the file's text.
pub const VENDORED: [(&str, &str); 4] = [
    ("websearch", include_str!("../workloads/websearch.txt")),
    ("fb-hadoop", include_str!("../workloads/fb-hadoop.txt")),
    ("google-rpc", include_str!("../workloads/google-rpc.txt")),
    ("ali-storage", include_str!("../workloads/ali-storage.txt")),
];

/// An empirical flow-size CDF.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowSizes {
    /// (bytes, percent) points, both strictly increasing, from (0, 0) to (largest, 100).
    points: Vec<(f64, f64)>,
}

impl FlowSizes {
    /// A vendored distribution by name.
    #[must_use]
    pub fn vendored(name: &str) -> Option<FlowSizes> {
        VENDORED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| Self::parse(text).expect("invariant: a vendored CDF parses"))
    }

    /// The names of the vendored distributions.
    #[must_use]
    pub fn vendored_names() -> Vec<&'static str> {
        VENDORED.iter().map(|(n, _)| *n).collect()
    }

    /// Read a CDF file's text.
    ///
    /// # Errors
    /// One line naming the file's line and what is wrong with it.
    pub fn parse(text: &str) -> Result<FlowSizes, String> {
        let mut points: Vec<(f64, f64)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.is_empty() {
                continue;
            }
            let [size, percent] = fields[..] else {
                return Err(format!(
                    "line {line_no}: expected \"<bytes> <percent>\", found {line:?}"
                ));
            };
            let number = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite());
            let (Some(size), Some(percent)) = (number(size), number(percent)) else {
                return Err(format!(
                    "line {line_no}: expected two numbers, found {line:?}"
                ));
            };
            if let Some(&(s0, p0)) = points.last() {
                if size <= s0 || percent <= p0 {
                    return Err(format!(
                        "line {line_no}: sizes and percents must both increase, found {size} {percent} after {s0} {p0}"
                    ));
                }
            } else if size != 0.0 || percent != 0.0 {
                return Err(format!(
                    "line {line_no}: the first point must be \"0 0\", found {line:?}"
                ));
            }
            points.push((size, percent));
        }
        Self::checked_end(points)
    }

    /// A CDF from its points, (bytes, percent), as a scenario writes them inline.
    ///
    /// # Errors
    /// One line naming the point and what is wrong with it.
    pub fn from_points(given: &[(f64, f64)]) -> Result<FlowSizes, String> {
        let mut points: Vec<(f64, f64)> = Vec::with_capacity(given.len());
        for (k, &(size, percent)) in given.iter().enumerate() {
            if !size.is_finite() || !percent.is_finite() {
                return Err(format!("point {k}: expected two finite numbers"));
            }
            if let Some(&(s0, p0)) = points.last() {
                if size <= s0 || percent <= p0 {
                    return Err(format!(
                        "point {k}: sizes and percents must both increase, found [{size}, {percent}] after [{s0}, {p0}]"
                    ));
                }
            } else if size != 0.0 || percent != 0.0 {
                return Err(format!(
                    "point {k}: the first point must be [0, 0], found [{size}, {percent}]"
                ));
            }
            points.push((size, percent));
        }
        Self::checked_end(points)
    }

    /// The CDF if its points end at 100 percent.
    fn checked_end(points: Vec<(f64, f64)>) -> Result<FlowSizes, String> {
        match points.last() {
            Some(&(_, p)) if points.len() >= 2 && p == 100.0 => Ok(FlowSizes { points }),
            Some(&(_, p)) if points.len() >= 2 => {
                Err(format!("the last point must be at 100 percent, found {p}"))
            }
            _ => Err("a CDF needs at least two points, \"0 0\" and one at 100 percent".into()),
        }
    }

    /// The size at percentile `p` (0 to 100), interpolated linearly.
    #[must_use]
    pub fn size_at(&self, p: f64) -> f64 {
        let p = p.clamp(0.0, 100.0);
        for w in self.points.windows(2) {
            let ((x0, y0), (x1, y1)) = (w[0], w[1]);
            if p <= y1 {
                return x0 + (x1 - x0) / (y1 - y0) * (p - y0);
            }
        }
        self.points[self.points.len() - 1].0
    }

    /// The mean size, bytes: the integral of the piecewise-linear CDF.
    #[must_use]
    pub fn mean(&self) -> f64 {
        self.points
            .windows(2)
            .map(|w| (w[0].0 + w[1].0) / 2.0 * (w[1].1 - w[0].1))
            .sum::<f64>()
            / 100.0
    }

    /// The largest size, bytes.
    #[must_use]
    pub fn max(&self) -> f64 {
        self.points[self.points.len() - 1].0
    }

    /// One flow's size, bytes, drawn from `rng`.
    pub fn draw(&self, rng: &mut RngStream) -> u64 {
        let size = self.size_at(rng.uniform() * 100.0).ceil();
        (size as u64).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_vendored_cdf_parses_and_ends_where_its_file_does() {
        let largest = [
            ("websearch", 30_000_000.0),
            ("fb-hadoop", 10_000_000.0),
            ("google-rpc", 15_158_197.0),
            ("ali-storage", 2_000_000.0),
        ];
        for (name, max) in largest {
            let cdf = FlowSizes::vendored(name).expect("vendored");
            assert_eq!(cdf.max(), max, "{name}");
            assert_eq!(cdf.size_at(100.0), max);
            assert_eq!(cdf.size_at(0.0), 0.0);
        }
        assert!(FlowSizes::vendored("nope").is_none());
    }

    #[test]
    fn percentiles_at_the_points_are_the_points() {
        let cdf = FlowSizes::vendored("websearch").expect("vendored");
        for (size, percent) in [(10_000.0, 15.0), (80_000.0, 53.0), (5_000_000.0, 90.0)] {
            assert!((cdf.size_at(percent) - size).abs() < 1e-6, "{percent}");
        }
        // Halfway between 53 % (80 kB) and 60 % (200 kB): 140 kB.
        assert!((cdf.size_at(56.5) - 140_000.0).abs() < 1e-6);
    }

    /// The trapezoid mean, worked by hand for WebSearch (HPCC's `getAvg` gives the same sum),
    /// and the mean of a million draws within four standard errors of it.
    #[test]
    fn the_mean_is_the_trapezoid_sum_and_draws_average_to_it() {
        let cdf = FlowSizes::vendored("websearch").expect("vendored");
        let by_hand = (5_000.0 * 15.0
            + 15_000.0 * 5.0
            + 25_000.0 * 10.0
            + 40_000.0 * 10.0
            + 65_000.0 * 13.0
            + 140_000.0 * 7.0
            + 600_000.0 * 10.0
            + 1_500_000.0 * 10.0
            + 3_500_000.0 * 10.0
            + 7_500_000.0 * 7.0
            + 20_000_000.0 * 3.0)
            / 100.0;
        assert!((cdf.mean() - by_hand).abs() < 1e-6);
        let mut rng = RngStream::new(7, "workload-test");
        let n = 1_000_000;
        let draws: Vec<f64> = (0..n).map(|_| cdf.draw(&mut rng) as f64).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let var = draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let se = (var / n as f64).sqrt();
        assert!(
            (mean - cdf.mean()).abs() < 4.0 * se,
            "{mean} vs {}",
            cdf.mean()
        );
    }

    #[test]
    fn bad_files_name_their_line() {
        for (text, wanted) in [
            (
                "0 0\n10 50\n5 100\n",
                "line 3: sizes and percents must both increase",
            ),
            ("1 0\n10 100\n", "line 1: the first point must be \"0 0\""),
            (
                "0 0\n10 90\n",
                "the last point must be at 100 percent, found 90",
            ),
            ("0 0\n10 x\n", "line 2: expected two numbers"),
            ("0 0\n10 50 3\n", "line 2: expected \"<bytes> <percent>\""),
            ("", "a CDF needs at least two points"),
        ] {
            let e = FlowSizes::parse(text).expect_err(text);
            assert!(e.starts_with(wanted), "{e}");
        }
    }
}
