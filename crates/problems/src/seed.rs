//! Where a test's randomness comes from.
//!
//! A test is a pure function of (problem slug, problem version, subtask number, test number,
//! problem seed): those five are hashed with SHA-256 and the digest seeds a ChaCha8 generator.
//! Any worker on any machine regenerates exactly the same test, and changing any one of the five
//! gives an unrelated test. Numbers are 1-based, as shown to users. The generator's algorithms
//! are pinned by the lock file; a change to a generator must come with a new problem version.
//!
//! A student's personal instances (see [`InstanceKey`]) hash the same five and the student's
//! personal seed under another domain tag, so no personal stream can equal a hidden test's.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};

/// The generator every problem's test generator draws from.
pub type TestRng = ChaCha8Rng;

/// Identifies one generated test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestKey<'a> {
    pub slug: &'a str,
    pub version: u32,
    pub subtask: usize,
    pub index: usize,
    pub seed: u64,
}

impl TestKey<'_> {
    pub fn rng(&self) -> TestRng {
        let mut hasher = Sha256::new();
        hasher.update(b"grundy/test/v1\0");
        self.hash_into(&mut hasher);
        let digest: [u8; 32] = hasher.finalize().into();
        ChaCha8Rng::from_seed(digest)
    }

    fn hash_into(&self, hasher: &mut Sha256) {
        hasher.update(self.slug.as_bytes());
        hasher.update(b"\0");
        hasher.update(self.version.to_le_bytes());
        hasher.update((self.subtask as u64).to_le_bytes());
        hasher.update((self.index as u64).to_le_bytes());
        hasher.update(self.seed.to_le_bytes());
    }
}

/// The generator of `grundy stress`'s random games: a function of the seed the student gives,
/// under its own domain tag.
pub fn stress_rng(seed: u64) -> TestRng {
    let mut hasher = Sha256::new();
    hasher.update(b"grundy/stress/v1\0");
    hasher.update(seed.to_le_bytes());
    ChaCha8Rng::from_seed(hasher.finalize().into())
}

/// Identifies one personal instance: the instance `at.index` of subtask `at.subtask` handed to
/// the student whose personal seed is `personal_seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstanceKey<'a> {
    pub at: TestKey<'a>,
    pub personal_seed: u64,
}

impl InstanceKey<'_> {
    pub fn rng(&self) -> TestRng {
        let mut hasher = Sha256::new();
        hasher.update(b"grundy/instance/v1\0");
        self.at.hash_into(&mut hasher);
        hasher.update(self.personal_seed.to_le_bytes());
        let digest: [u8; 32] = hasher.finalize().into();
        ChaCha8Rng::from_seed(digest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    fn key() -> TestKey<'static> {
        TestKey {
            slug: "stones",
            version: 1,
            subtask: 1,
            index: 1,
            seed: 42,
        }
    }

    fn draw(key: TestKey<'_>) -> Vec<u64> {
        let mut rng = key.rng();
        (0..4).map(|_| rng.random()).collect()
    }

    #[test]
    fn same_key_same_stream_and_every_component_matters() {
        assert_eq!(draw(key()), draw(key()));
        let variants = [
            TestKey {
                slug: "nim",
                ..key()
            },
            TestKey {
                version: 2,
                ..key()
            },
            TestKey {
                subtask: 2,
                ..key()
            },
            TestKey { index: 2, ..key() },
            TestKey { seed: 43, ..key() },
        ];
        for variant in variants {
            assert_ne!(draw(variant), draw(key()), "{variant:?}");
        }
    }

    fn draw_instance(key: InstanceKey<'_>) -> Vec<u64> {
        let mut rng = key.rng();
        (0..4).map(|_| rng.random()).collect()
    }

    #[test]
    fn instances_are_personal_and_apart_from_the_tests() {
        let mine = InstanceKey {
            at: key(),
            personal_seed: 7,
        };
        assert_eq!(draw_instance(mine), draw_instance(mine));
        assert_ne!(
            draw_instance(mine),
            draw_instance(InstanceKey {
                personal_seed: 8,
                ..mine
            })
        );
        assert_ne!(
            draw_instance(mine),
            draw_instance(InstanceKey {
                at: TestKey { index: 2, ..key() },
                ..mine
            })
        );
        assert_ne!(draw_instance(mine), draw(key()));
    }
}
