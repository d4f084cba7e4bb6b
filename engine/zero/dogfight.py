"""The authored fighter-vs-fighter card model: a compact stand-in for basic rules 1-14.

The seed only holds the campaign rules (15-26), so the duel itself follows the authored
module of zero-authored-data.md 3.2, cut down to what a fully automatic strike needs.
Every aircraft is a ``Plane`` (plain mutable state). A Leader holds a hand: it opens with
Performance cards, discards down to Performance, then draws its Horsepower for the band it
is in, never above Performance (3.2.3). Wingmen and formation aircraft hold no hand; they
draw a mini-hand when they attack or are attacked and throw it away afterwards. Pilot
skills: P +1 Performance, H +1 Horsepower, BU +1 Burst, D +1 to both damage steps, G +1
Gunner, CV one redraw of weak opening cards, A one free ACE PILOT per strike (19.25); BM
and S add a bomb or strafe card (bombing module).

Positions are the five of 3.2.4, kept as a signed score between two opposing Leaders:
+2 Tailing, +1 Advantaged, 0 Neutral, -1 Disadvantaged, -2 Tailed. A Leader holds a
non-Neutral score against one enemy Leader at most and is Engaged while it does; taking a
position against a new enemy, changing band, or being broken off with FULL THROTTLE
drops the old pairing. MANEUVERING gains one step, HALF LOOP two. The burst budget of an
IN MY SIGHTS follows the position (Tailing Burst, Advantaged Burst-1, Neutral 1, worse 0);
OUT OF THE SUN always has the full Burst except when Tailed; every attack played spends
from the same budget for the turn (3.2.5). Leaders attack enemy Leaders and formation
aircraft; Wingmen play one IMS/OTS from an Offensive mini-hand at any aircraft in their
band. Aircraft only fight in the same band and, over the target, in the same area (23.5).

Every card played can be answered. A response must appear in ``DeckData.answers`` for the
card it cancels, or carry the same title as the response it cancels, or be ACE PILOT;
the chain alternates until one side passes and the last card standing takes effect
(3.2.6). SCISSORS answers only when its player is Disadvantaged or Tailed against the
card's player. Loaded fighters cannot play MANEUVERING, HALF LOOP, SCISSORS or FULL
THROTTLE (17.15). In the Bomb turn a bombing or strafing aircraft answers each enemy card
with one card at most (23.66). A fighter-bomber's Gunner draws after each attack on it.

Attacks on formation aircraft follow 20.x: target choice by MANEUVERING/HALF LOOP that
friendly Unengaged Leaders may answer (20.32), Leader burst +2 plus the bonuses (20.22),
Wingman mini-hand Offensive + Defensive (20.13), the bomber's counter-fire mini-hand of its
Turret Defense plus its mates' Turret Support, with the attack-angle option (20.31,
20.41), and counter-fire read exactly as the 20.52-20.54 table.

Card policy (deterministic, the same for both sides):
- A Leader first plays MANEUVERING/HALF LOOP against its target until Tailing, then plays,
  one at a time, the attack that deals the most damage within what is left of its budget.
- Against formations it bites with the weakest attack first, to draw the spoiling
  counter-fire out before the big card (the 20.5 example's order); a Wingman plays all.
- An aircraft answers every enemy card for which it holds a legal answer (first such card
  in hand); it spends ACE PILOT (a real card or the pilot's A ability) only to keep a
  Leader from a hit that would flip or destroy it. Mini-hands use ACE PILOT freely.
- Counter-fire: a spoiling IMS/OTS first, then any spoiling card, then the IMS/OTS with
  the most damage.
Which enemy to fight, and which band to fly to, is the strike module's doctrine policy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Literal

from engine.zero.cards import Card, Deck, ids_of
from engine.zero.catalog import AircraftType, Ratings
from engine.zero.orders import Doctrine
from engine.zero.report import Phase
from engine.zero.types import AircraftClass, Band, BombMode, CardTitle, Ordnance, Side

Role = Literal["leader", "wingman", "formation", "recon"]
Group = Literal["strike", "cap", "scout"]
FlakKind = Literal["area", "target", "strafe"]

# Enum members the inner loops read, bound once: in Python 3.11 ``Band.M`` costs some
# 200 ns a read (the enum's class attribute machinery), a module name 10 (issue 13).
# ``Final``: compiled (scripts/build_native.py), each is a C static, not a dict lookup.
IMS: Final = CardTitle.IMS
OTS: Final = CardTitle.OTS
MAN: Final = CardTitle.MAN
HL: Final = CardTitle.HL
AP: Final = CardTitle.AP
FT: Final = CardTitle.FT
SC: Final = CardTitle.SC
BANDS: Final[tuple[Band, ...]] = tuple(Band)  # by number: cheaper than ``Band(n)``
VL: Final = Band.VL
L: Final = Band.L
M: Final = Band.M
H: Final = Band.H
VH: Final = Band.VH
NO_LOAD: Final = Ordnance.NONE
DIVE: Final = BombMode.DIVE
LEVEL: Final = BombMode.LEVEL
SATURATION: Final = BombMode.SATURATION
TORPEDO: Final = BombMode.TORPEDO
FIGHTER_BOMBER: Final = AircraftClass.FIGHTER_BOMBER
FORMATION_CLASSES: Final = frozenset(c for c in AircraftClass if c.is_formation)  # 17.22e
LOADED_BANNED: Final = frozenset({MAN, HL, SC, FT})  # 17.15
_KEEP: Final = {AP: 10, CardTitle.BR: 6, CardTitle.VR: 5, HL: 5, MAN: 4, CardTitle.TT: 4}


def is_attack(card: Card) -> bool:
    """IN MY SIGHTS or OUT OF THE SUN (the only cards that deal damage)."""
    return card.title is IMS or card.title is OTS


def take(cards: list[Card], card: Card) -> None:
    """Remove this very card (by identity: comparing pydantic models is slow)."""
    for index, other in enumerate(cards):
        if other is card:
            del cards[index]
            return


class Plane:
    """One aircraft's state during a strike (engine-internal, mutable, cheap), as it
    launches: skill D adds one to both damage steps (19.25), carried damage is kept.

    A plain class with its own ``__init__``, not a dataclass: compiled
    (scripts/build_native.py), a dataclass keeps the interpreted ``__init__`` that
    ``dataclasses`` writes, and a strike makes its planes and records by the dozen.
    """

    __slots__ = (
        "ace",
        "attacked",
        "band",
        "damage",
        "damaged",
        "destroy_at",
        "destroyed",
        "doctrine",
        "element",
        "flip_at",
        "foe",
        "formation",
        "group",
        "hand",
        "is_formation",
        "kind",
        "lead",
        "loaded",
        "loadout",
        "mate",
        "mode",
        "now",
        "order",
        "ordnance",
        "out",
        "pilot",
        "pos",
        "rat",
        "role",
        "runner",
        "side",
        "skills",
        "spent",
        "threat",
        "uid",
        "was_out",
    )

    def __init__(
        self,
        uid: str,
        kind: AircraftType,
        *,
        side: Side,
        role: Role,
        group: Group,
        element: str,
        order: int,
        doctrine: Doctrine,
        band: Band,
        ordnance: Ordnance = Ordnance.NONE,
        mode: BombMode | None = None,
        skills: Iterable[str] = (),
        pilot: str | None = None,
        damage: int = 0,
    ) -> None:
        skill_set = frozenset(skills)
        formation = kind.cls in FORMATION_CLASSES
        extra = 1 if "D" in skill_set else 0
        self.uid = uid
        self.kind = kind
        self.side = side
        self.role = role  # the role it launched with (report); ``lead`` says who holds a hand now
        self.group = group
        self.element = element
        self.order = order
        self.doctrine = doctrine
        self.band = band
        self.skills = skill_set
        self.pilot = pilot
        self.lead = role == "leader" and not formation
        # Formation id ("" for fighters); a Damaged bomber flies alone (17.28).
        self.formation = element if formation else ""
        self.loadout = ordnance  # what it launched with (report)
        self.ordnance = ordnance  # what it still carries
        self.mode = mode
        self.flip_at = kind.flip_at + extra
        self.destroy_at = self.flip_at + kind.destroy_extra + extra
        self.is_formation = formation  # 17.22e: bombers and recon aircraft (read very often)
        # The card side in use (``kind.undamaged`` until it flips, 3.2.7), and the same with
        # the pilot's skills, as numbers (they change together: ``rate``).
        self.rat: Ratings = kind.undamaged
        self.now: Rates = rates_of(kind, kind.undamaged, skill_set)
        self.loaded = ordnance is not NO_LOAD and not formation  # still carrying (17.15)
        self.damage = max(0, damage)
        self.damaged = False
        self.destroyed = False
        self.hand: list[Card] = []
        self.mate: Plane | None = None
        self.foe: Plane | None = None
        self.pos = 0
        self.spent = 0  # bursts spent this turn
        self.ace = "A" in skill_set  # unused Ace Ability (19.25 A)
        self.out = False  # outside the target area this Over-Target phase (23.5)
        self.was_out = False
        self.attacked = False  # an enemy has played a card against it (jettison doctrine)
        self.threat = False  # it attacked a bomber or fighter-bomber of the other side
        self.runner = False  # bombs or strafes this Bomb turn: one response per card (23.66)
        if self.damage >= self.destroy_at:
            self.destroyed = True
        elif self.damage >= self.flip_at:
            self.damaged = True
            rate(self, kind.damaged)
            if formation:
                self.formation = uid  # 17.28
            else:
                self.unload()  # 18.22

    def unload(self) -> None:
        """Bombs dropped, jettisoned or lost (17.15 ends, 18.22-18.23)."""
        self.ordnance = NO_LOAD
        self.loaded = False

    def perf(self) -> int:
        return self.now.perf

    def burst(self) -> int:
        return self.now.burst

    def hp(self) -> int:
        return self.now.hp[self.band]

    def gunner(self) -> int:
        """Rear-gun cards (3.2.5); G adds one where there is a gunner to help (19.25)."""
        return self.now.gunner

    def can_fly(self, band: Band) -> bool:
        """3.2.2: never above the card's maximum band nor into a band marked "-"."""
        return self.now.flies[band]


