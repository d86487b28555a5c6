"""German for the bots' levels (:mod:`thievery.bots.levels`), for the terminal and the web
pages alike. See :mod:`thievery.core.i18n`."""

from __future__ import annotations

from collections.abc import Mapping

WORDS: Mapping[str, str] = {
    "Beginner": "Anfänger",
    "Casual": "Amateur",
    "Strong": "Stark",
    "Expert": "Experte",
    # No brackets: a bot seat reads "Platz 2 (Packer im Erwachsenentempo)", not "(Packer (…))".
    "Child-pace packer": "Packer im Kindertempo",
    "Adult-pace packer": "Packer im Erwachsenentempo",
    "Pro-pace packer": "Packer im Profitempo",
    "Instant packer": "Sofort-Packer",
}
