import os, os.path as osp
from .registry import ToolRegistry
from . import util
from .util.log import log as info


def create_registry() -> ToolRegistry:
    return ToolRegistry()


class Service:
    tool_registry: ToolRegistry = None

    def init(self, tool):
        self.tool_registry = create_registry()
        self.tool_registry.register(tool)
        util.log.log("ready")

    reset = lambda self: create_registry()
