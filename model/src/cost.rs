//! Costs in Energy and Power (rules 131, 135.2.e, 356–357) and their written notation.
//!
//! A cost is written as the digest writes it: `[4][B]`, `[1][A]`, `[P]`, `[0]`. `[n]` is n Energy,
//! a domain letter is one Power of that domain, `[A]` is one Power of any domain and `[C]` is one
//! Power of the card's own domain (resolved when the card is loaded: on a one-domain card it is that
//! domain, on a domainless card it is `[A]`, and on a multi-domain card it stays `[C]`, Power of any
//! one of the card's domains, 135.2.e.6.c).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The six domains; Power is produced and spent per domain (163).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Domain {
    /// Fury, written [R].
    Fury,
    /// Calm, written [G].
    Calm,
    /// Mind, written [B].
    Mind,
    /// Body, written [O].
    Body,
    /// Chaos, written [P].
    Chaos,
    /// Order, written [Y].
    Order,
}

impl Domain {
    /// All domains in index order.
    pub const ALL: [Domain; 6] = [
        Domain::Fury,
        Domain::Calm,
        Domain::Mind,
        Domain::Body,
        Domain::Chaos,
        Domain::Order,
    ];

    /// The symbol letter used in costs.
    pub fn letter(self) -> char {
        ['R', 'G', 'B', 'O', 'P', 'Y'][self as usize]
    }

    /// The domain written with `letter`, if any.
    pub fn from_letter(c: char) -> Option<Domain> {
        Domain::ALL.into_iter().find(|d| d.letter() == c)
    }

    /// Parses a domain name (`Fury`, `mind`, ...) or letter.
    pub fn parse(s: &str) -> Option<Domain> {
        let lower = s.to_ascii_lowercase();
        let by_name = ["fury", "calm", "mind", "body", "chaos", "order"]
            .iter()
            .position(|n| *n == lower)
            .map(|i| Domain::ALL[i]);
        by_name.or_else(|| {
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Domain::from_letter(c.to_ascii_uppercase()),
                _ => None,
            }
        })
    }
}

