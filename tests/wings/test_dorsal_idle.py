"""The industrial raid's dorsal turret (DB 10, 11.c): by the seed it has nothing to shoot,
and the player is told so instead of waiting for a shot that never comes."""

from __future__ import annotations

import random

from engine.rng import Rng
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings import dambuster as db
from rendering.rulesets.wings import WingsPresenter
from rendering.rulesets.wings.dam import complex_lines
from tests.test_french import problems
from tests.wings.helpers import catalog

DORSAL_EN = (
    "Dorsal turret: silent on this raid, it never fires down and the complex has only ground guns"
)


def test_by_the_seed_the_raid_holds_nothing_the_dorsal_turret_may_shoot() -> None:
    """DB 10: the box's only enemies are its two AA gun cards, on the ground; DB 11.c: the
    dorsal turret never fires at a lower target; the Lancaster never flies lower than level 1.
    Over random raids the front and rear turrets fire at the guns, the dorsal never."""
    fired: set[str] = set()
    for seed in range(12):
        picks = random.Random(seed)
        state = db.new_dam("industrial")
        assert all(gun.id.startswith("aa-") for gun in state.guns.values())
        for index in range(14):
            if state.finished:
                break
            legal, _ = db.legal_orders(catalog(), state)
            state, events = db.play(
                catalog(), state, picks.choice(legal), Rng(f"d{seed}", index, "dam")
            )
            assert all(p.level >= 1 for p in state.planes.values() if p.status == "flying")
            fired |= {str(e["gun"]) for e in events if e["kind"] == "fire-at-aa"}
    assert "dorsal_turret" not in fired and fired & {"front_turret", "rear_turret"}


def test_the_board_and_the_status_say_why_the_dorsal_turret_is_silent() -> None:
    rules, presenter = WingsRules(catalog()), WingsPresenter()
    raid = rules.view(rules.new("lancaster-industrial", "dorsal"), None)
    assert DORSAL_EN in presenter.status_lines(raid, "en")
    assert DORSAL_EN in [text for text, _ink, _bold in complex_lines(raid.data["dam"], "en")]
    french = [line for line in presenter.status_lines(raid, "fr") if "dorsale" in line]
    assert french == [
        "Tourelle dorsale\u00a0: muette pendant ce raid, elle ne tire jamais vers le bas et le "
        "complexe n’a que des canons au sol"
    ]
    assert not problems([("wings.complex.dorsal", french[0])])
    # The Dambuster has no dorsal turret (DB 11.b): nothing said on the Möhne.
    mohne = rules.view(rules.new("dambuster-mohne", "dorsal"), None)
    assert not [line for line in presenter.status_lines(mohne, "en") if "Dorsal" in line]