class Rates:
    """One card side of an aircraft type read with a pilot's skills (19.25), as the plain
    numbers a strike asks for on every turn, worked out once per type, side and skills
    (``rates_of``) instead of on each ask (issue 13)."""

    __slots__ = ("burst", "flies", "gunner", "hp", "perf")

    def __init__(self, kind: AircraftType, rat: Ratings, skills: frozenset[str]) -> None:
        self.perf = rat.performance + ("P" in skills)
        self.burst = rat.burst + ("BU" in skills)
        horse = "H" in skills
        self.hp = tuple((rat.horsepower.get(band, 0) or 0) + horse for band in BANDS)
        base = rat.gunner
        self.gunner = base + ("G" in skills) if base > 0 else 0
        # 3.2.2: never above the card's maximum band nor into a band marked "-" (the
        # undamaged side's marks hold for both sides).
        marks = kind.undamaged.horsepower
        self.flies = tuple(
            band <= kind.max_band and (not marks or marks.get(band, 0) is not None)
            for band in BANDS
        )


# Keyed by the ratings' identity (kept in the entry, so the id is not reused) and skills.
_rates: dict[tuple[int, frozenset[str]], tuple[Ratings, Rates]] = {}


def rates_of(kind: AircraftType, rat: Ratings, skills: frozenset[str]) -> Rates:
    key = (id(rat), skills)
    hit = _rates.get(key)
    if hit is None or hit[0] is not rat:
        if len(_rates) >= 4096:
            _rates.clear()
        hit = _rates[key] = (rat, Rates(kind, rat, skills))
    return hit[1]