/// An amount of Energy and Power: what a card costs, or what a pool holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cost {
    /// Generic Energy ([n]).
    pub energy: u8,
    /// Power of each domain, indexed by `Domain as usize`.
    pub power: [u8; 6],
    /// Power of any domain ([A]); in a pool this is always 0.
    pub any: u8,
    /// Power of any one of the card's own domains, on a multi-domain card ([C], 135.2.e.6.c);
    /// which domains those are is the card's. In a pool this is always 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub own: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl Cost {
    /// No cost at all.
    pub const ZERO: Cost = Cost {
        energy: 0,
        power: [0; 6],
        any: 0,
        own: 0,
    };

    /// A cost of `n` Energy.
    #[inline]
    pub fn energy(n: u8) -> Cost {
        Cost {
            energy: n,
            ..Cost::ZERO
        }
    }

    /// Total Power of all kinds.
    pub fn power_total(&self) -> u8 {
        self.power
            .iter()
            .fold(self.any.saturating_add(self.own), |a, p| {
                a.saturating_add(*p)
            })
    }

    /// True when nothing is asked.
    #[inline]
    pub fn is_zero(&self) -> bool {
        *self == Cost::ZERO
    }

    /// The sum of two costs (saturating: costs in this model are small).
    #[inline]
    pub fn plus(&self, other: &Cost) -> Cost {
        let mut out = *self;
        out.energy = out.energy.saturating_add(other.energy);
        for (o, p) in out.power.iter_mut().zip(other.power) {
            *o = o.saturating_add(p);
        }
        out.any = out.any.saturating_add(other.any);
        out.own = out.own.saturating_add(other.own);
        out
    }

    /// `self` less `other`, part by part, none below 0 (for taking back what was added).
    #[inline]
    pub fn less(&self, other: &Cost) -> Cost {
        let mut out = *self;
        out.energy = out.energy.saturating_sub(other.energy);
        for (o, p) in out.power.iter_mut().zip(other.power) {
            *o = o.saturating_sub(p);
        }
        out.any = out.any.saturating_sub(other.any);
        out.own = out.own.saturating_sub(other.own);
        out
    }

    /// Reduces the Energy part by up to `n`, never below 0 (356.6); returns how much was taken.
    pub fn reduce_energy(&mut self, n: u8) -> u8 {
        let taken = n.min(self.energy);
        self.energy -= taken;
        taken
    }

    /// Reduces the Power part by one, the least restricted first (any domain, then one of the
    /// card's domains, then one domain); returns whether anything was taken.
    pub fn reduce_one_power(&mut self) -> bool {
        if self.any > 0 {
            self.any -= 1;
            return true;
        }
        if self.own > 0 {
            self.own -= 1;
            return true;
        }
        if let Some(p) = self.power.iter_mut().find(|p| **p > 0) {
            *p -= 1;
            return true;
        }
        false
    }

    /// Parses the written notation; `own` is the card's domain list, for `[C]` (135.2.e.6).
    pub fn parse(text: &str, own: &[Domain]) -> Result<Cost, String> {
        let mut cost = Cost::ZERO;
        let mut rest = text.trim();
        if rest.is_empty() {
            return Err("an empty cost; write [0] for no cost".into());
        }
        while !rest.is_empty() {
            let Some(body) = rest.strip_prefix('[') else {
                return Err(format!(
                    "expected `[` at `{rest}` (costs are written like [4][B])"
                ));
            };
            let Some(end) = body.find(']') else {
                return Err(format!("missing `]` in `{text}`"));
            };
            let sym = body[..end].trim();
            rest = body[end + 1..].trim_start();
            if !sym.is_empty() && sym.bytes().all(|b| b.is_ascii_digit()) {
                let n: Option<u8> = sym.parse().ok();
                cost.energy = n.and_then(|n| cost.energy.checked_add(n)).ok_or_else(|| {
                    format!(
                        "`[{sym}]` is out of range: a cost holds 0 to {} Energy",
                        u8::MAX
                    )
                })?;
                continue;
            }
            let slot = match sym {
                "A" => &mut cost.any,
                "C" => match own {
                    [d] => &mut cost.power[*d as usize],
                    [] => &mut cost.any,
                    _ => &mut cost.own,
                },
                s => match s.chars().next().and_then(Domain::from_letter) {
                    Some(d) if s.len() == 1 => &mut cost.power[d as usize],
                    _ => {
                        return Err(format!(
                        "unknown cost symbol `[{s}]`; expected a number or one of R G B O P Y A C"
                    ))
                    }
                },
            };
            *slot = slot.checked_add(1).ok_or_else(|| {
                format!(
                    "too many `[{sym}]`: a cost holds at most {} Power of one kind",
                    u8::MAX
                )
            })?;
        }
        Ok(cost)
    }
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.energy > 0 || self.power_total() == 0 {
            write!(f, "[{}]", self.energy)?;
        }
        for d in Domain::ALL {
            for _ in 0..self.power[d as usize] {
                write!(f, "[{}]", d.letter())?;
            }
        }
        for _ in 0..self.own {
            write!(f, "[C]")?;
        }
        for _ in 0..self.any {
            write!(f, "[A]")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_the_digest_notation() {
        let c = Cost::parse("[4][B]", &[Domain::Mind]).unwrap();
        assert_eq!(c.energy, 4);
        assert_eq!(c.power[Domain::Mind as usize], 1);
        assert_eq!(c.to_string(), "[4][B]");
        assert_eq!(Cost::parse("[1][A]", &[]).unwrap().to_string(), "[1][A]");
        assert_eq!(
            Cost::parse("[C]", &[Domain::Chaos]).unwrap().to_string(),
            "[P]"
        );
        // A multi-domain card's [C] stays one Power of its domains, not [A] (135.2.e.6.c).
        let c = Cost::parse("[1][C]", &[Domain::Fury, Domain::Mind]).unwrap();
        assert_eq!((c.own, c.any, c.power_total()), (1, 0, 1));
        assert_eq!(c.to_string(), "[1][C]");
        assert_eq!(Cost::parse("[C]", &[]).unwrap().any, 1);
        assert_eq!(Cost::parse("[0]", &[]).unwrap(), Cost::ZERO);
        assert!(Cost::parse("4B", &[]).is_err());
        assert!(Cost::parse("[X]", &[]).is_err());
        assert!(Cost::parse("[4", &[]).is_err());
    }

    #[test]
    fn counts_out_of_range_are_errors_not_wraps() {
        let e = Cost::parse("[256]", &[]).unwrap_err();
        assert!(e.contains("out of range") && e.contains("0 to 255"), "{e}");
        assert!(Cost::parse("[200][100]", &[])
            .unwrap_err()
            .contains("out of range"));
        let many_b = "[B]".repeat(256);
        assert!(Cost::parse(&many_b, &[])
            .unwrap_err()
            .contains("at most 255"));
        assert_eq!(Cost::parse(&"[B]".repeat(255), &[]).unwrap().power[2], 255);
        assert_eq!(Cost::parse("[255]", &[]).unwrap().energy, 255);
    }

    #[test]
    fn reductions_floor_at_zero() {
        let mut c = Cost::energy(1);
        assert_eq!(c.reduce_energy(2), 1);
        assert_eq!(c.energy, 0);
        assert!(!c.reduce_one_power());
    }
}
