//! [Accelerate] (805) and 359.2 on the unit's own status: a unit played from hand enters the
//! board exhausted, or ready if its Accelerate was paid, and the board shows it (not only the
//! `UnitEntered` event).

use super::common;
use common::*;
use model::action::Action;
use model::cost::Domain;
use model::rulebook::Version;
use model::state::*;

#[test]
fn legion_rearguard_enters_ready_only_with_accelerate_paid() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Legion Rearguard", pool(3, &[(Domain::Fury, 1)]));
    for paid in [true, false] {
        let script = [
            cast(),
            Action::DeclareOptionalCost {
                index: 0,
                pay: paid,
            },
        ];
        let s = play_out(&g, scn.state(&g), &script);
        let rearguard = id(&g, "Legion Rearguard");
        let u = s
            .units
            .iter()
            .find(|u| u.card == rearguard && u.zone == Zone::Board)
            .expect("Legion Rearguard entered the board");
        assert_eq!(u.status.exhausted, !paid, "Accelerate paid: {paid}");
        assert_eq!(
            count(
                &s,
                |e| matches!(e, Event::UnitEntered { ready, .. } if *ready == paid)
            ),
            1
        );
    }
}
