//! Fingerprints: fast, fixed-seed, 64-bit hashes of states.
//!
//! The visited set keeps fingerprints instead of states, so the hash must be identical across
//! runs, threads and processes (results are compared across thread counts and traces are
//! replayed by fingerprint). std's `DefaultHasher` is slow for this and not promised to be
//! stable, so this is a small word-at-a-time hasher: each word is folded in with a 64×64→128-bit
//! multiply (as in foldhash), and the result gets a murmur3 finaliser so every output bit,
//! including the low ones, depends on every input bit.
//!
//! Two distinct states sharing a fingerprint would be merged silently. With a good 64-bit hash
//! that happens with probability about n²/2⁶⁵ for n states (under 3·10⁻⁶ for 10⁸ states).

use std::hash::{BuildHasher, Hash, Hasher};

/// The hasher's starting value; any fixed constant works (hex digits of π).
const SEED: u64 = 0x243f_6a88_85a3_08d3;
/// An odd constant with well-spread bits (2⁶⁴/φ), the multiplier of the per-word fold.
const MUL: u64 = 0x9e37_79b9_7f4a_7c15;

/// Multiplies to 128 bits and folds the halves: the high half carries the mixing of every input
/// bit, the low half keeps the value injective-looking for small inputs.
#[inline(always)]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let p = (a as u128).wrapping_mul(b as u128);
    (p as u64) ^ ((p >> 64) as u64)
}

/// The murmur3 64-bit finaliser: a bijection with full avalanche.
#[inline(always)]
pub(crate) fn avalanche(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h
}

/// A deterministic 64-bit hasher for fingerprints (fixed seed, platform-independent widths).
#[derive(Clone, Debug)]
pub struct FpHasher {
    h: u64,
}

impl Default for FpHasher {
    fn default() -> Self {
        FpHasher { h: SEED }
    }
}

impl Hasher for FpHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().expect("8-byte chunk")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut tail = 0u64;
            for (i, b) in rest.iter().enumerate() {
                tail |= u64::from(*b) << (8 * i);
            }
            // The length in the top byte tells "\0" apart from "".
            self.write_u64(tail ^ ((rest.len() as u64) << 56));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    #[inline(always)]
    fn write_u64(&mut self, i: u64) {
        self.h = folded_multiply(self.h ^ i, MUL);
    }

    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        // Always 64 bits wide, so 32- and 64-bit hosts agree.
        self.write_u64(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        avalanche(self.h)
    }
}

/// Builds [`FpHasher`]s, for std collections keyed by states or fingerprints.
#[derive(Clone, Copy, Debug, Default)]
pub struct FpBuildHasher;

impl BuildHasher for FpBuildHasher {
    type Hasher = FpHasher;

    fn build_hasher(&self) -> FpHasher {
        FpHasher::default()
    }
}

/// The fingerprint of a value: the same on every run, thread and 32/64-bit host.
#[inline]
pub fn fingerprint<T: Hash + ?Sized>(t: &T) -> u64 {
    let mut h = FpHasher::default();
    t.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn is_deterministic_and_fixed() {
        assert_eq!(fingerprint(&(1u32, "ab")), fingerprint(&(1u32, "ab")));
        let from_thread = std::thread::spawn(|| fingerprint(&vec![1u8, 2, 3]));
        assert_eq!(from_thread.join().unwrap(), fingerprint(&vec![1u8, 2, 3]));
        // Pinned so that changing the algorithm (and so every state count's tie-breaks and
        // any stored fingerprint) is a deliberate decision.
        assert_eq!(fingerprint(&0u64), 0xebec_de93_ce52_f108);
        assert_eq!(
            fingerprint(&(1u8, "state", vec![2u16, 3])),
            0x848c_3369_b0ce_736c
        );
    }

    #[test]
    fn distinguishes_small_structured_values() {
        let mut seen = HashSet::new();
        for a in 0u8..32 {
            for b in 0u8..32 {
                for c in 0u8..32 {
                    assert!(seen.insert(fingerprint(&[a, b, c])));
                    assert!(seen.insert(fingerprint(&(a, b, c))));
                }
            }
        }
        assert_ne!(fingerprint(""), fingerprint("\0"));
        assert_ne!(fingerprint(&("a", "b")), fingerprint(&("ab", "")));
    }

    #[test]
    fn low_and_high_bits_are_balanced() {
        // Sharding uses high bits and table slots low bits: both must look uniform on counters.
        let n = 1 << 16;
        let mut low = [0u32; 16];
        let mut high = [0u32; 16];
        for i in 0..n as u64 {
            let f = fingerprint(&i);
            low[(f & 15) as usize] += 1;
            high[(f >> 60) as usize] += 1;
        }
        let expected = n / 16;
        for c in low.iter().chain(high.iter()) {
            assert!(
                (*c as i64 - expected as i64).abs() < expected as i64 / 10,
                "{low:?} {high:?}"
            );
        }
    }
}