def rate(p: Plane, rat: Ratings) -> None:
    """The plane now uses this card side (it flipped, 3.2.7)."""
    p.rat = rat
    p.now = rates_of(p.kind, rat, p.skills)


# The name the rules and the tests launch a plane by.
make_plane = Plane


# The response table as sets, per table: the catalog's never changes, and every strike
# asked for it (issue 13). An entry keeps its table so the id cannot be reused; read only.
# Beside it the table turned round: for each title, the titles that may answer it.
_AnswerSets = dict[CardTitle, frozenset[CardTitle]]
_answers: dict[int, tuple[object, _AnswerSets, _AnswerSets]] = {}
_NO_TITLES: Final[frozenset[CardTitle]] = frozenset()


def _answer_sets(
    answers: Mapping[CardTitle, Sequence[CardTitle]],
) -> tuple[_AnswerSets, _AnswerSets]:
    hit = _answers.get(id(answers))
    if hit is None or hit[0] is not answers:
        sets = {title: frozenset(cancels) for title, cancels in answers.items()}
        by = {
            target: frozenset(title for title, cancels in sets.items() if target in cancels)
            for target in CardTitle
        }
        if len(_answers) >= 16:
            _answers.clear()
        hit = _answers[id(answers)] = (answers, sets, by)
    return hit[1], hit[2]


