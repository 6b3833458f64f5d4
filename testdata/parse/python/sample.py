"""A small task scheduler, to exercise the Python grammar.

It uses classes, decorators, async code, comprehensions, f-strings,
pattern matching and non-ASCII identifiers.
"""
from __future__ import annotations

import asyncio
import dataclasses
import heapq
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")
größe = 10
GREETING = "Grüß dich — こんにちは 👋"


@dataclasses.dataclass(order=True)
class Task(Generic[T]):
    """One unit of work with a priority."""

    priority: int
    name: str = dataclasses.field(compare=False)
    action: Callable[[], Awaitable[T]] | None = dataclasses.field(default=None, compare=False)

    def __repr__(self) -> str:
        return f"Task({self.name!r}, priority={self.priority:>3})"


class SchedulerError(RuntimeError):
    pass


class Scheduler:
    def __init__(self, *, workers: int = 2) -> None:
        self._queue: list[Task] = []
        self._workers = workers
        self.results: dict[str, object] = {}

    def submit(self, task: Task) -> None:
        if task.priority < 0:
            raise SchedulerError(f"negative priority for {task.name}")
        heapq.heappush(self._queue, task)

    @property
    def pending(self) -> int:
        return len(self._queue)

    @staticmethod
    def describe(task: Task) -> str:
        match task:
            case Task(priority=0, name=name):
                return f"urgent: {name}"
            case Task(priority=p) if p > 100:
                return "someday"
            case _:
                return repr(task)

    async def _worker(self, ident: int) -> None:
        while self._queue:
            task = heapq.heappop(self._queue)
            try:
                if task.action is not None:
                    self.results[task.name] = await task.action()
            except Exception as exc:  # noqa: BLE001
                self.results[task.name] = exc
            finally:
                await asyncio.sleep(0)

    async def run(self) -> dict[str, object]:
        await asyncio.gather(*(self._worker(i) for i in range(self._workers)))
        return self.results


def squares(limit: int) -> dict[int, int]:
    return {n: n**2 for n in range(limit) if n % 2 == 0}


def flatten(nested):
    for item in nested:
        if isinstance(item, (list, tuple)):
            yield from flatten(item)
        else:
            yield item


async def main() -> None:
    async def job(n: int) -> int:
        await asyncio.sleep(0.01 * n)
        return n * größe

    s = Scheduler(workers=3)
    for i, name in enumerate(["α", "β", "γ"]):
        s.submit(Task(i, name, lambda n=i: job(n)))
    results = await s.run()
    print(GREETING, sorted(results.items()), list(flatten([1, [2, (3, 4)]])))
    total = sum(v for v in results.values() if isinstance(v, int))
    assert total >= 0, "total must not be negative"
    print(f"{total=}", r"raw\path", b"bytes", 0x1F, 1_000_000, 3.14j)
    global größe
    größe += 1
    with open(__file__, encoding="utf-8") as fh, open(__file__, "rb") as raw:
        _ = fh.readline(), raw.read(4)
    del s


if __name__ == "__main__":
    asyncio.run(main())
