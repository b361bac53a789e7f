//! New choices (750–755, RUP4): an instruction pauses the resolving item while its controller
//! remakes any subset of a finalized item's choices (753), one remakeable target at a time in
//! declared order (752.1), each new one not previously made (751.1), with the Targeting Effects
//! of newly chosen objects (754). Choices made as the item was played, [Repeat] among them, stay
//! (752.2). The rulebook's variants (v1.2 forbids it; the guide remakes the whole set) are named
//! where they differ. Each step's guard sits above its effect.

use super::{on_chain, on_chain_mut, Game};
use crate::action::Action;
use crate::card::TargetSpec;
use crate::rulebook::{NewChoicesRule, NewChoicesScope, TargetingTriggers};
use crate::state::*;

impl Game {
    /// The targets of the item whose choices may be remade, in declared order.
    fn remakeable(&self, item: &ChainItem) -> Vec<(u8, u8, Obj)> {
        let mut out = vec![];
        for (e, ex) in item.choices.iter().enumerate() {
            for p in &ex.picks {
                if let Pick::Target { slot, obj } = p {
                    out.push((e as u8, *slot, *obj));
                }
            }
        }
        out
    }

    /// The item whose choices are being remade, its remakeable choices, and the cursor into them.
    fn new_choice_at(&self, s: &State) -> (u8, Vec<(u8, u8, Obj)>, usize) {
        let (_, for_item) = self.new_choices_item(s);
        let picks = s
            .item(for_item)
            .map(|t| self.remakeable(t))
            .unwrap_or_default();
        let cursor = self.new_choice_cursor(s, for_item);
        (for_item, picks, cursor)
    }

    /// How many remakeable choices have been decided since new choices began.
    fn new_choice_cursor(&self, s: &State, for_item: u8) -> usize {
        let start = s
            .log
            .iter()
            .rposition(|e| *e == Event::NewChoicesBegun { item: for_item })
            .expect("new choices began");
        s.log[start..]
            .iter()
            .filter(|e| {
                matches!(e, Event::ChoiceRemade { item, .. } | Event::ChoiceKept { item, .. } if *item == for_item)
            })
            .count()
    }

    /// The guards of new choices, at the cursor: DeclineNewChoices (750) before the first
    /// choice; KeepChoice (753) unless the guide's whole-set rule forbids keeping an illegal one;
    /// RemakeChoice (751–753) for each legal object not previously chosen (751.1); and, under a
    /// wrong rulebook only, ReopenRepeat (752.2 forbids it).
    pub(super) fn new_choice_actions(&self, s: &State, id: u8, out: &mut Vec<Action>) {
        let Phase::NewChoices { for_item, .. } = on_chain(s, id).phase else {
            return;
        };
        let Some(target) = s.item(for_item) else {
            out.push(Action::DeclineNewChoices);
            return;
        };
        let picks = self.remakeable(target);
        let cursor = self.new_choice_cursor(s, for_item);
        if cursor == 0 {
            out.push(Action::DeclineNewChoices);
            if self.rules.new_choices_reopen_repeat() {
                for (i, r) in target.repeat.iter().enumerate() {
                    if r.paid == 0 {
                        out.push(Action::ReopenRepeat { instance: i as u8 });
                    }
                }
            }
        }
        if cursor >= picks.len() {
            out.push(Action::KeepChoice); // closes the new choices
            return;
        }
        // The guide: "if you use it, all resulting choices must be legal" (753.1 agrees): with a
        // choice that has no legal option at all, only declining is possible.
        if cursor == 0 && self.rules.new_choices() == NewChoicesRule::WholeSet {
            let possible = picks.iter().all(|(pe, ps, _)| {
                let ex = &target.choices[*pe as usize];
                let spec = self.card(target.card).modes[ex.mode.unwrap_or(0) as usize].instructions
                    [*ps as usize]
                    .target;
                spec.is_some_and(|spec| {
                    !self
                        .candidates(s, target, spec, target.controller)
                        .is_empty()
                })
            });
            if !possible {
                return;
            }
        }
        let (e, slot, old) = picks[cursor];
        let def = self.card(target.card);
        let ex = &target.choices[e as usize];
        let spec = def.modes[ex.mode.unwrap_or(0) as usize].instructions[slot as usize]
            .target
            .expect("target slot");
        let old_legal = self
            .candidates(s, target, spec, target.controller)
            .contains(&old);
        // 753: keep this choice. The guide remakes the whole set, so an illegal old choice
        // cannot be kept there ("you cannot reuse A").
        // 753.1: the remade set must meet every restriction the choice had at 355.
        if (self.rules.new_choices() != NewChoicesRule::WholeSet || old_legal)
            && self.remade_set_possible(s, target, &picks, cursor, spec, old)
        {
            out.push(Action::KeepChoice);
        }
        for obj in self.candidates(s, target, spec, target.controller) {
            let same_slot_taken = ex.targets(slot).any(|o| o == obj && o != old);
            if same_slot_taken || !self.remade_set_possible(s, target, &picks, cursor, spec, obj) {
                continue;
            }
            let fresh = self.fresh(target, e, obj);
            // 751.1: a new choice is one not previously made; the guide allows the same again.
            let allowed = match self.rules.new_choices() {
                NewChoicesRule::Subset => fresh,
                _ => obj != old || old_legal,
            };
            if allowed && !(obj == old && self.rules.new_choices() == NewChoicesRule::WholeSet) {
                out.push(Action::RemakeChoice { obj });
            }
        }
    }

