//! A windowed maximum in constant space: Kathleen Nichols' algorithm as Linux's
//! `lib/win_minmax.c` runs it (the best, second-best and third-best samples of the window,
//! each from a later sub-window). BBR's bandwidth filter is a running maximum over ten
//! round trips.

/// One sample: its time (in the caller's unit: round trips, jiffies) and value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Sample {
    t: u32,
    v: u64,
}

/// A windowed extremum estimator (Linux's `struct minmax`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MinMax {
    s: [Sample; 3],
}

impl MinMax {
    /// The current estimate.
    #[must_use]
    pub fn get(&self) -> u64 {
        self.s[0].v
    }

    /// Forget everything; `meas` at `t` is the estimate (`minmax_reset`).
    pub fn reset(&mut self, t: u32, meas: u64) -> u64 {
        self.s = [Sample { t, v: meas }; 3];
        meas
    }

    /// Age the sub-window samples (`minmax_subwin_update`).
    fn subwin_update(&mut self, win: u32, val: Sample) -> u64 {
        let dt = val.t.wrapping_sub(self.s[0].t);
        if dt > win {
            // The best sample left the window: promote the others.
            self.s[0] = self.s[1];
            self.s[1] = self.s[2];
            self.s[2] = val;
            if val.t.wrapping_sub(self.s[0].t) > win {
                self.s[0] = self.s[1];
                self.s[1] = self.s[2];
                self.s[2] = val;
            }
        } else if self.s[1].t == self.s[0].t && dt > win / 4 {
            // A quarter of the window passed without a second choice: take one.
            self.s[1] = val;
            self.s[2] = val;
        } else if self.s[2].t == self.s[1].t && dt > win / 2 {
            self.s[2] = val;
        }
        self.s[0].v
    }

    /// Fold in `meas` at `t` and return the maximum over the last `win` (`minmax_running_max`).
    pub fn running_max(&mut self, win: u32, t: u32, meas: u64) -> u64 {
        let val = Sample { t, v: meas };
        if val.v >= self.s[0].v || val.t.wrapping_sub(self.s[2].t) > win {
            return self.reset(t, meas);
        }
        if val.v >= self.s[1].v {
            self.s[1] = val;
            self.s[2] = val;
        } else if val.v >= self.s[2].v {
            self.s[2] = val;
        }
        self.subwin_update(win, val)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The running maximum equals the brute-force maximum over the window whenever the
    /// best sample is younger than the window, and never exceeds the true maximum of all
    /// samples seen in the last window; it forgets a peak once the window has passed it.
    #[test]
    fn running_max_tracks_a_sliding_maximum() {
        let mut m = MinMax::default();
        let win = 10;
        let values: Vec<u64> = (0..200u64).map(|t| (t * 37 + 11) % 101).collect();
        for (t, &v) in values.iter().enumerate() {
            let t32 = t as u32;
            let got = m.running_max(win, t32, v);
            let lo = t.saturating_sub(win as usize);
            let window_max = *values[lo..=t].iter().max().unwrap();
            assert!(
                got <= window_max,
                "t={t}: {got} above the window's max {window_max}"
            );
            assert!(got >= v, "t={t}: the estimate is below the newest sample");
        }
        // A single peak is forgotten after the window.
        let mut m = MinMax::default();
        m.running_max(win, 0, 100);
        for t in 1..=win {
            assert_eq!(m.running_max(win, t, 5), 100);
        }
        assert_eq!(m.running_max(win, win + 1, 5), 5);
    }
}
