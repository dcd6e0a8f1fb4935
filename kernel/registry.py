"""A small registry of named plug-ins (tools, metrics, judge roles), for every layer to build on.

Each kind of plug-in keeps one :class:`Registry`. The names are stored on rows, so a name
registered once means the same thing for good: a second registration of a name is an error,
and so is looking up a name nobody registered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class NotRegistered(KeyError):
    """A lookup of a name nobody registered; the message lists the names that are."""

    def __str__(self) -> str:
        return str(self.args[0])  # KeyError would show the message quoted


class Registry(Generic[T]):
    """Plug-ins of one kind by name, in registration order.

    Example:
        >>> judges = Registry("judge")
        >>> @judges.register("strict")
        ... def strict(answer): ...
        >>> judges.add("lenient", lambda answer: ...)
        >>> judges.names()
        ['strict', 'lenient']
    """

    def __init__(self, kind: str):
        self.kind = kind  # what is registered, for messages: "metric", "judge role", "agent tool"
        self._items: dict[str, T] = {}

    def add(self, name: str, item: T) -> T:
        """Register ``item`` as ``name`` and return it.

        Raises:
            ValueError: when ``name`` is already registered.
        """
        self.check_free(name)
        self._items[name] = item
        return item

    def check_free(self, name: str) -> None:
        """Raise the duplicate error of :meth:`add` now, before building an item for a taken ``name``."""
        if name in self._items:
            raise ValueError(f"{self.kind} {name!r} is already registered")

    def register(self, name: str) -> Callable[[T], T]:
        """A decorator that registers the decorated object as ``name`` (see :meth:`add`)."""
        return lambda item: self.add(name, item)

    def get(self, name: str) -> T:
        """The item registered as ``name``.

        Raises:
            NotRegistered: (a KeyError) naming what is registered.
        """
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(self._items) or "nothing"
            raise NotRegistered(f"no {self.kind} {name!r}; registered: {known}") from None

    def names(self) -> list[str]:
        """The registered names, in registration order."""
        return list(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._items.values()))

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}: {', '.join(self._items)})"