    /// 751.1: whether `obj` was not previously chosen (by execution `e`, or by the whole item).
    fn fresh(&self, target: &ChainItem, e: u8, obj: Obj) -> bool {
        match self.rules.new_choices_scope() {
            NewChoicesScope::PerExecution => !target
                .ever_chosen
                .iter()
                .any(|(pe, o)| *pe == e && *o == obj),
            NewChoicesScope::WholeItem => !target.ever_chosen.iter().any(|(_, o)| *o == obj),
        }
    }

    /// 753.1 with 355's restrictions across a slot ("other", "at the same location"): whether
    /// `obj` at the cursor (the old choice when kept) leaves the execution's set of choices for
    /// that slot completable as a legal one. Earlier choices of the slot are final; each later
    /// one either keeps its old choice at the location or takes a new one there.
    fn remade_set_possible(
        &self,
        s: &State,
        target: &ChainItem,
        picks: &[(u8, u8, Obj)],
        cursor: usize,
        spec: TargetSpec,
        obj: Obj,
    ) -> bool {
        let (e, slot, _) = picks[cursor];
        let ex = &target.choices[e as usize];
        // "Other": not what the previous instruction of this execution chose (already final).
        if spec.other
            && slot
                .checked_sub(1)
                .is_some_and(|p| ex.targets(p).any(|o| o == obj))
        {
            return false;
        }
        if !spec.same_location {
            return true;
        }
        let group: Vec<usize> = (0..picks.len())
            .filter(|&i| picks[i].0 == e && picks[i].1 == slot)
            .collect();
        let Some(pos) = group.iter().position(|&i| i == cursor) else {
            return true;
        };
        let current: Vec<Obj> = ex.targets(slot).collect();
        let loc = self.location_of(s, obj);
        if current[..pos]
            .iter()
            .any(|o| self.location_of(s, *o) != loc)
        {
            return false;
        }
        let need = group[pos + 1..]
            .iter()
            .filter(|&&i| self.location_of(s, picks[i].2) != loc)
            .count();
        let spare = self
            .candidates(s, target, spec, target.controller)
            .into_iter()
            .filter(|c| {
                *c != obj
                    && !current.contains(c)
                    && self.location_of(s, *c) == loc
                    && self.fresh(target, e, *c)
            })
            .count();
        spare >= need
    }

    /// KeepChoice's effect (753): the choice at the cursor stays; after the last, new choices
    /// end.
    pub(super) fn keep_choice(&self, s: &mut State) {
        let (for_item, picks, cursor) = self.new_choice_at(s);
        if cursor >= picks.len() {
            return self.end_new_choices(s);
        }
        let (e, slot, old) = picks[cursor];
        s.log.push(Event::ChoiceKept {
            item: for_item,
            exec: e,
            slot,
        });
        if self.rules.new_choices() == NewChoicesRule::WholeSet
            && self.rules.targeting_triggers() == TargetingTriggers::PerChoice
        {
            // The guide: a targeting ability can trigger again even for the same target.
            if let Obj::Unit(u) = old {
                let chooser = s
                    .item(for_item)
                    .map(|t| t.controller)
                    .unwrap_or(Player::YOU);
                self.fire_when_chosen(s, u, chooser, true);
            }
        }
        if cursor + 1 >= picks.len() {
            self.end_new_choices(s);
        }
    }

