"""German for the bots' levels (:mod:`thievery.bots.levels`), for the terminal and the web
pages alike. See :mod:`thievery.core.i18n`."""

from __future__ import annotations

from collections.abc import Mapping

WORDS: Mapping[str, str] = {
    "Beginner": "Anfänger",
    "Casual": "Amateur",
    "Strong": "Stark",
    "Expert": "Experte",
    "Child packer": "Packer (Kind)",
    "Adult packer": "Packer (Erwachsener)",
    "Expert packer": "Packer (Profi)",
    "Instant packer": "Packer (sofort)",
}
