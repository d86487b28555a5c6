"""Menus that fit a screen: a long list of legal actions is chosen in steps.

Each action has a menu line and a path of headings (a game's renderer says which, see
:class:`~thievery.core.plugin.TerminalRenderer`). A node of the tree whose actions fit
the limit is shown flat; a bigger one shows its headings, each with how many choices it
holds, and its own actions. A heading holding one action shows that action's line.

>>> node = build([("Play $2 to you", ("Play $2",)), ("Play $2 to seat 2", ("Play $2",)),
...               ("Pass", ())], limit=2)
>>> [entry.label for entry in node.entries()]
['Play $2 … (2 choices)', 'Pass']
>>> [entry.label for entry in node.entries()[0].node.entries()]
['Play $2 to you', 'Play $2 to seat 2']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from thievery.core.i18n import Translator

_ = Translator(__package__)


@dataclass
class Node:
    """A heading of the menu: the actions filed right under it and its sub-headings."""

    title: str
    limit: int
    actions: list[tuple[int, str]] = field(default_factory=list)
    children: dict[str, Node] = field(default_factory=dict)

    def size(self) -> int:
        """How many actions this heading holds, at every depth."""
        return len(self.actions) + sum(c.size() for c in self.children.values())

    def leaves(self) -> list[tuple[int, str]]:
        """Every action under this heading, in the order the game listed them."""
        out = list(self.actions)
        for child in self.children.values():
            out.extend(child.leaves())
        return sorted(out)

    def entries(self) -> list[Entry]:
        """The lines to show for this heading, in the game's order."""
        if self.size() <= self.limit:
            return [Entry(label, index=i) for i, label in self.leaves()]
        out: list[tuple[int, Entry]] = [(i, Entry(label, index=i)) for i, label in self.actions]
        for title, child in self.children.items():
            first = min(i for i, _ in child.leaves())
            if child.size() == 1:
                i, label = child.leaves()[0]
                out.append((first, Entry(label, index=i)))
            else:
                out.append(
                    (
                        first,
                        Entry(
                            _("{title} … ({n} choices)", title=title, n=child.size()), node=child
                        ),
                    )
                )
        return [e for _, e in sorted(out, key=lambda pair: pair[0])]


@dataclass
class Entry:
    """One numbered menu line: an action (its index among the legal actions) or a
    heading to open."""

    label: str
    index: int | None = None
    node: Node | None = None


def build(items: Sequence[tuple[str, tuple[str, ...]]], limit: int) -> Node:
    """The menu of ``items`` (each a menu line and its path of headings), showing at most
        about ``limit`` lines at a time. Actions whose lines and headings are the same (two cards
    alike) are offered once, as the first of them."""
    root = Node("", limit)
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for i, (label, path) in enumerate(items):
        if (label, path) in seen:
            continue  # the same line twice (two alike cards): one choice to the player
        seen.add((label, path))
        node = root
        for title in path:
            node = node.children.setdefault(title, Node(title, limit))
        node.actions.append((i, label))
    return root
