//! Clusters as a run forms them: each hit joins the cluster of its cause, a new cause makes
//! (and shrinks) a new finding, and a symptom cluster is held until the run ends, then joins the
//! cause cluster cured by the same decision or is reported itself.

use super::*;

/// True if the symptom cluster `weak` is one of the cause cluster `cause`: the same decision
/// cures both, or the decision that cures it brings about the rule `cause` is named by.
fn cures(weak: &Finding, cause: &Finding) -> bool {
    let same = weak.decisive.is_some() && weak.decisive == cause.decisive;
    let brought = crate::clauses::clauses_of(&cause.cited)
        .iter()
        .any(|c| weak.cured.contains(c));
    same || brought
}

/// One case that is a finding, before it is filed.
pub(super) struct Hit<'o> {
    pub(super) outcome: &'o Outcome,
    /// Triage's cause on the case as generated.
    pub(super) kind: String,
    pub(super) case: Case,
    pub(super) i: usize,
}

/// Where a cluster is: reported, or held until the run ends.
#[derive(Clone, Copy)]
enum Slot {
    Reported(usize),
    Held(usize),
}

/// The clusters of a run as they form. A cluster is named on its shrunk case; the cause triage
/// gives the unshrunk case of a later hit only says which cluster it joins.
#[derive(Default)]
pub(super) struct Clusters {
    /// Triage's cause on a generated case -> its cluster.
    alias: BTreeMap<String, Slot>,
    /// Symptom clusters a decision cures, held until the run ends: then each joins a cause
    /// cluster cured by the same decision, or is reported.
    held: Vec<Finding>,
}

impl Clusters {
    /// Files a hit in its cluster, making (and shrinking) a new one if its cause is new; true
    /// if a finding was reported.
    pub(super) fn file(
        &mut self,
        report: &mut FuzzReport,
        checker: &mut Checker,
        recipe: &Recipe,
        cfg: &FuzzConfig,
        hit: Hit,
    ) -> bool {
        if let Some(slot) = self.alias.get(&hit.kind) {
            let f = match *slot {
                Slot::Reported(n) => &mut report.findings[n],
                Slot::Held(n) => &mut self.held[n],
            };
            f.add_case(hit.i, hit.outcome);
            return false;
        }
        let kind = hit.kind.clone();
        let finding = new_finding(checker, recipe, cfg, hit.outcome, hit.kind, hit.case, hit.i);
        let same_name = |f: &Finding| f.kind == finding.kind;
        let same_cure = |f: &Finding| !f.weak && cures(&finding, f);
        let joins = match report.findings.iter().position(same_name) {
            Some(n) => Some(Slot::Reported(n)),
            None => self.held.iter().position(same_name).map(Slot::Held),
        }
        .or_else(|| {
            (finding.weak && finding.decisive.is_some())
                .then(|| report.findings.iter().position(same_cure))
                .flatten()
                .map(Slot::Reported)
        });
        let slot = match joins {
            Some(slot) => {
                match slot {
                    Slot::Reported(n) => report.findings[n].absorb(finding),
                    Slot::Held(n) => self.held[n].absorb(finding),
                }
                slot
            }
            None if finding.weak && finding.decisive.is_some() && !cfg.stop_at_first_finding => {
                self.held.push(finding);
                Slot::Held(self.held.len() - 1)
            }
            None => {
                let flagged = replay_twice(checker, &finding);
                let n = reported(report, finding, flagged);
                self.alias.insert(kind, Slot::Reported(n));
                return true;
            }
        };
        self.alias.insert(kind, slot);
        false
    }

    /// At the end of the run: each held cluster joins a reported cause cluster cured by the
    /// same decision, or is reported itself. True if any was reported.
    pub(super) fn release(&mut self, report: &mut FuzzReport, checker: &mut Checker) -> bool {
        let mut any = false;
        for f in std::mem::take(&mut self.held) {
            let cure = |g: &Finding| !g.weak && cures(&f, g);
            if let Some(n) = report.findings.iter().position(cure) {
                report.findings[n].absorb(f);
                continue;
            }
            let flagged = replay_twice(checker, &f);
            reported(report, f, flagged);
            any = true;
        }
        any
    }
}

/// Reports a finding (and the finding a second replay flags, if any), each numbered by its
/// position; the finding's position.
fn reported(report: &mut FuzzReport, mut f: Finding, flagged: Option<Finding>) -> usize {
    let n = report.findings.len();
    f.filed = vec![n];
    report.findings.push(f);
    if let Some(mut g) = flagged {
        g.filed = vec![n + 1];
        report.findings.push(g);
    }
    n
}
