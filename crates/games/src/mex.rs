//! The minimum excludant.

/// Smallest non-negative integer not among `values`.
pub fn mex<I: IntoIterator<Item = u32>>(values: I) -> u32 {
    Mex::default().of(values)
}

/// A reusable mex computation: stamping a scratch buffer instead of clearing it keeps the cost
/// proportional to the number of values, which matters when it runs once per vertex of a
/// million-vertex graph.
#[derive(Debug, Default)]
pub struct Mex {
    values: Vec<u32>,
    seen_at: Vec<u32>,
    stamp: u32,
}

impl Mex {
    pub fn of<I: IntoIterator<Item = u32>>(&mut self, values: I) -> u32 {
        self.values.clear();
        self.values.extend(values);
        // The mex of n values is at most n, so larger values can be ignored.
        let bound = self.values.len() + 1;
        if self.seen_at.len() < bound {
            self.seen_at.resize(bound, 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen_at.fill(0);
            self.stamp = 1;
        }
        for &value in &self.values {
            if (value as usize) < bound {
                self.seen_at[value as usize] = self.stamp;
            }
        }
        (0..bound)
            .find(|&v| self.seen_at[v] != self.stamp)
            .expect("among n + 1 candidates one is missing") as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn small_cases() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 1, 2]), 3);
        assert_eq!(mex([0, 2, 0, 5]), 1);
        assert_eq!(mex([3, 0, 1]), 2);
        assert_eq!(mex([u32::MAX, 0]), 1);
    }

    proptest! {
        #[test]
        fn reused_scratch_agrees_with_definition(sets in prop::collection::vec(prop::collection::vec(0u32..20, 0..12), 1..20)) {
            let mut scratch = Mex::default();
            for values in sets {
                let expected = (0..).find(|v| !values.contains(v)).unwrap();
                prop_assert_eq!(scratch.of(values.iter().copied()), expected);
            }
        }
    }
}
