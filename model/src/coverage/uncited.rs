//! The numbers the rules digest gives that the model does not cite, each with how the model
//! stands to it. With `CLAUSES` this accounts for every number of the digest, so a rule the model
//! applies but never names cannot hide: a test fails on a number in neither table, and a
//! fuzzing finding, a coverage report or a generated goal can only name what is cited.

/// How the model stands to a number of the digest it does not cite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stance {
    /// Not a rule: a card's collector number, a seed document, a ruling's number.
    NotARule,
    /// A heading or a range's end: the clauses under it carry the rules.
    Heading,
    /// The model applies it by not offering a step; the refusal's explanation says why.
    Refusal,
    /// The model applies it in a step or event that cites another clause (the note says which).
    Within,
    /// A rulebook option decides it (the field named in the note).
    Rulebook,
    /// Outside the model: the note says what it is and why it is not modelled.
    NotModelled,
}

/// Every number of the digest that `CLAUSES` lacks: the number, the stance, and a note in the
/// model's words (what the rule is about, and where the model applies it or why it does not).
pub const UNCITED: &[(&str, Stance, &str)] = &[
    ("002", Stance::NotARule, "number of the seed holding rup4 820 and faq entries (seed 002_ae17c15c0f79a2f3.txt)"),
    ("055", Stance::Within, "do as much card text as possible, skipping impossible instructions: shown by Event::Ignored { why: IgnoredWhy::Impossible }, which cites another clause (golden rule; the mode's other instructions still run (model/src/game/instruction.rs fn run_instruction))"),
    ("056.2", Stance::Within, "a card headed to another player's zone goes to its owner's instead: model/src/game/instruction.rs fn counter, fn kill; model/src/game/resolve.rs fn finish_resolution; model/src/game/combat.rs fn return_to_owners_hand (units and chain items carry an owner (a stolen spell goes to its owner's trash); gear has no owner and goes to its controller's trash)"),
    ("108.1.b", Stance::NotModelled, "cards and abilities on the chain are public information: privacy is not modelled: every chain item is visible to the model"),
    ("124", Stance::Within, "an object moving to or from a non-board zone becomes new: shown by Event::ZoneChange, which cites another clause (a unit off the board keeps its index and never meets a target spec again (model/src/game/target.rs fn unit_meets); fn return_to_owners_hand clears its statuses (124.1))"),
    ("131.1", Stance::Within, "main deck cards carry a printed cost: model/src/game/cost.rs fn determine_total_cost (the base cost is CardDef::cost, Energy plus Power (model/src/cost.rs struct Cost))"),
    ("131.3", Stance::Within, "the power part of a cost is its domain symbols: model/src/cost.rs struct Cost; model/src/game/cost.rs fn payment_options (Power kept per domain and paid from that domain's pool)"),
    ("131.4", Stance::Within, "a card's cost, when something asks, is its printed cost: model/src/game/target.rs fn item_meets; model/src/game/play.rs fn move_to_chain (v1.3 number of the printed-cost rule, now 206 (Defy's limits, Temporal Portal's Repeat))"),
    ("135.2.b.3", Stance::Rulebook, "instructions run when they say, else during resolution: rulebook field `as_you_play_repeated` (as-you-play instructions run once in Finalize (model/src/game/finalize.rs fn finalize); true (v1.2) reruns them per extra execution in fn execute)"),
    ("135.2.e", Stance::Heading, "rules text symbols such as [a], [c], [e] and [m] (heading; 135.2.e.6.c (also uncited) is applied in PayCosts; symbols parsed in model/src/cost.rs)"),
    ("135.2.e.6.c", Stance::Within, "[c] on a multi-domain card means power of any of its domains: shown by Action::PayCosts, which cites another clause (Cost::own split over the card's domains in model/src/game/cost.rs fn payment_options (Danger Zone))"),
    ("151.2", Stance::Refusal, "gear abilities activate only in controller's open main phase, no showdown: model/src/game/activate.rs fn activation_refused (refuses Action::ActivateAbility; the model cites 145.2, the units' twin clause, for gear)"),
    ("154", Stance::NotARule, "number of a community faq page, not a rule (riftjudge FAQ page 154)"),
    ("158", Stance::Heading, "resolving a spell means executing its rules text (named only in a range list; 158.3 and 158.3.a (also uncited) carry the rules)"),
    ("158.3", Stance::Rulebook, "while an item resolves nothing else is finalized or resolved: rulebook field `window_between_executions` (false by default; model/src/game/mod.rs fn turn also runs a resolving item first and its triggers wait in State::queued)"),
    ("158.3.a", Stance::Within, "finish the whole spell before handling items or tasks it made: shown by Action::FinishResolution, which cites another clause (fn finish_resolution places queued tokens and triggers; the cleanup follows)"),
    ("163", Stance::Within, "runes produce energy and domain power: shown by Action::ExhaustRune, Action::RecycleRune, which cites another clause (Energy has no domain, Power one per domain (model/src/cost.rs); universal Power in a pool is not modelled)"),
    ("166", Stance::Within, "the rune pool holds added energy and power for paying costs: model/src/game/runes.rs fn exhaust_rune, fn recycle_rune; model/src/game/cost.rs fn pay_costs (PlayerState::pool: rune steps add to it, PayCosts spends from it)"),
    ("185.2.a", Stance::Within, "tokens are played through the normal steps of playing a card: shown by Event::MovedToChain (card = the token) after Event::TokenQueued, which cites another clause (model/src/game/resolve.rs fn place_queued; a token makes its choices (ChooseLocation), pays no cost, then Finalize)"),
    ("190", Stance::NotARule, "number of a community ruling, not a rule (app.riftjudge.com ruling 190)"),
    ("203.2", Stance::NotModelled, "a cost still counts paid if its action is replaced: replacement effects are not modelled"),
    ("203.3", Stance::Refusal, "a cost whose action is impossible cannot be paid: model/src/game/cost.rs fn payment_options; model/src/game/unit_cost.rs fn unit_costs_payable (refuses Action::PayCosts; the play is then undone by Action::CancelPlay { why: CannotPay })"),
    ("204", Stance::Heading, "costs are base, additional, within instructions or applied (heading; 204.3 and 204.4 also uncited; base and additional costs are 356 and 356.2.a/b)"),
    ("204.3", Stance::NotModelled, "costs written as do x to do y inside instructions: no catalogue card has one; a trigger's base cost is always zero (model/src/game/cost.rs fn determine_total_cost)"),
    ("204.4", Stance::NotModelled, "applied costs are paid as a game action is performed: no catalogue card has an applied cost"),
    ("206.1", Stance::NotModelled, "anything reading an ability's cost uses its base cost: no modelled effect reads an ability's cost"),
    ("303.2.a", Stance::NotModelled, "simultaneous triggers are ordered by turn order from the turn player: triggers go on the chain in a fixed order (choice or board order); no player orders them"),
    ("308", Stance::Refusal, "a showdown or combat in progress puts the turn in showdown state: model/src/game/play.rs fn may_play_now; model/src/game/activate.rs fn activation_refused (in a showdown only [Action]/[Reaction] cards: refuses Action::MoveToChain and Action::ActivateAbility; State::showdown is a fixed setup flag)"),
    ("309.1", Stance::Refusal, "while a chain exists the turn is in a closed state: model/src/game/play.rs fn may_play_now; model/src/game/activate.rs fn activation_refused (a non-empty chain refuses Action::MoveToChain without [Reaction] and every Action::ActivateAbility)"),
    ("309.1.a", Stance::Refusal, "only reaction cards and abilities can be played in a closed state: model/src/game/play.rs fn may_play_now (refuses Action::MoveToChain; model/src/game/refused.rs reports it as 358.4)"),
    ("310", Stance::Heading, "the four combined states: neutral or showdown, open or closed (summary; the model combines State::showdown with chain emptiness (model/src/game/play.rs fn may_play_now))"),
    ("311", Stance::Heading, "heading for priority and focus (range start; priority is State::priority; focus (313) is not modelled)"),
    ("312.1.b.1", Stance::Within, "limited actions such as paying and choosing need no priority: model/src/game/mod.rs fn turn (play steps and decisions inside an execution run while State::priority is None)"),
    ("312.2", Stance::Heading, "the moments when a player receives priority (312.2.c in model/src/game/resolve.rs fn after_chain_change; 312.2.d by Pass (338.1.b); 312.2.b (focus) not modelled)"),
    ("312.2.c", Stance::Within, "once pending items are finalized, next item's controller gets priority: model/src/game/resolve.rs fn after_chain_change (no event shows priority being gained)"),
    ("313", Stance::NotModelled, "focus lets a player start chains in a showdown; passing keeps it: focus is not modelled (model/src/setup.rs refuses several plays in a showdown)"),
    ("318", Stance::Heading, "heading for cleanups; under it: 321 (range start of 318–324; 321 carries what the model does)"),
    ("321.1", Stance::Within, "a cleanup-worthy event during resolution makes a cleanup outstanding: model/src/game/instruction.rs fn deal, fn give_might; model/src/game/resolve.rs fn cleanup_outstanding (State::cleanup_due; the cleanup runs after the resolution as Action::Cleanup (321))"),
    ("324", Stance::Heading, "special cleanups add extra steps at set times; under it: 321 (range end; Action::EndTurn does the end-of-turn cleanup's added steps (heal, this turn ends, pools empty) without a cleanup; combat cleanups not modelled)"),
    ("326", Stance::Heading, "v1.2 start of the chain procedure range; under it: 338.1.b, 339, 340.1, 340.2 (v1.2 number (rup4 326 lists windows of opportunity); the v1.2 active player designation is not modelled)"),
    ("327", Stance::Heading, "heading for chains; under it: 338.1.b, 339, 340.1, 340.2 (range start of 327–348)"),
    ("328", Stance::Within, "the chain is a temporary non-board zone for items being played: model/src/state/mod.rs State::chain (items are added by model/src/game/play.rs fn push_pending)"),
    ("328.1", Stance::Within, "cards, abilities and tokens go on the chain as they are played: shown by Event::MovedToChain, which cites another clause (tokens too (model/src/game/resolve.rs fn place_queued), and triggers and activations)"),
    ("329.1", Stance::Within, "pending items are already on the chain: model/src/state/mod.rs ChainItem::is_pending (phases Choosing to Legal; Legal stays pending until Finalize, one step later than 329.2 says)"),
    ("329.3", Stance::Within, "an item no longer pending becomes a finalized chain item: shown by Event::Finalized, which cites another clause (logged by Action::Finalize)"),
    ("330", Stance::Within, "the chain exists as long as an item is on it: shown by Event::ChainClosed, which cites another clause (logged by model/src/game/turn.rs fn chain_closed when the last item leaves)"),
    ("330.1", Stance::Within, "only one chain can exist at a time: model/src/state/mod.rs State::chain (the state holds a single chain)"),
    ("330.2", Stance::Within, "a card played while a chain exists joins that chain: shown by Event::MovedToChain, which cites another clause (model/src/game/play.rs fn push_pending appends to State::chain)"),
    ("331", Stance::Refusal, "a chain means a closed state where cards and abilities are barred: model/src/game/play.rs fn may_play_now; model/src/game/activate.rs fn activation_refused (refuses Action::MoveToChain without [Reaction] and Action::ActivateAbility while a chain exists)"),
    ("332", Stance::Heading, "heading for handling tasks and resolving chain items; under it: 334.1 (range start of 332–336 (hot fepr))"),
    ("334.2", Stance::Within, "once tasks are done, pending items go through fepr: model/src/game/mod.rs fn turn (an outstanding cleanup is checked before a pending item's steps)"),
    ("334.2.a", Stance::Within, "tasks arising during fepr wait until the current step ends: model/src/game/mod.rs fn turn (checked between the model's steps, which are finer than fepr's; no task arises mid-play with its cards)"),
    ("335", Stance::Within, "with nothing pending or outstanding in main phase, turn player gets priority: model/src/game/turn.rs fn chain_closed, fn may_start_chain (only Player::YOU may start a chain in the open state)"),
    ("335.1", Stance::NotModelled, "in a showdown the focus holder receives priority: focus is not modelled"),
    ("336", Stance::Heading, "with pending items and no tasks, follow the fepr process; under it: 338.1.b, 339, 340.1 (range end of 332–336 and of v1.2's 326–336)"),
    ("336.1", Stance::Within, "v1.2: the newest item on the chain resolves: shown by Action::Resolve, which cites another clause (v1.2 wording of 340.1; pending items are always finalized first, so the newest item is the newest finalized one)"),
    ("337", Stance::Heading, "finalize step of fepr (337.1–337.4 (also uncited) carry it)"),
    ("337.1", Stance::Within, "the oldest pending item's controller plays it until finalized: model/src/game/mod.rs fn turn, fn pending_index (the play steps always run on the oldest pending item)"),
    ("337.1.a", Stance::Within, "finalizing an item does not pass priority: model/src/game/resolve.rs fn after_chain_change (no Event::Passed; priority goes to the newest item's controller with passes reset)"),
    ("337.1.b", Stance::Within, "items are finalized in the order they were added: model/src/game/mod.rs fn turn (takes the first pending item, oldest first)"),
    ("337.2", Stance::Within, "units, gear and add abilities resolve right after finalizing: shown by Action::Finalize, which cites another clause (a unit or token enters in Finalize (Event::UnitEntered); a gear from hand in Finalize too (Event::GearEntered); rune Adds resolve at once in ExhaustRune/RecycleRune)"),
    ("337.4", Stance::Within, "with nothing left to finalize, next item's controller gets priority: model/src/game/resolve.rs fn after_chain_change"),
    ("338", Stance::Heading, "execute step of fepr; under it: 338.1.b"),
    ("338.1.a.5", Stance::Within, "the first priority holder may add more items to the new chain: shown by Action::MoveToChain, which cites another clause (after Finalize the item's controller holds priority and may add a [Reaction])"),
    ("340", Stance::Heading, "resolve step of fepr; under it: 340.1, 340.2"),
    ("340.2.a", Stance::NotModelled, "in a showdown focus passes when the chain ends, with exceptions: focus is not modelled (model/src/setup.rs refuses several plays in a showdown)"),
    ("340.3", Stance::Within, "after a resolution, pending items send play back to finalize: model/src/game/mod.rs fn turn; model/src/game/resolve.rs fn after_chain_change"),
    ("340.4", Stance::Within, "with no pending items, the newest item's controller gets priority: model/src/game/resolve.rs fn after_chain_change"),
    ("341", Stance::Heading, "heading for showdowns (range start of 341–348; a showdown is a setup flag only, focus is not modelled)"),
    ("342", Stance::NotARule, "a character count of a rules file, not a rule (FacuNGodoy/riftbound-rules-chatbot docs/core_rules.md (342,653 chars))"),
    ("346", Stance::NotModelled, "when a showdown's chain ends, focus passes to the next player: focus is not modelled; 346 is also the v1.1/v1.2 number of playing cards"),
    ("346.1", Stance::NotModelled, "focus stays if a trigger or add ability opened the chain: focus is not modelled"),
    ("347.1.b", Stance::NotModelled, "when the focus holder's chain closes, focus passes on: focus is not modelled"),
    ("347.2.a", Stance::NotModelled, "if all players pass in sequence, the showdown ends: showdowns never end in the model"),
    ("348", Stance::NotModelled, "if all pass focus without playing, the showdown closes: showdowns never end in the model"),
    ("349", Stance::Heading, "heading for playing cards; under it: 354, 355.1.a, 356, 357, 358, 359 (range 349–359)"),
    ("350", Stance::Heading, "playing a card is a player using their cards; under it: 350.2 (350.1 (also uncited) is shown by Event::Played)"),
    ("350.1", Stance::Within, "a card counts as played only when the whole process ends: shown by Event::Played, which cites another clause (at FinishResolution for a spell, on entering the board for a unit or token)"),
    ("351", Stance::Heading, "permanents become game objects; spells execute then go to trash (351.1–351.2 uncited; same content as 359.2 (Event::UnitEntered) and 359.3.d (fn finish_resolution))"),
    ("352", Stance::Heading, "cards being played are pending, then finalized chain items (352.1–352.2 uncited; state::Phase and Event::Finalized)"),
    ("352.1", Stance::Within, "v1.2: choices a card asks for as played are made now: shown by Action::DeclareRepeat, Action::DeclareOptionalCost, which cites another clause (v1.2 number of 355.1; its spells-only wording matches repeat_on_abilities = false in v1.2)"),
    ("352.15", Stance::Rulebook, "v1.2: choices made while playing can never change: rulebook field `new_choices` (v1.2 number of 355.15 without its exception: new_choices = forbidden in v1.2 and v1.3)"),
    ("353", Stance::Rulebook, "v1.2 total cost step: discounts in any order, no component rule: rulebook field `component_discounts` (v1.2 number; component_discounts = false in v1.2; in rup4 353 heads the process of play)"),
    ("353.4.d.1", Stance::Within, "v1.2: an optional cost reduced to zero still counts as paid: shown by Event::RepeatCostAdded or Event::OptionalCostAdded with cost zero, which cites another clause (v1.2 number of the cited 356.4.f.1; rulebook zero_cost_counts_as_paid)"),
    ("354.1", Stance::Within, "moving a card to the chain closes the state: shown by Action::MoveToChain, Action::ActivateAbility, which cites another clause (afterwards only [Reaction] cards may be played (model/src/game/play.rs fn may_play_now))"),
    ("354.2", Stance::Within, "the item on the chain is pending until finalized: shown by Event::MovedToChain, which cites another clause (the item starts in Phase::Choosing)"),
    ("354.4", Stance::Within, "finish outstanding tasks before continuing a play: model/src/game/mod.rs fn turn (an outstanding cleanup is checked before a pending item's steps)"),
    ("355", Stance::Heading, "make the relevant choices step of playing; under it: 355.1.a, 355.2, 355.3, 355.4, 355.5, 355.8, 355.13, 355.10.d"),
    ("355.1", Stance::Within, "choices a card asks for as it is played are made now: shown by Action::DeclareRepeat, Action::DeclareOptionalCost, which cites another clause (the model's only as-played choices are optional costs (355.1.a, cited))"),
    ("355.10", Stance::Heading, "a mentioned object is a target unless an exception applies; under it: 355.10.d"),
    ("355.10.b", Stance::Within, "mentions that only restrict or permit, like at a battlefield, aren't targets: model/src/game/target.rs fn unit_meets; model/src/state/mod.rs ExecChoices::objects (places and destinations are never targets: Deflect and Targeting Effects read only Pick::Target)"),
    ("355.10.e", Stance::NotModelled, "objects other players choose are not targets and are picked on resolution: no catalogue card has other players choose objects"),
    ("355.11", Stance::Refusal, "a group of targets may have to meet a requirement together: model/src/game/play.rs fn choose_target_actions (same_location (Bellows Breath) refuses Action::ChooseTarget elsewhere; not rechecked at resolution (355.11.b))"),
    ("355.12", Stance::NotModelled, "a spell letting a player act on n objects targets them now: no catalogue spell says a player may act on chosen objects"),
    ("355.14", Stance::NotModelled, "split damage: each unit chosen is a target, amounts set on resolution: no split-damage card is modelled"),
    ("355.14.d", Stance::NotModelled, "each split target counts for targeting effects on its own: split damage is not modelled; the repeat analogue is rulebook targeting_triggers"),
    ("355.14.e", Stance::NotModelled, "how split damage is divided is decided on resolution: split damage is not modelled"),
    ("355.15", Stance::Rulebook, "play choices stay fixed unless a spell or ability says otherwise: rulebook field `new_choices` (forbidden in v1.2 and v1.3; rup4 allows remaking via 750–755)"),
    ("355.16", Stance::Refusal, "no choices that surely make later choices or actions illegal: model/src/game/play.rs fn choose_mode_actions, fn mode_has_legal_choices (refuses Action::ChooseMode for a mode without legal targets; model/src/game/unit_cost.rs fn unit_options spares chosen units); `Game::refusal` gives it as the reason (model/src/game/refused.rs)"),
    ("355.17", Stance::Within, "other choices an item needs are made on resolution: shown by Action::DrawLooked, Action::RecycleLooked, Action::PayDemand, which cites another clause (also Action::DiscardForCost while \"discard N\" executes)"),
    ("355.4.a", Stance::Refusal, "a move destination must differ from the unit's current location: model/src/game/target.rs fn destinations, fn destination_ok (refuses Action::ChooseDestination; rechecked on resolution (Event::Ignored, Impossible)); `Game::refusal` gives it as the reason (model/src/game/refused.rs)"),
    ("355.5.a", Stance::Within, "objects picked by criteria, like kill all gear, aren't choices: shown by Event::GroupAffected, which cites another clause (Danger Zone's \"your Mechs\"; the event is cited as 355.10.d)"),
    ("355.5.b", Stance::Within, "a trigger's choices are made when that trigger is finalized: model/src/game/play.rs fn put_trigger_on_chain (a trigger is its own pending item with its own choice steps)"),
    ("355.6", Stance::Heading, "heading for targeting; under it: 355.8, 355.13, 355.10.d (range 355.6–355.14)"),
    ("355.7", Stance::Within, "an object picked specifically counts as a target unless excluded: shown by Action::ChooseTarget, which cites another clause (every chosen object fills a target slot; group effects (355.10.d) are untargeted)"),
    ("355.9", Stance::Refusal, "a valid target is on board or chain, meets restrictions, not itself: model/src/game/target.rs fn candidates, fn unit_meets, fn item_meets (refuses Action::ChooseTarget (model/src/game/refused.rs reports it as 355.8))"),
    ("356.1", Stance::Heading, "first step of the total: modify the base cost (the model has no base-cost modifiers; the base is the printed cost)"),
    ("356.1.a", Stance::NotModelled, "a play-for cost replaces the card's base cost: no card in the catalogue is played for an alternate cost"),
    ("356.1.b.1", Stance::NotModelled, "ignoring a cost sets that base cost to zero: no effect in the model ignores costs"),
    ("356.1.b.3", Stance::NotModelled, "added costs can still raise an ignored cost above zero: no effect in the model ignores costs"),
    ("356.2", Stance::Heading, "second step of the total: add additional costs; under it: 356.2.a, 356.2.a.2, 356.2.b"),
    ("356.4", Stance::Heading, "fourth step of the total: apply discounts; under it: 356.4.c, 356.4.d, 356.4.e, 356.4.f.1"),
    ("356.4.c.1", Stance::Within, "several discounts on one component apply in any order: model/src/game/cost.rs:discount_component (fixed order: Marai Spire then Ezreal; no choice of order is offered)"),
    ("356.4.f", Stance::Within, "discounts may lower additional costs, even down to zero: shown by Event::DiscountApplied { source: Ezreal | MaraiSpire }, which cites another clause (followed by Event::RepeatCostAdded or Event::OptionalCostAdded with the reduced cost)"),
    ("356.5", Stance::NotModelled, "fifth step: modifications to the whole total cost: no effect ignores or replaces the total cost"),
    ("356.5.a", Stance::NotModelled, "ignoring all costs makes the total zero, non-standard ones too: no effect ignores all costs"),
    ("356.6", Stance::Within, "energy and power costs cannot drop below zero: model/src/game/cost.rs:determine_total_cost (Cost::reduce_energy takes at most what is there)"),
    ("357.1", Stance::Within, "energy and power are paid together in one payment: shown by Action::PayCosts, which cites another clause (Event::CostPaid)"),
    ("357.2.a", Stance::NotModelled, "a cost whose action gets replaced still counts as paid: replacement effects (Zhonya's Hourglass) are not modelled"),
    ("357.3", Stance::Refusal, "no paying choices that surely make the play fail: model/src/game/unit_cost.rs fn unit_options (refuses Action::KillForCost of a unit the item chose while another can pay; runes.rs rune_actions likewise never strands a payable cost); `Game::refusal` gives it as the reason (model/src/game/refused.rs)"),
    ("358.1", Stance::Within, "every chosen target must still be legal at the check: shown by Event::PlayCancelled { why: CancelWhy::TargetsIllegal }, which cites another clause (found before paying by unit_cost.rs kills_only_chosen; otherwise holds by construction (finalize.rs check_legality))"),
    ("358.2", Stance::Within, "every cost must have been paid at the check: shown by Event::PlayCancelled { why: CancelWhy::CannotPay }, which cites another clause (CheckLegality is offered only after every cost is paid)"),
    ("358.3", Stance::NotModelled, "the play must not produce an illegal game state: two-player model: no play can create one; check_legality assumes it"),
    ("358.3.a", Stance::NotModelled, "a prevented action does not block finalizing; skipped on resolving: no effect in the model prevents a game action"),
    ("358.4", Stance::Refusal, "the item needs timing permission for the current state: model/src/game/play.rs fn may_play_now (refuses Action::MoveToChain (model/src/game/refused.rs cites 358.4))"),
    ("359.1", Stance::Within, "the item stops being pending once finalized: shown by Action::Finalize, which cites another clause (Event::Finalized)"),
    ("359.3", Stance::Heading, "what happens to a spell after it is finalized; under it: 359.3.d, 359.3.e, 359.3.e.5, 359.3.e.6, 359.3.e.7, 359.3.e.9.a, 359.3.e.12, 359.3.e.14, 359.3.e.15"),
    ("359.3.a", Stance::Within, "a finalized spell remains on the chain as a chain item: shown by Action::Finalize, which cites another clause (phase becomes Finalized, the item stays on the chain)"),
    ("359.3.b", Stance::Within, "remaining pending items get finalized next by their controllers: model/src/game/mod.rs:Game::turn (the oldest pending item's steps come before any priority)"),
    ("359.3.c", Stance::Within, "opponents may respond before the spell resolves: shown by Action::Pass, which cites another clause (priority goes to the newest item's controller; it resolves only after both pass)"),
    ("359.3.e.10", Stance::Within, "a spell whose instructions all fail still counts as played: shown by Event::Played, which cites another clause (finish_resolution emits it even when every instruction was Event::Ignored)"),
    ("359.3.e.16", Stance::NotModelled, "delayed abilities whose window already passed are not created: delayed abilities are not modelled"),
    ("359.3.f.2", Stance::Within, "words like here, my, its are read when the instruction runs: model/src/game/instruction.rs:deal_might (also combat.rs mights_to_each_other and target.rs unit_meets (Place::Here))"),
    ("359.3.f.4", Stance::Within, "enemy and friendly are judged from the ability's own side: model/src/game/instruction.rs:legal_targets (side_ok against the item's current controller)"),
    ("381", Stance::Refusal, "activated abilities only in own open main phase without a showdown: model/src/game/activate.rs fn activation_refused (refuses Action::ActivateAbility; no ability with [Action] or [Reaction] is modelled)"),
    ("383.3.a", Stance::Rulebook, "a trigger's optional choice is decided when it is finalized: rulebook field `trigger_may` (at-choices (RUP4) vs at-trigger (v1.3); step Action::DecideOptional)"),
    ("383.3.b", Stance::NotModelled, "a cost opening a trigger's effect is its base cost, paid once: no trigger in the catalogue has a cost within its instructions; a trigger's base cost is 0 (cost.rs determine_total_cost)"),
    ("383.3.d", Stance::NotModelled, "simultaneous triggers are ordered by their controllers in turn order: triggers are placed in a fixed board order; no ordering choice"),
    ("387", Stance::NotModelled, "reflexive triggers create new pending chain items: \"if this kills it\" runs inline as a linked instruction (rider.rs), not as a new item"),
    ("388", Stance::NotModelled, "reflexive triggers create new pending chain items: \"if this kills it\" runs inline as a linked instruction (rider.rs), not as a new item"),
    ("398", Stance::Heading, "abilities section: abilities are played like cards; under it: 401, 402.1, 145.2, 820.1.a"),
    ("399", Stance::Heading, "abilities go through the same six play steps; under it: 401, 402.1, 145.2, 820.1.a"),
    ("400.2", Stance::Within, "add abilities resolve at once upon finalizing: shown by Action::ExhaustRune, Action::RecycleRune, which cites another clause (the rune's resources enter the pool at once, never via the chain; units enter at Action::Finalize)"),
    ("401.2", Stance::Within, "an ability's later steps wait while something resolves: shown by Action::FinishResolution, which cites another clause (triggers from a resolving item are queued (Event::Triggered) and placed by place_queued)"),
    ("402", Stance::Heading, "second ability step: make its choices; under it: 402.1"),
    ("402.2", Stance::Within, "an ability's targets and modes are chosen in this step: shown by Action::ChooseTarget, Action::ChooseMode, which cites another clause (same choice steps as a spell (play.rs complete_choices))"),
    ("402.3", Stance::Within, "an activated ability lacking legal options cannot be activated: shown by Event::PlayCancelled { why: CancelWhy::NoLegalChoice }, which cites another clause (activation is undone (358.5) when a choice has no option; the only activated ability chooses nothing)"),
    ("402.4", Stance::Within, "a trigger with no legal options is taken off the chain: shown by Event::PlayCancelled { why: CancelWhy::NoLegalChoice }, which cites another clause (on a trigger item; nothing returns to hand)"),
    ("402.4.a", Stance::Within, "removing an optionless trigger is not a counter: shown by Event::PlayCancelled { why: CancelWhy::NoLegalChoice }, which cites another clause (no Event::Countered is logged)"),
    ("402.4.b", Stance::Refusal, "a player with legal options has to pick them: model/src/game/play.rs fn choose_target_actions, fn choose_mode_actions (refuses Action::CancelPlay while any legal option exists)"),
    ("403", Stance::Within, "third ability step: its base cost is the activation cost: shown by Action::DetermineTotalCost, which cites another clause (a trigger's base cost is 0)"),
    ("403.1.b.1", Stance::NotModelled, "a cost opening a trigger's effect is that trigger's base cost: no trigger has a cost within its instructions; its base cost is 0"),
    ("403.2", Stance::Within, "costs and discounts from an ability's choices are added: shown by Event::RepeatCostAdded, which cites another clause (on an ability item; Event::DeflectAdded too)"),
    ("404", Stance::Within, "fourth ability step: pay its costs: shown by Action::PayCosts, which cites another clause"),
    ("404.2", Stance::NotModelled, "a trigger's controller may refuse its cost, removing it: a trigger's cost cannot be declined; an unpayable one is undone (358.5)"),
    ("404.2.a", Stance::NotModelled, "removing a trigger for an unpaid cost is not a counter: a trigger's cost cannot be declined in the model"),
    ("405", Stance::Within, "fifth ability step: check legality: shown by Action::CheckLegality, which cites another clause"),
    ("406", Stance::Within, "sixth ability step: finalize it: shown by Action::Finalize, which cites another clause"),
    ("406.5", Stance::Within, "an ability executes like a spell and is then cleared: shown by Action::FinishResolution, which cites another clause (no card goes to the trash for an ability (Event::Resolved))"),
    ("412", Stance::Heading, "older number of the counter rule; under it: 425.1, 425.1.c (v1.2 number of 425)"),
    ("416.3", Stance::NotModelled, "a recycle cost that cannot be done cannot be paid: the catalogue refuses recycle costs (catalogue/costs.rs additional_cost); a rune's own recycle needs a rune on the board"),
    ("419.4.a.1", Stance::Within, "a countered card does not fire when-played triggers: shown by Event::Countered, which cites another clause (no Event::Played follows (instruction.rs counter))"),
    ("422.3", Stance::Refusal, "a discard cost needing more cards than held cannot be paid: model/src/game/cost.rs fn payment_options (refuses Action::PayCosts, then the play is undone (CancelPlay CannotPay))"),
    ("425", Stance::Heading, "counter rules; under it: 425.1, 425.1.c"),
    ("425.1.a", Stance::Within, "a countered item does nothing and leaves the chain: shown by Event::Countered, which cites another clause"),
    ("425.1.a.1", Stance::Rulebook, "a countered card is put into its owner's trash: rulebook field `countered_card_to_trash` (applied in instruction.rs counter; no event for the trash move)"),
    ("425.1.b", Stance::Within, "countered cards do not trigger on-play abilities: shown by Event::Countered, which cites another clause (no Event::Played, so no when-you-play trigger)"),
    ("425.1.c.1", Stance::Within, "no refund on counter, additional costs included: shown by Event::Countered, which cites another clause (no Event::Refunded (rulebook refund_on_counter false))"),
    ("425.2", Stance::Within, "countering happens only when an effect instructs it: model/src/game/instruction.rs:counter (called only by Effect::Counter and a declined demand)"),
    ("425.3", Stance::Within, "a counter names a card or ability on the chain: shown by Action::ChooseTarget { obj: Obj::Item(_) }, which cites another clause (counters target chain items (target.rs item_meets))"),
    ("428.1.a.1.b", Stance::NotModelled, "death triggers are added before the kill finishes: deathknell and when-I-die triggers are not modelled"),
    ("429.2", Stance::Within, "add abilities resolve immediately upon finalizing: shown by Action::ExhaustRune, Action::RecycleRune, which cites another clause (Event::RuneExhausted, Event::RuneRecycled)"),
    ("429.3", Stance::Within, "add abilities may be used while paying a cost: shown by Action::ExhaustRune, Action::RecycleRune, which cites another clause (offered during payment (runes.rs rune_actions); rulebook demand_paid_with_runes extends it to demands)"),
    ("429.3.a", Stance::Within, "such add abilities resolve at once, even mid-resolution: shown by Action::ExhaustRune, Action::RecycleRune, which cites another clause (mid-resolution only for a demand: Event::DemandRuneExhausted)"),
    ("652.4", Stance::NotModelled, "a conceding player's chain items are all countered: concession is not modelled"),
    ("735.1.c", Stance::Within, "old deflect rule, errata: pay deflect each time chosen: shown by Event::DeflectAdded, which cites another clause (v1.2 number of 809.1.c; per-item reading is rulebook deflect)"),
    ("740.4.a", Stance::NotModelled, "costs inside instructions: spell on resolving, trigger at finalizing: no instruction in the model carries a cost within it"),
    ("740.4.a.2", Stance::NotModelled, "a cost opening a trigger's effect is paid at finalizing: no trigger has a cost within its instructions; its base cost is 0"),
    ("746", Stance::Heading, "older number of the repeat keyword rule; under it: 820.1.a, 820.1.c.2, 820.1.c.3, 820.1.d.2, 820.2.a, 820.3, 820.3.a (v1.2 number of 820)"),
    ("746.3.a", Stance::Within, "older rule: a repeated spell is played only once: shown by Event::Played, which cites another clause (v1.2 number of 820.3.a; one Event::Played per item)"),
    ("751", Stance::Within, "effects may let a player remake a finalized item's choices: shown by Action::RemakeChoice, Action::KeepChoice, which cites another clause (cited as 751–753 by the step; begins with Event::NewChoicesBegun)"),
    ("752", Stance::Within, "new choices cover the choices made while playing: shown by Action::RemakeChoice, Action::KeepChoice, which cites another clause (cited as 751–753 by the step)"),
    ("752.1", Stance::Within, "play locations, modes, destinations and targets may be remade: model/src/game/new_choices.rs:remakeable (only targets are offered; modes, destinations and locations are kept)"),
    ("753.1", Stance::Refusal, "remade choices must be legal even without alternatives: model/src/game/new_choices.rs fn new_choice_actions, fn remade_set_possible (refuses Action::RemakeChoice and Action::KeepChoice (model/src/game/refused.rs cites 753.1))"),
    ("753.2", Stance::Within, "no new choices may be made when none is legal: shown by Event::Ignored { why: IgnoredWhy::Impossible }, which cites another clause (only when the item chose nothing (instruction.rs begin_new_choices); otherwise keeping every choice stays open)"),
    ("755", Stance::Within, "costs triggered by new choices, like deflect, are ignored: model/src/game/new_choices.rs:remake_choice (no cost is determined again; no Event::DeflectAdded)"),
    ("755.1", Stance::Within, "the item was already played and paid for: model/src/game/new_choices.rs:remake_choice (no cost is determined again)"),
    ("756", Stance::Heading, "first number of the targeting range 756–758 (only named as a range start in a heading)"),
    ("757", Stance::NotModelled, "objects that cannot be chosen are invalid targets: no card in the catalogue is untargetable"),
    ("758", Stance::NotModelled, "objects that cannot be chosen are invalid targets: no card in the catalogue is untargetable"),
    ("805.1.a.1", Stance::Within, "accelerate power must be one of the unit's domains: model/src/cost.rs:Cost::parse ([C] resolves to the unit's domain (multi-domain: own), paid via cost.rs payment_options)"),
    ("805.2", Stance::Within, "accelerate is an optional additional cost paid only while playing: shown by Action::DeclareOptionalCost, which cites another clause"),
    ("805.2.a", Stance::Within, "accelerate cannot be paid at any later time: shown by Action::DeclareOptionalCost, which cites another clause (decided only in the choices step)"),
    ("805.2.b", Stance::Within, "paying accelerate makes the unit enter ready regardless: shown by Event::UnitEntered { ready: true }, which cites another clause (ready follows the paid cost, not the keyword; nothing removes Accelerate in the model)"),
    ("805.4", Stance::NotModelled, "several accelerate instances are redundant: no card has two instances of Accelerate"),
    ("805.6", Stance::Within, "the unit enters ready even after losing accelerate: shown by Event::UnitEntered { ready: true }, which cites another clause (ready follows the paid cost; nothing removes Accelerate in the model)"),
    ("806.4.b", Stance::NotModelled, "an undone conditional play returns the card to its origin zone: cards are played only from hand; undo returns them there (358.5)"),
    ("808.1.d.2", Stance::NotModelled, "when-i-die triggers are added before the kill completes: death triggers are not modelled"),
    ("809", Stance::Heading, "deflect keyword rules; under it: 809.1.c, 356.2.a.2"),
    ("812.1.c", Stance::Within, "played-card checks like legion look at finalization: shown by Event::Finalized, which cites another clause (counted in finalized_this_turn, even if later countered; no Legion card in the catalogue)"),
    ("813.4.b", Stance::NotModelled, "an undone conditional play returns the card to its origin zone: cards are played only from hand; undo returns them there (358.5)"),
    ("820", Stance::Heading, "repeat keyword rules; under it: 820.1.a, 820.1.c.2, 820.1.c.3, 820.1.d.2, 820.2.a, 820.3, 820.3.a"),
    ("820.1.c", Stance::Heading, "repeat has a cost, an additional cost paid while playing; under it: 820.1.c.2, 820.1.c.3 (model/src/game/refused.rs cites it when a step names an instance the item lacks)"),
    ("820.1.d", Stance::Within, "repeat means running the item's instructions once more on resolving: shown by Event::ExecutionStarted { exec: k > 0 }, which cites another clause"),
    ("820.1.d.1", Stance::Within, "examples: repeated token spell and a repeated triggered ability: model/src/game/play.rs:put_trigger_on_chain (Vendetta Duelist's \"my abilities have [Repeat]\" adds an instance (InstanceOrigin::SourceUnit))"),
    ("820.2", Stance::Heading, "choices for every repeat execution are made while playing; under it: 820.2.a"),
    ("829", Stance::NotModelled, "flow is an alternate cost replacing the base cost: no card with Flow is in the catalogue"),
    ("829.1.c.1", Stance::NotModelled, "flow's cost replaces the card's base cost: no card with Flow is in the catalogue"),

];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::CLAUSES;
    use std::collections::BTreeSet;

    /// The rule numbers a text names: three digits, then `.N` or `.x` parts, not part of a
    /// longer number, a card code (`SFD-136`), a count (`1,500`) or a seed's name (`002_…`).
    fn numbers_in(text: &str) -> BTreeSet<String> {
        let b = text.as_bytes();
        let mut out = BTreeSet::new();
        let mut i = 0;
        while i < b.len() {
            let starts = b[i].is_ascii_digit()
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b"._-,".contains(&b[i - 1])));
            if !starts {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j - i == 3 && b.get(j) != Some(&b'_') {
                let mut k = j;
                while b.get(k) == Some(&b'.') {
                    match b.get(k + 1) {
                        Some(d) if d.is_ascii_digit() => {
                            k += 1;
                            while b.get(k).is_some_and(u8::is_ascii_digit) {
                                k += 1;
                            }
                        }
                        Some(l)
                            if l.is_ascii_lowercase()
                                && !b.get(k + 2).is_some_and(u8::is_ascii_alphabetic) =>
                        {
                            k += 2
                        }
                        _ => break,
                    }
                }
                out.insert(text[i..k].to_string());
            }
            i = j;
        }
        out
    }

    #[test]
    fn the_scanner_reads_rule_numbers_and_nothing_else() {
        let found = numbers_in(
            "cleanup (321), 359.3.e.5. SFD-136 seed 002_ab 1,500 cases 2026 v1.2 see 356.4.c and 425.1.a.1.b",
        );
        let want: BTreeSet<String> = ["321", "359.3.e.5", "356.4.c", "425.1.a.1.b"]
            .map(String::from)
            .into();
        assert_eq!(found, want);
    }

    #[test]
    fn every_number_of_the_digest_is_cited_or_accounted_for() {
        let digest = numbers_in(include_str!("../../../corpus/digest.md"));
        let cited: BTreeSet<&str> = CLAUSES.iter().map(|(c, _)| *c).collect();
        let uncited: BTreeSet<&str> = UNCITED.iter().map(|(c, _, _)| *c).collect();
        let missing: Vec<&String> = digest
            .iter()
            .filter(|n| !cited.contains(n.as_str()) && !uncited.contains(n.as_str()))
            .collect();
        assert!(
            missing.is_empty(),
            "the digest names these, which the model neither cites (CLAUSES) nor accounts for \
             (UNCITED): {missing:?}"
        );
        for (c, stance, note) in UNCITED {
            assert!(digest.contains(*c), "{c} ({stance:?}) is not in the digest");
            assert!(
                !cited.contains(c),
                "{c} is cited and also listed as uncited"
            );
            assert!(!note.is_empty(), "{c}: say why");
            assert_eq!(
                UNCITED.iter().filter(|(k, _, _)| k == c).count(),
                1,
                "{c} twice"
            );
        }
    }
}
