//! A small pseudo-random generator (splitmix64) for payloads and sizes.
//!
//! Nothing here needs cryptographic quality: the bytes only have to be ones a server cannot
//! get right by accident (a fixed pattern could be echoed from the wrong connection or the
//! wrong offset and still match). Seeded from the clock and pid by default; tests give a fixed
//! seed to be repeatable.

use std::time::{SystemTime, UNIX_EPOCH};

/// splitmix64 (Steele, Lea, Flood 2014): one 64-bit add and a mix per number.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator seeded with `seed`: the same seed gives the same numbers.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// A generator seeded from the clock and the process id.
    pub fn from_clock() -> Rng {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Rng::new(nanos ^ (u64::from(std::process::id()) << 32))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `low..=high` (`low <= high`); the modulo bias is negligible for the small
    /// ranges used here.
    pub fn in_range(&mut self, low: usize, high: usize) -> usize {
        let span = (high - low) as u64 + 1;
        low + (self.next_u64() % span) as usize
    }

    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(len + 8);
        while bytes.len() < len {
            bytes.extend_from_slice(&self.next_u64().to_le_bytes());
        }
        bytes.truncate(len);
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers_and_ranges_hold() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        assert_eq!(a.bytes(100), b.bytes(100));
        assert_ne!(Rng::new(8).bytes(16), Rng::new(7).bytes(16));
        let mut r = Rng::from_clock();
        let sizes: Vec<usize> = (0..1000).map(|_| r.in_range(1, 4096)).collect();
        assert!(sizes.iter().all(|&s| (1..=4096).contains(&s)));
        assert!(sizes.iter().any(|&s| s != sizes[0]));
        assert_eq!(r.in_range(5, 5), 5);
        assert_eq!(r.bytes(0), Vec::<u8>::new());
        assert_eq!(r.bytes(13).len(), 13);
    }
}
