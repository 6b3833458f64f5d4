# Sample code for the rule differential suite.
import os
import sys
from typing import List, Optional


class Greeter:
    """Greets people."""

    def __init__(self, name: str, excited: bool = False):
        self.name = name
        self.excited = excited

    def greet(self, other: Optional[str] = None) -> str:
        if other is None:
            return "Hello, " + self.name
        elif other == "":
            return "Hello?"
        else:
            message = f"Hello {other}, I am {self.name}"
            if self.excited:
                message = message + "!"
            return message

    @staticmethod
    def helper(values: List[int]) -> int:
        total = 0
        for v in values:
            total += v
        return total


def process(items, *, verbose=False):
    result = []
    for item in items:
        try:
            value = int(item)
        except ValueError as e:
            print("bad item", item, e)
            continue
        if verbose:
            print("item", value)
        result.append(value * 2)
    return result


def nested_calls():
    data = {"a": 1, "b": 2}
    keys = list(data.keys())
    print(len(keys), sorted(keys, reverse=True))
    squares = [x * x for x in range(10) if x % 2 == 0]
    lookup = {k: v for k, v in data.items()}
    return squares, lookup


def long_function_name_with_many_words(first_argument, second_argument):
    assert first_argument is not None
    return first_argument == second_argument


print("done")  # ast-grep-ignore: py-print
# ast-grep-ignore
print("ignored")
print(os.path.join("a", "b"), file=sys.stderr)
lambda_value = lambda x: x + 1
XMLParserName = "x"
