from .log import *

__all__ = ["log", "VERSION"]
VERSION = "1.0"