class Sky:
    """Shared state of one strike: the deck, the response table, the planes and the log."""

    def __init__(
        self,
        deck: Deck,
        answers: Mapping[CardTitle, Sequence[CardTitle]],
        records: bool = True,
    ) -> None:
        self.deck = deck
        # False: the export's records (draws, exchanges, flak shots) are not kept, for a
        # caller that reads only the outcome (an odds preview); the play is the same.
        self.records = records
        self.pile = deck.pile  # where every card comes from (Deck.deal, inlined in draw)
        self.discards = deck.discards  # where every card played or set aside goes
        self.answers, self.answered_by = _answer_sets(answers)
        self.planes: list[Plane] = []
        self.phase: Phase = "target-bound"
        self.turn = 1
        self.over_target = False  # Ingress/Bomb/Egress: areas matter (23.53)
        self.losses = 0  # aircraft destroyed so far
        # The report's exchanges, flak shots and bomb runs, each recorded once its outcome
        # is known as the fields of its model (``Exchange``, ``FlakShot``, ``BombRun``) in
        # the model's order: the report makes them the models (``Strike.report``).
        self.exchanges: list[dict[str, Any]] = []
        self.flak: list[dict[str, Any]] = []
        self.runs: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.events: list[tuple[str, str]] = []  # ("bomb"|"destroyed", uid), in order
        # Every draw in order, as the fields of its ``CardDraw`` (the report's model).
        self.draws: list[dict[str, object]] = []

    # -- geometry --------------------------------------------------------------------

    def same_area(self, a: Plane, b: Plane) -> bool:
        """23.53: during Over-Target, the disengaged fight only the disengaged."""
        return not self.over_target or a.out == b.out

    def enemies_near(self, p: Plane) -> list[Plane]:
        """Live enemies in the same band and area, in launch order (3.2.2)."""
        side, band, out, anywhere = p.side, p.band, p.out, not self.over_target
        return [
            q
            for q in self.planes
            if q.side is not side
            and not q.destroyed
            and q.band == band
            and (anywhere or q.out == out)
        ]

    def friends_free(self, side: Side, band: Band, out: bool) -> list[Plane]:
        """Unengaged friendly Leaders able to help (17.13b, 20.32)."""
        anywhere = not self.over_target
        return [
            q
            for q in self.planes
            if q.side is side
            and q.lead
            and not q.destroyed
            and not q.is_formation
            and q.foe is None
            and q.band == band
            and (anywhere or q.out == out)
        ]

    # -- card flow -------------------------------------------------------------------

    def draw(self, count: int, purpose: str, who: str | None = None) -> list[Card]:
        pile = self.pile
        if 0 < count <= len(pile):  # ``Deck.deal`` without a reshuffle, inlined
            cards = pile[:count]
            del pile[:count]
            deck = self.deck
            deck.dealt += count
            deck.purpose = purpose
        else:
            cards = self.deck.deal(count, purpose)
        if self.records:
            # Kept for the export (issue 11): each draw with its purpose, aircraft and size.
            ids = ids_of(cards)
            self.draws.append(
                {
                    "phase": self.phase,
                    "turn": self.turn,
                    "purpose": purpose,
                    "who": who,
                    "cards": ids,
                }
            )
        return cards

    def record(
        self,
        attacker: Plane,
        defender: Plane,
        cards: list[tuple[str, int]],
        note: str,
        to_defender: int = 0,
        to_attacker: int = 0,
    ) -> None:
        if not self.records:
            return
        self.exchanges.append(
            {
                "phase": self.phase,
                "turn": self.turn,
                "attacker": attacker.uid,
                "defender": defender.uid,
                "cards": tuple(cards),
                "damage_to_defender": to_defender,
                "damage_to_attacker": to_attacker,
                "note": note,
            }
        )


# --- Damage (3.2.7, 17.28, 18.22) ----------------------------------------------------------


def would_change(p: Plane, damage: int) -> bool:
    """Would ``damage`` flip the card or destroy the aircraft (ACE PILOT policy)?"""
    total = p.damage + damage
    return total >= p.destroy_at or (not p.damaged and total >= p.flip_at)


def unpair(p: Plane) -> None:
    foe = p.foe
    if foe is not None:
        foe.foe = None
        foe.pos = 0
    p.foe = None
    p.pos = 0


def set_pos(a: Plane, b: Plane, pos: int) -> None:
    """3.2.4: one non-Neutral pairing per Leader; a new one drops the old ones."""
    pos = max(-2, min(2, pos))
    if a.foe is not b:
        unpair(a)
        unpair(b)
    if pos == 0:
        unpair(a)
        return
    a.foe, b.foe = b, a
    a.pos, b.pos = pos, -pos


def pos_vs(a: Plane, b: Plane) -> int:
    return a.pos if a.foe is b else 0


def hurt(sky: Sky, p: Plane, damage: int) -> None:
    """3.2.7: flip at U, destroyed at U + D; damage never negative, Destroyed stays so."""
    if damage <= 0 or p.destroyed:
        return
    p.damage += damage
    if p.damage >= p.destroy_at:
        _destroy(sky, p)
    elif not p.damaged and p.damage >= p.flip_at:
        p.damaged = True
        rate(p, p.kind.damaged)
        if p.is_formation:
            if p.formation != p.uid:
                p.formation = p.uid  # 17.28: leaves its formation at once
                sky.notes.append(f"left-formation:{p.uid}")
        elif p.ordnance is not NO_LOAD:
            p.unload()  # 18.22: a Damaged fighter drops its load
            sky.notes.append(f"forced-jettison:{p.uid}")