    /// RemakeChoice's effect (751–753): the choice at the cursor becomes `obj`, in place; a newly
    /// targeted object's Targeting Effects trigger (754, counted by coverage from the trigger's
    /// event); after the last, new choices end.
    pub(super) fn remake_choice(&self, s: &mut State, obj: Obj) {
        let (for_item, picks, cursor) = self.new_choice_at(s);
        let (e, slot, old) = picks[cursor];
        let target = on_chain_mut(s, for_item);
        let ex = &mut target.choices[e as usize];
        // Replace the old pick in place: the execution keeps its declared order.
        let mut seen = 0;
        let nth = picks[..cursor]
            .iter()
            .filter(|(pe, ps, _)| *pe == e && *ps == slot)
            .count();
        for p in ex.picks.iter_mut() {
            if let Pick::Target { slot: ps, obj: po } = p {
                if *ps == slot {
                    if seen == nth {
                        debug_assert_eq!(*po, old);
                        *po = obj;
                        break;
                    }
                    seen += 1;
                }
            }
        }
        // 754: "an object it did not target before" triggers once per object, however many
        // choices now name it; the per-choice reading (the guide) keeps every choice's trigger.
        let targeted_before = target.ever_chosen.iter().any(|(_, o)| *o == obj);
        let fires = match self.rules.targeting_triggers() {
            TargetingTriggers::OncePerItem => !targeted_before,
            TargetingTriggers::PerChoice => {
                obj != old || self.rules.new_choices() == NewChoicesRule::WholeSet
            }
        };
        target.ever_chosen.push((e, obj));
        let chooser = target.controller;
        s.log.push(Event::ChoiceRemade {
            item: for_item,
            exec: e,
            slot,
            obj,
        });
        // 755: the Deflect of a newly targeted object is ignored.
        if let Obj::Unit(u) = obj {
            if fires {
                self.fire_when_chosen(s, u, chooser, true);
            }
        }
        if cursor + 1 >= picks.len() {
            self.end_new_choices(s);
        }
    }

    /// ReopenRepeat's effect, a wrong edit only (752.2 forbids it): an unpaid [Repeat] instance
    /// becomes paid during new choices, adding an execution with the last one's choices.
    pub(super) fn reopen_repeat(&self, s: &mut State, instance: u8) {
        let (_, for_item) = self.new_choices_item(s);
        let target = on_chain_mut(s, for_item);
        target.repeat[instance as usize].paid += 1;
        target.repeat[instance as usize].decided = true;
        let copy = target.choices.last().cloned().unwrap_or_default();
        target.choices.push(copy);
        s.log.push(Event::RepeatDeclared {
            item: for_item,
            instance,
            pay: true,
        });
    }

    /// The item paused for new choices and the item whose choices it remakes.
    fn new_choices_item(&self, s: &State) -> (u8, u8) {
        s.chain
            .iter()
            .find_map(|i| match i.phase {
                Phase::NewChoices { for_item, .. } => Some((i.id, for_item)),
                _ => None,
            })
            .expect("an item making new choices")
    }

    /// DeclineNewChoices' effect (750), and the end of new choices after the last choice: the
    /// paused item resumes; the permission was its last instruction, so its execution is done.
    pub(super) fn end_new_choices(&self, s: &mut State) {
        let (id, for_item) = self.new_choices_item(s);
        let Phase::NewChoices { exec, .. } = on_chain(s, id).phase else {
            unreachable!()
        };
        s.log.push(Event::NewChoicesEnded { item: for_item });
        on_chain_mut(s, id).phase = Phase::Resolving { done: exec };
        // The permission is the item's last instruction (the catalogue checks it), so the
        // execution is complete.
        self.after_execution(s, id, exec);
    }
}
