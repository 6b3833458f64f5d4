from abc import ABC
from typing import Generic, TypeVar

T = TypeVar("T")


class Registry(ABC):
    def register(self, tool):
        raise NotImplementedError


class BaseRegistry(Registry, Generic[T]):
    items = []


class ToolRegistry(BaseRegistry[str], metaclass=type):
    def register(self, tool):
        self.items.append(tool)

    def get_tool(self, name):
        return next(t for t in self.items if t == name)


class SpecialRegistry(ToolRegistry):
    pass


def _private_helper():
    pass