def _destroy(sky: Sky, p: Plane) -> None:
    sky.losses += 1
    p.destroyed = True
    p.damaged = True
    rate(p, p.kind.damaged)
    p.runner = False
    sky.events.append(("destroyed", p.uid))
    unpair(p)
    if p.hand:
        sky.discards.extend(p.hand)
        p.hand = []
    mate = p.mate
    if p.lead and mate is not None and not mate.destroyed:
        # 3.2.7: the Wingman takes over as Leader with a fresh opening hand.
        mate.lead = True
        mate.mate = None
        p.mate = None
        mate.hand = sky.draw(mate.now.perf, "hand", mate.uid)
        sky.notes.append(f"promoted:{mate.uid}")


# --- Hand management (3.2.3) -----------------------------------------------------------


def keep_value(p: Plane, card: Card) -> int:
    """How much the policy wants to keep a card (discards and climb payments)."""
    title = card.title
    if title is IMS or title is OTS:
        return 3 + (card.damage or 0)
    if title in LOADED_BANNED and p.ordnance is not NO_LOAD:
        return 0
    return _KEEP.get(title, 2)


def _worst(p: Plane, hand: list[Card]) -> tuple[int, int]:
    """Where the first card of least ``keep_value`` is in ``hand`` (-1 if empty) and that
    value, in one pass (hands are sorted through on every element's turn)."""
    loaded = p.ordnance is not NO_LOAD
    worst = -1
    lowest = 1 << 30
    for index, card in enumerate(hand):
        title = card.title
        if title is IMS or title is OTS:
            value = 3 + (card.damage or 0)
        elif loaded and title in LOADED_BANNED:
            value = 0
        else:
            value = _KEEP.get(title, 2)
        if value < lowest:
            worst, lowest = index, value
    return worst, lowest


def drop_worst(sky: Sky, p: Plane) -> None:
    worst, _ = _worst(p, p.hand)
    if worst < 0:
        raise ValueError(f"{p.uid} has no card to drop")
    sky.discards.append(p.hand.pop(worst))


def opening_hand(sky: Sky, p: Plane) -> None:
    """3.2.3 opening hand; CV (19.25) redraws the weak cards once."""
    p.hand = sky.draw(p.now.perf, "hand", p.uid)
    if "CV" in p.skills:
        weak = [c for c in p.hand if keep_value(p, c) <= 2]
        if weak:
            p.hand = [c for c in p.hand if keep_value(p, c) > 2]
            sky.discards.extend(weak)
            p.hand.extend(sky.draw(len(weak), "hand", p.uid))


def discard_and_draw(sky: Sky, p: Plane) -> None:
    """Steps 6-7 (15.2, 3.2.3): discard down to Performance, cycle one dead card, draw HP."""
    hand = p.hand
    now = p.now
    limit = max(0, now.perf)
    while len(hand) > limit:  # ``drop_worst`` (a hand is never empty here)
        sky.discards.append(hand.pop(_worst(p, hand)[0]))
    if hand and len(hand) == limit:
        worst, value = _worst(p, hand)
        if value <= 2:
            sky.discards.append(hand.pop(worst))
    room = min(now.hp[p.band], limit - len(hand))
    if room > 0:
        hand.extend(sky.draw(room, "draw", p.uid))


# --- Responses (3.2.6) ----------------------------------------------------------------------


class Source:
    """Cards one aircraft may answer with: a Leader's hand or a mini-hand."""

    __slots__ = ("ap_ok", "cards", "limit", "plane", "used")

    def __init__(
        self, plane: Plane, cards: list[Card], ap_ok: bool, limit: int | None = None
    ) -> None:
        self.plane = plane
        self.cards = cards
        self.ap_ok = ap_ok  # may spend ACE PILOT (or the A ability) here
        self.limit = limit  # 23.66: one response per enemy card
        self.used = 0


def can_cancel(
    sky: Sky,
    resp: Card,
    target: CardTitle,
    target_is_response: bool,
    responder: Plane,
    card_player: Plane | None,
) -> bool:
    """3.2.6: the answers table, the same-title rule for responses, and SCISSORS' condition."""
    if responder.loaded and resp.title in LOADED_BANNED:
        return False  # 17.15
    if resp.title is AP:
        return True
    if target_is_response and resp.title is target:
        return True
    if target not in sky.answers.get(resp.title, frozenset()):
        return False
    if resp.title is SC:
        return card_player is not None and responder.foe is card_player and responder.pos < 0
    return True


