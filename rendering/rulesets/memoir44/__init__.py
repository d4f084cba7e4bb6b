"""The Memoir '44 air war's images and words (engine: ``engine.rulesets.memoir44``)."""

from __future__ import annotations

from rendering.rulesets.memoir44.presenter import Memoir44Presenter

__all__ = ["Memoir44Presenter"]
