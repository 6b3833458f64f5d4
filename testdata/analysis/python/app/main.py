import importlib
from app.service import Service

lazy = importlib.import_module("app.util")


def main():
    s = Service()
    s.init("a")
    ping(3)
    s.builder().with_("x").build()


def ping(n):
    if n > 0:
        pong(n - 1)


def pong(n):
    ping(n)


# main() in a comment is not a call
main()
