//! The documentation of every rulebook field: its name in rulebook files, the rule it encodes
//! and what each of its values means (`rbcheck rules --list`, the explanations of a diff).

/// Documentation of one rulebook field.
#[derive(Clone, Copy, Debug)]
pub struct FieldDoc {
    /// The field's name in rulebook files.
    pub name: &'static str,
    /// The rule it encodes.
    pub rule: &'static str,
    /// What it means.
    pub doc: &'static str,
}

/// Every rulebook field with its rule, for `rbcheck rules --list` and for explaining diffs.
pub const FIELDS: &[FieldDoc] = &[
    FieldDoc {
        name: "repeat_on_abilities",
        rule: "820.1.a",
        doc: "abilities, not only spells, can have [Repeat] (RUP4)",
    },
    FieldDoc {
        name: "payments_per_instance",
        rule: "820.1.c.3",
        doc: "times one [Repeat] instance may be paid (the rules: 1)",
    },
    FieldDoc {
        name: "executions_per_instance",
        rule: "820.3",
        doc: "extra executions per paid instance (the rules: 1)",
    },
    FieldDoc {
        name: "component_discounts",
        rule: "356.4.c",
        doc: "a component discount applies when that component is added, to it alone (v1.3+)",
    },
    FieldDoc {
        name: "ezreal_scope",
        rule: "356.4.c, open question (a)",
        doc: "each-cost | once-per-play: Ezreal's discount per optional cost or once",
    },
    FieldDoc {
        name: "discount_per_execution",
        rule: "356.4, Temporal Portal FAQ",
        doc: "apply whole-card discounts once per execution (wrong: once per play)",
    },
    FieldDoc {
        name: "zero_cost_counts_as_paid",
        rule: "356.4.f.1",
        doc: "a chosen optional cost reduced to 0 still counts as paid",
    },
    FieldDoc {
        name: "linked_instructions",
        rule: "359.3.e.14",
        doc: "a linked instruction runs only if the one it refers to ran (v1.3+)",
    },
    FieldDoc {
        name: "leaving_chain_stops_execution",
        rule: "359.3.e.15",
        doc: "an item that leaves the chain mid-resolution stops executing (v1.3+)",
    },
    FieldDoc {
        name: "deflect",
        rule: "809.1.c",
        doc: "per-choice | per-item: how often Deflect adds its cost",
    },
    FieldDoc {
        name: "as_you_play_repeated",
        rule: "135.2.b.3",
        doc: "\"as you play\" instructions run again per extra execution (v1.2 reading)",
    },
    FieldDoc {
        name: "trigger_may",
        rule: "402.1, 383.3.a",
        doc: "at-trigger | at-choices: when a trigger's \"you may\" is decided",
    },
    FieldDoc {
        name: "play_event_per_execution",
        rule: "820.3.a",
        doc: "a play event per execution (wrong: played once)",
    },
    FieldDoc {
        name: "window_between_executions",
        rule: "158.3",
        doc: "priority between executions (wrong: none)",
    },
    FieldDoc {
        name: "refund_on_counter",
        rule: "425.1.c",
        doc: "a countered item's costs are refunded (wrong: no refund)",
    },
    FieldDoc {
        name: "countered_card_to_trash",
        rule: "425.1.a.1",
        doc: "a countered card goes to its owner's trash (wrong: it vanishes)",
    },
    FieldDoc {
        name: "undo_illegal_play",
        rule: "358.5",
        doc: "a failed play is undone (wrong: it stays pending)",
    },
    FieldDoc {
        name: "illegal_targets",
        rule: "359.3.e.5-7",
        doc: "ignored | affected-anyway: what happens to illegal targets",
    },
    FieldDoc {
        name: "extra_execution_choices",
        rule: "820.2.a",
        doc: "own | copy-first: each execution's own choices (wrong: the first one's copied)",
    },
    FieldDoc {
        name: "new_choices",
        rule: "750-755, 355.15",
        doc: "forbidden | subset | whole-set: what new choices may remake",
    },
    FieldDoc {
        name: "new_choices_scope",
        rule: "751.1, open question (d)",
        doc: "per-execution | whole-item: what \"not previously chosen\" compares with",
    },
    FieldDoc {
        name: "new_choices_reopen_repeat",
        rule: "752.2",
        doc: "new choices may change [Repeat] decisions (wrong: they may not)",
    },
    FieldDoc {
        name: "targeting_triggers",
        rule: "383.4.b.2, open question (b)",
        doc: "once-per-item | per-choice: Targeting Effects for an object chosen twice",
    },
    FieldDoc {
        name: "chosen_across",
        rule: "359.3.e.9.a, digest silent on Repeat",
        doc: "all-executions | one-execution: what a repeated item \"chooses\" for Not So Fast and Repulse",
    },
    FieldDoc {
        name: "in_showdown",
        rule: "316.8.b, 740.2.c, open (digest silent)",
        doc: "anywhere | at-battlefield | designated: what \"while I'm in a showdown\" asks of Syndra",
    },
    FieldDoc {
        name: "undo_gives_back_runes",
        rule: "358.5",
        doc: "an undone play gives back the runes its payment used (wrong: they stay spent)",
    },
    FieldDoc {
        name: "runes_only_for_the_cost",
        rule: "357.1.a",
        doc: "a payment uses runes only while its cost needs them (wrong: it may tap past the cost)",
    },
    FieldDoc {
        name: "kills_it",
        rule: "359.3.e.14, 321, digest silent",
        doc: "made-lethal | lethal-after: which deal \"if this kills it\" counts as the kill",
    },
    FieldDoc {
        name: "next_spell_grant_used_once",
        rule: "SFD-078, UNL-216 (\"the next spell you play this turn\")",
        doc: "a grant to the next spell is used up by it (wrong: every spell this turn gets it)",
    },
    FieldDoc {
        name: "undo_gives_back_grants",
        rule: "358.5",
        doc: "an undone play gives back the grant its spell took (wrong: the grant is lost)",
    },
    FieldDoc {
        name: "demand_paid_with_runes",
        rule: "357.1.a, 429.3, digest silent on demands",
        doc: "a demand (Hard Bargain) may be paid by exhausting runes (false: from the pool alone)",
    },
    FieldDoc {
        name: "priority_after_undone",
        rule: "358.5, digest silent on priority",
        doc: "restored | top-controller: who holds priority after a response is undone (restored: the player who tried, the passes before it kept)",
    },
    FieldDoc {
        name: "spell_played_by",
        rule: "419.4.a, digest silent on a change of control",
        doc: "controller | player: whose \"when you play a spell\" and play event a spell whose control changed has (its controller as it resolves, or who played it)",
    },
    FieldDoc {
        name: "damage_removed_at_end_of_turn",
        rule: "334.1, digest silent on damage",
        doc: "the damage marked on units is removed when the turn ends (false: it stays)",
    },
    FieldDoc {
        name: "stun_ends_at_end_of_turn",
        rule: "423, not in the digest",
        doc: "a unit's stun ends when the turn ends (false, the model's reading: it lasts past this turn)",
    },
    FieldDoc {
        name: "increase_per_choice",
        rule: "356.3, 809.1.c, digest silent on increases",
        doc: "\"spells that choose me cost [N] more\" adds [N] for each choice of the unit, as Deflect's errata reads Deflect (false: once per item)",
    },
    FieldDoc {
        name: "paid_read_after_control_change",
        rule: "356.2.b, 359.3.e.14, digest silent on a change of control",
        doc: "a spell's \"if you paid\" reads whether its optional cost was paid, whoever controls it now (false: paid only while the player who paid controls it)",
    },
];
