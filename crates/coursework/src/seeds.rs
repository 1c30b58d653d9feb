//! Personal instance seeds: HMAC-SHA-256 of the service's secret over the assignment, the student,
//! the problem and the draw's generation. Without the secret, one student's inputs say nothing
//! about another's, and nobody can pick a seed by choosing a name or an id.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The secret key; its `Debug` does not show it.
#[derive(Clone)]
pub struct SeedKey(Vec<u8>);

impl std::fmt::Debug for SeedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SeedKey(…)")
    }
}

impl SeedKey {
    /// At least 16 bytes, or `None`.
    pub fn new(secret: &[u8]) -> Option<SeedKey> {
        (secret.len() >= 16).then(|| SeedKey(secret.to_vec()))
    }

    /// The seed of one student's instances of one problem in one assignment. It is stored with
    /// each submission as an `i64`, the same 64 bits.
    pub fn personal_seed(&self, assignment: i64, user: i64, problem: &str, generation: i64) -> u64 {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes a key of any length");
        // Fixed-width fields first, so no two inputs share an encoding.
        mac.update(b"grundy personal instances v1\0");
        mac.update(&assignment.to_be_bytes());
        mac.update(&user.to_be_bytes());
        mac.update(&generation.to_be_bytes());
        mac.update(problem.as_bytes());
        let digest = mac.finalize().into_bytes();
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_be_bytes(first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_fixed_per_student_and_differ_on_every_field() {
        let key = SeedKey::new(b"a secret of sixteen+ bytes").unwrap();
        let seed = key.personal_seed(1, 2, "stones", 0);
        assert_eq!(seed, key.personal_seed(1, 2, "stones", 0));
        for other in [
            key.personal_seed(3, 2, "stones", 0),
            key.personal_seed(1, 3, "stones", 0),
            key.personal_seed(1, 2, "nim", 0),
            key.personal_seed(1, 2, "stones", 1),
            SeedKey::new(b"another secret, sixteen+")
                .unwrap()
                .personal_seed(1, 2, "stones", 0),
        ] {
            assert_ne!(seed, other);
        }
    }

    #[test]
    fn short_secrets_are_refused_and_never_printed() {
        assert!(SeedKey::new(b"short").is_none());
        let key = SeedKey::new(b"0123456789abcdef").unwrap();
        assert!(!format!("{key:?}").contains("0123"));
    }
}