def pick_response(
    sky: Sky,
    sources: Sequence[Source],
    target: CardTitle,
    target_is_response: bool,
    card_player: Plane | None,
) -> tuple[Source, Card, bool] | None:
    """The first legal non-AP answer; else ACE PILOT or the A ability when allowed."""
    # Only a title the table lets answer ``target`` (or, against a response, the same
    # title) can pass ``can_cancel``: most cards of a hand are passed over without a call.
    may = sky.answered_by.get(target, _NO_TITLES)
    for src in sources:
        if src.limit is not None and src.used >= src.limit:
            continue
        for card in src.cards:
            title = card.title
            if (
                (title in may or (target_is_response and title is target))
                and title is not AP
                and can_cancel(sky, card, target, target_is_response, src.plane, card_player)
            ):
                return src, card, False
    for src in sources:
        if not src.ap_ok or (src.limit is not None and src.used >= src.limit):
            continue
        for card in src.cards:
            if card.title is AP:
                return src, card, False
        if src.plane.ace and src.cards:
            # 19.25 A: any card declared as ACE PILOT, once per strike.
            card = min(src.cards, key=lambda c: keep_value(src.plane, c))
            return src, card, True
    return None


def play_response(sky: Sky, pick: tuple[Source, Card, bool]) -> tuple[CardTitle, bool]:
    src, card, as_ace = pick
    take(src.cards, card)
    src.used += 1
    sky.discards.append(card)
    if as_ace:
        src.plane.ace = False
        sky.notes.append(f"ace:{src.plane.uid}")
        return AP, True
    return card.title, False


def chain(
    sky: Sky,
    attacker: Plane,
    card: Card,
    attack_sources: Sequence[Source],
    defence_sources: Sequence[Source],
    cards: list[tuple[str, int]],
) -> bool:
    """3.2.6: alternate answers until a side passes; True if ``card`` takes effect."""
    last = card.title
    last_player: Plane = attacker
    is_response = False
    defending = True
    standing = True
    while True:
        sources = defence_sources if defending else attack_sources
        pick = pick_response(sky, sources, last, is_response, last_player)
        if pick is None:
            return standing
        last, _ = play_response(sky, pick)
        cards.append((pick[0].plane.uid, pick[1].id))
        last_player = pick[0].plane
        is_response = True
        standing = not standing
        defending = not defending


def gunner_fire(sky: Sky, target: Plane, attacker: Plane, played: list[tuple[str, int]]) -> int:
    """3.2.5 Gunner: after an attack on it, the aircraft's gunner draws; IMS/OTS hit back.
    The damage dealt back; the gunner's cards join those ``played`` when they hit."""
    if target.destroyed or target.is_formation:
        return 0
    count = target.now.gunner
    if count <= 0:
        return 0
    cards = sky.draw(count, "gunner", target.uid)
    damage = sum(c.damage or 0 for c in cards if (c.title is IMS or c.title is OTS))
    sky.discards.extend(cards)
    if damage:
        played.extend((target.uid, c.id) for c in cards)
        hurt(sky, attacker, damage)
    return damage


def _defence(sky: Sky, target: Plane, damage: int) -> tuple[list[Source], list[Card]]:
    """The target's answers: a Leader's hand, or a Wingman's Defensive mini-hand (3.2.5)."""
    limit = 1 if target.runner else None
    if target.lead:
        return [Source(target, target.hand, would_change(target, damage), limit)], []
    mini = sky.draw(max(0, target.rat.defensive), "defence", target.uid)
    return [Source(target, mini, True, limit)], mini


def shoot(sky: Sky, attacker: Plane, att_src: Source, card: Card, target: Plane) -> None:
    """One IMS/OTS against a fighter or fighter-bomber, answers and Gunner included; one
    exchange recorded once the gunner has answered (nothing else is recorded meanwhile)."""
    damage = card.damage or 0
    defence, mini = _defence(sky, target, damage)
    cards = [(attacker.uid, card.id)]
    hit = chain(sky, attacker, card, [att_src], defence, cards)
    sky.discards.extend(mini)
    target.attacked = True
    if target.kind.cls is FIGHTER_BOMBER:
        attacker.threat = True
    if hit:
        hurt(sky, target, damage)
    back = gunner_fire(sky, target, attacker, cards)
    note = ("hit" if hit else "cancelled") + (",gunner" if back else "")
    sky.record(attacker, target, cards, note, damage if hit else 0, back)


# --- Leader play (3.2.4-3.2.5) ------------------------------------------------------------


def budget(p: Plane, pos: int, ots: bool) -> int:
    """3.2.5: bursts available this turn against a Leader from position ``pos``."""
    burst = p.now.burst
    if ots:
        return -1 if pos <= -2 else burst
    if pos >= 2:
        return max(1, burst)
    if pos == 1:
        return burst - 1
    return 1 if pos == 0 else 0


