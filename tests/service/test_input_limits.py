"""Input limits: absurd durations, foreign digits, a thousand reminders, invisible reasons and
giant values give a short, clean refusal; no message shows a raw key or an unfilled blank."""

from __future__ import annotations

import time

import pytest

from bot.durations import DurationError, parse_duration, parse_reminders
from bot.i18n import t
from bot.limits import MAX_REMINDERS, MESSAGE_LIMIT, VALUE_LIMIT, clip, is_blank
from bot.logtext import describe
from bot.service_model import ServiceError
from tests.service.support import CHANNEL, GM, GUILD, Env, pace


@pytest.mark.parametrize("digits", [10, 5000, 100_000])
def test_huge_durations_are_refused_cleanly_and_fast(digits: int) -> None:
    started = time.perf_counter()
    with pytest.raises(DurationError) as info:
        parse_duration("9" * digits + "h")
    assert info.value.key == "duration.too_long"
    assert time.perf_counter() - started < 1.0
    # Leading zeros are not magnitude: this is still twelve hours.
    assert parse_duration("0" * 5000 + "12h") == 12 * 3600


@pytest.mark.parametrize(
    "text",
    ["٣h", "１２h", "१२h", "1٣h", "²h"],
    ids=["arabic", "fullwidth", "devanagari", "mixed", "sup"],
)
def test_only_ascii_digits_make_a_duration(text: str) -> None:
    with pytest.raises(DurationError) as info:
        parse_duration(text)
    assert info.value.key == "duration.invalid"


def test_reminder_offsets_are_capped() -> None:
    ten = ",".join(f"{n}h" for n in range(1, MAX_REMINDERS + 1))
    assert len(parse_reminders(ten)) == MAX_REMINDERS
    for count in (MAX_REMINDERS + 1, 1000):
        with pytest.raises(DurationError) as info:
            parse_reminders(",".join(["1h"] * count))
        assert info.value.key == "duration.too_many"
    assert str(MAX_REMINDERS) in t("duration.too_many", "en")


async def test_the_service_refuses_more_than_ten_reminders(env: Env) -> None:
    offsets = tuple(60 * (n + 1) for n in range(1000))
    with pytest.raises(ServiceError) as info:
        await env.svc.create_campaign(
            GUILD, CHANNEL, GM, "coral-sea", pace(reminder_offsets=offsets), seed="s"
        )
    assert info.value.code == "too-many-reminders"
    assert "10" in info.value.message("en") and "{" not in info.value.message("fr")
    async with env.repo.read() as tx:
        assert await tx.campaigns() == []  # nothing created
    ten = tuple(3600 * (n + 1) for n in range(MAX_REMINDERS))
    await env.svc.create_campaign(GUILD, CHANNEL, GM, "coral-sea", pace(reminder_offsets=ten))


async def test_a_giant_value_gives_a_refusal_discord_can_deliver(env: Env) -> None:
    with pytest.raises(ServiceError) as info:
        await env.svc.create_campaign(GUILD, CHANNEL, GM, "x" * 6000, pace())
    for lang in ("en", "fr"):
        text = info.value.message(lang)
        assert len(text) <= MESSAGE_LIMIT
        assert "x" * VALUE_LIMIT not in text and "x" * (VALUE_LIMIT - 1) + "…" in text
    # Even a message made long by many values stays within Discord's limit.
    error = ServiceError("incomplete", missing=[f"field{n}" * 20 for n in range(500)])
    assert len(error.message("en")) <= MESSAGE_LIMIT


@pytest.mark.parametrize(
    "reason",
    ["", "   ", "\u200b\u200b", "\u200b \ufeff\u2060\u200c\u200d", "\u3164\u2800", "\u0301\u0301"],
    ids=["empty", "spaces", "zwsp", "mixed-format", "hangul-filler-braille", "marks"],
)
async def test_an_invisible_reason_counts_as_no_reason(env: Env, reason: str) -> None:
    assert is_blank(reason)
    cid = await env.campaign()
    await env.play_round(cid)
    await env.play_round(cid)
    with pytest.raises(ServiceError) as info:
        await env.svc.rollback(cid, GM, 1, reason)
    assert info.value.code == "reason-required"
    assert (await env.svc.info(cid)).branch == 1  # nothing changed


def test_visible_reasons_are_not_blank() -> None:
    for text in ("ok", " x ", "\u200bwhy", "日本", "🙂", "é"):
        assert not is_blank(text)
    assert clip("abc", 5) == "abc" and clip("abcdef", 4) == "abc…"


def test_unknown_words_read_as_themselves_not_as_keys() -> None:
    for lang in ("en", "fr"):
        for error in (
            ServiceError("unknown-field", field="zzz"),
            ServiceError("unknown-side", side="zzz"),
            ServiceError("illegal-option", field="zzz", value="v", reason="made-up"),
            ServiceError("incomplete", missing=["zzz"]),
        ):
            text = error.message(lang)
            assert "service." not in text and "zzz" in text, text
            assert "{" not in text


def test_missing_parameters_do_not_show_raw_blanks() -> None:
    line = describe("round-opened", {"round": "orders", "deadline": 1}, "en")
    assert "{" not in line and "?" not in line and line.startswith("Round opened: Orders")
    assert describe("round-opened", {"round": "orders"}, "en", turn=3).startswith(
        "Round opened: turn 3, Orders"
    )
    assert "{" not in t("service.round.header", "fr", turn=1)
    assert "{" not in ServiceError("bad-turn", turn=5).message("en")