def maneuver(sky: Sky, p: Plane, target: Plane) -> None:
    """MANEUVERING/HALF LOOP until Tailing or out of cards; the target (and, for an
    Unengaged fighter-bomber, free friends, 17.13b) may answer."""
    # The player's own answers: no limit and no ACE PILOT, so one source serves every card;
    # the target's too, its count of answers set back for each card (23.66).
    own = [Source(p, p.hand, False)]
    answers = Source(target, target.hand, False, 1 if target.runner else None)
    hand = p.hand
    while not p.destroyed and not target.destroyed and not p.loaded:
        pos = p.pos if p.foe is target else 0
        if pos >= 2:
            return
        wanted = MAN if pos == 1 else HL
        first = -1  # where the first MANEUVERING or HALF LOOP in hand is
        at = -1  # where the first of the one wanted is
        for index, c in enumerate(hand):
            title = c.title
            if title is MAN or title is HL:
                if first < 0:
                    first = index
                if title is wanted:
                    at = index
                    break
        if first < 0:
            return
        card = hand.pop(at if at >= 0 else first)
        sky.discards.append(card)
        answers.used = 0
        defence = [answers]
        if target.kind.cls is FIGHTER_BOMBER and target.foe is None:
            defence += [
                Source(q, q.hand, False)
                for q in sky.friends_free(target.side, target.band, target.out)
                if q is not target
            ]
        cards = [(p.uid, card.id)]
        ok = chain(sky, p, card, own, defence, cards)
        target.attacked = True
        sky.record(p, target, cards, "position" if ok else "cancelled")
        if ok:
            set_pos(p, target, pos_vs(p, target) + (2 if card.title is HL else 1))


def break_off(sky: Sky, p: Plane) -> None:
    """FULL THROTTLE as an action: a Tailed, unloaded Leader drops every pairing (3.2.6)."""
    card = next((c for c in p.hand if c.title is FT), None)
    foe = p.foe
    if card is None or foe is None or p.loaded:
        return
    take(p.hand, card)
    sky.discards.append(card)
    cards = [(p.uid, card.id)]
    ok = chain(sky, p, card, [Source(p, p.hand, False)], [Source(foe, foe.hand, False)], cards)
    sky.record(p, foe, cards, "break-off" if ok else "cancelled")
    if ok:
        unpair(p)


def fire(sky: Sky, p: Plane, target: Plane) -> None:
    """Attack cards against an enemy Leader: the most damage that fits what is left."""
    own = Source(p, p.hand, False)  # no limit, no ACE PILOT: one source serves every shot
    while not p.destroyed and not target.destroyed:
        # ``budget`` for both attack titles: the pilot's Burst is read once per card.
        pos = p.pos if p.foe is target else 0
        burst = p.now.burst
        if pos >= 2:
            room_ims = max(1, burst)
        elif pos == 1:
            room_ims = burst - 1
        else:
            room_ims = 1 if pos == 0 else 0
        room_ims -= p.spent
        room_ots = (-1 if pos <= -2 else burst) - p.spent
        best: Card | None = None
        best_damage = best_burst = 0
        for card in p.hand:
            title = card.title
            if title is IMS:
                room = room_ims
            elif title is OTS:
                room = room_ots
            else:
                continue
            burst = card.burst or 0
            if burst > room:
                continue
            damage = card.damage or 0
            if (
                best is None
                or damage > best_damage
                or (damage == best_damage and burst < best_burst)
            ):
                best, best_damage, best_burst = card, damage, burst
        if best is None:
            return
        take(p.hand, best)
        sky.discards.append(best)
        p.spent += best_burst
        shoot(sky, p, own, best, target)


# --- Attacks on formation aircraft (20.x) ------------------------------------------------


def _to_next_step(b: Plane) -> int:
    return (b.destroy_at if b.damaged else b.flip_at) - b.damage


def _counter_card(mini: list[Card]) -> Card | None:
    """Bomber policy: spoiling IMS/OTS, then any spoiling card, then the biggest IMS/OTS."""
    best: Card | None = None
    best_key = (-1, -1)
    for card in mini:
        if not (is_attack(card) or card.spoiled):
            continue
        key = (
            2 if card.spoiled and is_attack(card) else 1 if card.spoiled else 0,
            card.damage or 0,
        )
        if key > best_key:
            best, best_key = card, key
    return best


def attack_formation(sky: Sky, p: Plane, bombers: Sequence[Plane]) -> None:
    """20.1-20.5: one Leader or Wingman attack on a bomber at its band."""
    if not bombers:
        return
    angle = p.doctrine.attack_angle
    fighter_mod = {"head-on": -1, "side": 0, "rear": 1}[angle]  # 20.31 [INTERP] rear +1
    cards_mod = {"head-on": -1, "side": 0, "rear": 2}[angle]
    if p.lead:
        cards = p.hand
    else:
        off = p.rat.offensive + p.rat.defensive + fighter_mod - (p.band == VH)
        cards = sky.draw(max(0, off), "wingman-attack", p.uid)  # 20.13
    src = Source(p, cards, not p.lead)
    # 20.32: the defender's default is its healthiest bomber; the attacker wants the one
    # closest to its next damage step, and opens with MANEUVERING/HALF LOOP to get it.
    default = max(bombers, key=lambda b: b.destroy_at - b.damage)
    wanted = min(bombers, key=_to_next_step)
    target = default
    bonus = 0
    if wanted is not default:
        helpers = [Source(q, q.hand, False) for q in sky.friends_free(default.side, p.band, p.out)]
        for card in [c for c in cards if c.title is MAN or c.title is HL]:
            if not any(c is card for c in cards):
                continue
            take(cards, card)
            sky.discards.append(card)
            played = [(p.uid, card.id)]
            ok = chain(sky, p, card, [src], helpers, played)
            sky.record(p, wanted, played, "select" if ok else "select-failed")
            if ok:
                target = wanted
                bonus += 2 if card.title is HL else 1
                break
    attacks: list[Card]
    if p.lead:
        room = p.now.burst + 2 + fighter_mod + bonus - p.spent  # 20.22
        # 20.43: more MANEUVERING/HALF LOOP raise the budget; bombers cannot answer them.
        need = sum(c.burst or 0 for c in cards if (c.title is IMS or c.title is OTS))
        for card in [c for c in cards if c.title is MAN or c.title is HL]:
            if need <= room:
                break
            take(cards, card)
            sky.discards.append(card)
            gain = 2 if card.title is HL else 1
            room += gain
            sky.record(p, target, [(p.uid, card.id)], "burst")
        attacks = []
        for card in sorted(
            filter(is_attack, cards), key=lambda c: (-(c.damage or 0), c.burst or 0)
        ):
            if (card.burst or 0) <= room:
                attacks.append(card)
                room -= card.burst or 0
    else:
        attacks = [c for c in cards if (c.title is IMS or c.title is OTS)]  # 20.21: no burst limit
    attacks.sort(key=lambda c: c.damage or 0)
    if attacks:
        # 20.41: Turret Defense plus the Turret Support of the rest of its formation.
        support = sum(
            b.rat.turret_support
            for b in sky.planes
            if b is not target
            and not b.destroyed
            and b.formation == target.formation
            and b.side is target.side
        )
        mini = sky.draw(
            max(0, target.rat.turret_defense + support + cards_mod), "counter-fire", target.uid
        )
        for card in attacks:
            if p.destroyed or target.destroyed:
                break
            take(cards, card)
            sky.discards.append(card)
            if p.lead:
                p.spent += card.burst or 0
            _counter_fire(sky, p, src, card, target, mini)
        sky.discards.extend(mini)
    target.attacked = True
    p.threat = True
    if not p.lead:
        sky.discards.extend(cards)


def _counter_fire(
    sky: Sky, p: Plane, src: Source, card: Card, target: Plane, mini: list[Card]
) -> None:
    """20.51-20.54: what the bomber's answer does to the attack and to the fighter."""
    played = [(p.uid, card.id)]
    answer = _counter_card(mini)
    spoiled = False
    to_att = 0
    to_def = 0
    note = "hit"
    if answer is not None:
        take(mini, answer)
        sky.discards.append(answer)
        played.append((target.uid, answer.id))
        spoiled = answer.spoiled
    if not spoiled:
        to_def = card.damage or 0
    else:
        note = "spoiled"
    if answer is not None and is_attack(answer):
        # The fighter may answer the IMS/OTS part; the bomber never answers back.
        src.ap_ok = (not p.lead) or would_change(p, answer.damage or 0)
        pick = pick_response(sky, [src], answer.title, False, target)
        src.ap_ok = not p.lead
        if pick is not None:
            play_response(sky, pick)
            played.append((p.uid, pick[1].id))
            note += ",counter-fire-cancelled"
        else:
            to_att = answer.damage or 0
            note += ",counter-fire"
    sky.record(p, target, played, note, to_def, to_att)
    hurt(sky, target, to_def)
    hurt(sky, p, to_att)


# --- Wingman attack (15.2 step 2, 3.2.5) ---------------------------------------------------


def wingman_shot(sky: Sky, w: Plane, target: Plane) -> None:
    """A Wingman draws Offensive cards (-1 at VH, -1 Loaded) and fires its best IMS/OTS."""
    count = w.rat.offensive - (w.band == VH) - (1 if w.loaded else 0)
    mini = sky.draw(max(0, count), "wingman-attack", w.uid)
    attacks = [c for c in mini if (c.title is IMS or c.title is OTS)]
    if attacks:
        card = max(attacks, key=lambda c: c.damage or 0)
        take(mini, card)
        sky.discards.append(card)
        shoot(sky, w, Source(w, mini, True), card, target)
    sky.discards.extend(mini)
