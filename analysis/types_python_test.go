package analysis

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// storePy is the module every Python type-layer case asks about:
// Store.decode, beside a Cache class with a decode of its own.
const storePy = `class Store:
    def decode(self, s):
        return Item()

    def child(self) -> "Store":
        return self


class Cache:
    def decode(self, s):
        return s


class Item:
    def save(self):
        pass
`

// TestPythonTypeLayer checks each rule of the Python type layer on a small
// module calling decode: the callers of Store.decode it must find
// (resolved or name-only) and those it must not (a Cache's, bytes').
func TestPythonTypeLayer(t *testing.T) {
	cases := []struct {
		name, code string
		want       []string // "caller confidence" of Store.decode's callers in use.py
	}{
		{"annotated parameters", `from store import Store, Cache
def a(s: Store): s.decode(1)
def b(c: Cache): c.decode(1)
def d(s: "Store"): s.decode(1)
`, []string{"a resolved", "d resolved"}},
		{"optional and union annotations", `from typing import Optional, Union
from store import Store, Cache
def a(s: Optional[Store]): s.decode(1)
def b(c: Cache | None): c.decode(1)
def d(x: Union[Store, Cache]): x.decode(1)
`, []string{"a resolved", "d resolved"}},
		{"standard library receivers are not the workspace's", `from store import Store
def a(data: bytes, buf: bytearray): data.decode(); buf.decode()
def b(): b"".join([]).decode(); "x".encode().decode()
def c(text: str): text.encode("ascii").decode()
def d(): raw = b"abc"; raw.decode()
def e(k): ("%s: %s" % (k, 1)).encode("latin-1").decode(1)
def g(k): ("%s" % k).decode(1)
`, nil},
		{"variables typed by annotation or value", `from store import Store, Cache
def a():
    s = Store()
    s.decode(1)
def b():
    c: Cache = make()
    c.decode(1)
def d():
    x: Store = make()
    x.decode(1)
`, []string{"a resolved", "d resolved"}},
		{"return types through calls and chains", `from store import Store
def make() -> Store:
    return Store()
def a(): make().decode(1)
def b(s: Store): s.child().child().decode(1)
def c():
    s = make()
    s.decode(1)
`, []string{"a resolved", "b resolved", "c resolved"}},
		{"generic containers", `from typing import List, Dict
from store import Store
def a(xs: list[Store]): xs.pop().decode(1)
def b(m: Dict[str, Store]): m.get("k").decode(1)
def c(m: dict[str, bytes]): m.get("k").decode()
`, []string{"a resolved", "b resolved"}},
		{"with and library functions", `from store import Store
def a(p):
    with open(p) as f:
        f.read().decode()
    with Store() as s:
        s.decode(1)
def b(s: Store = None): s.decode(1)
`, []string{"a resolved", "b resolved"}},
		{"a module imported by __import__ is a ModuleType, whose members are the library's", `from store import Store
def a(name):
    generator = __import__(name, globals(), locals(), "generator")
    generator.decode(1)
def b():
    Store().decode(1)
`, []string{"b resolved"}},
		{"a standard library class instantiated through its module", `import io
from store import Store
def a(): io.BytesIO().decode(1)
def b():
    f = io.BytesIO()
    f.decode(1)
def c(): io.NotInTheTable().decode(1)
`, []string{"c name-only"}},
		{"an imported package's function", `import codecs
import store
def a(): codecs.decode(b"x")
def b(): store.Store().decode(1)
`, []string{"b resolved"}},
		{"attributes assigned in __init__ and annotated class attributes", `from store import Store, Cache
class User:
    cache: Cache
    def __init__(self):
        self.store = Store()
        self.raw = b""
    def run(self):
        self.store.decode(1)
    def other(self):
        self.cache.decode(1)
    def data(self):
        self.raw.decode()
`, []string{"run resolved"}},
		{"loops over typed containers", `from store import Store
def a(xs: list[Store]):
    for s in xs:
        s.decode(1)
def b(xs: list[bytes]):
    for x in xs:
        x.decode()
def c(m: dict[Store, int]):
    for k in m:
        k.decode(1)
def d():
    for x in load():
        x.decode(1)
def e(xs):
    for x in xs:
        x.decode(1)
`, []string{"a resolved", "c resolved", "d name-only"}},
		{"self reassigned stays the instance", `from store import Store
class Sub(Store):
    def __new__(cls):
        self = object.__new__(cls)
        self.decode(1)
        return self
`, []string{"__new__ resolved"}},
		{"untyped receivers stay name-only; untyped parameters are Unknown, left out", `from store import Store
def a(): x = load(); x.decode(1)
def b(x): x.decode(1); x.y.decode(1)
def c(x=None): x.decode(1)
def d(x=Store()): x.decode(1)
class K:
    def m(self, x): x.decode(1); self.decode(1)
class L(Base):
    def m(self, x): x.decode(1)
class T:
    def n(self, x: Store): pass
    def o(self, x): pass
class U(T):
    def n(self, x): x.decode(1)
    def o(self, x): x.decode(1)
import io
import socketserver
class R(io.BufferedIOBase):
    def __init__(self, sock): sock.decode(1)
    def readline(self, size): size.decode(1)
class Q(socketserver.StreamRequestHandler):
    def handle(self): self.rfile.decode(1); self.rfile.read().decode(1)
    def finish(self): self.decode(1)
`, []string{"a name-only", "d resolved", "m name-only", "n name-only", "readline name-only"}}, // K.m, Q.finish: self.decode names nothing K or Q has
		{"names unpacked from an untyped parameter are Unknown, left out", `from store import Store, Cache
def a(pair):
    name, address = pair
    address.decode(1)
def b(pair: tuple[Store, Store]):
    x, y = pair
    y.decode(1)
def c(pair):
    pair = load()
    x, y = pair
    y.decode(1)
def d(ew):
    _, charset, cte, text, _ = ew.split('?')
    text.decode(1)
def e(xs: list[Store]):
    x, y = xs
    y.decode(1)
def f(pair: tuple[Cache, Store]):
    x, y = pair
    x.decode(1)
`, []string{"b resolved", "c name-only", "e resolved"}},
		{"Any, written or from the library, is left out", `from typing import Any
import argparse
import json
from store import Store
def a(s): json.JSONDecoder().decode(s).decode(1)
def b(): args = argparse.ArgumentParser().parse_args(); args.out.decode(1)
def c(x: Any): x.decode(1)
def d(x: Store): x.decode(1)
`, []string{"d resolved"}},
		{"a name assigned an untyped parameter and something else", `from store import Store
def a(value, flag):
    if flag:
        h = Store()
    else:
        h = value
    h.decode(1)
def b(value):
    h = value
    h.decode(1)
def c(value):
    h = value
    h.decode(1)
    h = Store()
def d(value, xs):
    h = value
    for x in xs:
        h.decode(1)
        h = Store()
def e():
    h = Store()
    h.decode(1)
    h = load()
`, []string{"a resolved", "d resolved", "e resolved"}},
		{"elements of a class derived from a bare list are Unknown, as are those of list(x) with x Unknown", `from store import Store
class Tokens(list):
    def a(self):
        self[0].decode(1)
    def b(self):
        for t in self:
            t.decode(1)
    def c(self, xs):
        parts = list(xs)
        parts.pop(0).decode(1)
class Stores(list[Store]):
    def d(self):
        self[0].decode(1)
class More(Tokens):
    def e(self):
        self[0].decode(1)
`, []string{"d name-only"}},
		{"a field assigned in several methods has the join of their types; a chain of fields is typed field by field", `from store import Store
class G:
    def __init__(self, s=None):
        self.s = s
        self.u = None
    def load(self):
        self.s = Store()
        self.u = Store()
    def a(self):
        self.s.decode(1)
    def b(self):
        self.u.decode(1)
class H:
    def __init__(self, p=None):
        self.p = p
    def c(self):
        self.p.q.decode(1)
`, []string{"a resolved", "b resolved"}},
		{"a chained assignment types each name by the last value; a field set from itself adds nothing; a library class imported by name makes one", `from io import StringIO
from store import Store
class Gen:
    def __init__(self, outfp):
        self._fp = outfp
    def a(self):
        self._fp.decode(1)
    def flat(self):
        oldfp = self._fp
        try:
            self._fp = sfp = Store()
        finally:
            self._fp = oldfp
def b():
    s = StringIO()
    s.decode(1)
class Gen2:
    def __init__(self, policy=None):
        self.policy = policy
    def flatten(self, msg):
        policy = msg.policy if self.policy is None else self.policy
        policy = policy.clone()
        old = self.policy
        try:
            self.policy = policy
        finally:
            self.policy = old
    def c(self):
        self.policy.decode(1)
`, []string{"a resolved"}},
		{"a comprehension's variable is an element of what it iterates; a list comprehension is a list of its element", `from store import Store, Cache
def a(xs: list[Store]):
    return [x.decode(1) for x in xs]
def b(xs: list[Cache]):
    return all(x.decode(1) for x in xs)
def c(msg, headers):
    if headers:
        headers = [msg.make(h) for h in headers]
    for header in headers:
        header.decode(1)
def d(xs: list[Store]):
    ys = [x for x in xs]
    for y in ys:
        y.decode(1)
def e(xs: list[Store]):
    specs = frozenset(xs)
    return all(s.decode(1) for s in specs)
def f(xs: list[Cache]):
    for s in sorted(xs, key=str):
        s.decode(1)
`, []string{"a resolved", "d resolved", "e resolved"}},
		{"a function returning what self's Unknown fields give returns Unknown; one returning a parameter is typed per call", `from store import Store
class Holder:
    def __init__(self):
        self._props = {}
    def named(self, name):
        return self._props[name]
    def first(self):
        for item in self._props["items"]:
            return item
def a(h: Holder):
    h.named("x").decode(1)
    h.first().decode(1)
def ident(x):
    return x
def b(s: Store):
    ident(s).decode(1)
`, []string{"b name-only"}},
		{"names unpacked in a for over Unknown elements are Unknown; the branch of not isinstance stays Unknown past a sibling assignment", `from store import Store
class Holder:
    def __init__(self):
        self._chunks = []
    def a(self):
        for s, c in self._chunks:
            s.decode(1)
def b(pairs):
    for k, v in pairs:
        v.decode(1)
def c(xs: list[tuple[Store, Store]]):
    for s, t in xs:
        s.decode(1)
def d(s, flag):
    if not isinstance(s, str):
        if flag:
            s = s.decode(1)
        else:
            s = s.decode(2)
`, []string{"c resolved"}},
		{"an attribute of a module outside the workspace is the library's", `import sys
import os.path
from store import Store
def a():
    sys.stderr.decode(1)
    out = sys.stdout
    out.decode(1)
    os.path.decode(1)
def b(s: Store):
    s.decode(1)
`, []string{"b resolved"}},
		{"a local holding classes makes one of them when called", `from store import Store, Cache
def a(flag):
    if flag:
        kind = Store
    else:
        kind = Cache
    x = kind()
    x.decode(1)
def b():
    kind = Cache
    kind().decode(1)
`, []string{"a resolved"}},
		{"a class attribute naming a class makes one when called", `from store import Store, Cache
class Conn:
    store_class = Store
    cache_class = Cache
    def a(self):
        s = self.store_class(1)
        s.decode(1)
    def b(self):
        self.cache_class().decode(1)
`, []string{"a resolved"}},
		{"the assignments that reach a use type it: other clauses and overwritten ones do not", `from store import Store
def a(data, cte):
    if cte == 'a':
        data = Store()
    elif cte == 'b':
        data.decode(1)
def b(data, cte):
    if cte == 'a':
        data = b'x'
    elif cte == 'b':
        data = Store()
        data.decode(1)
def c(string):
    if isinstance(string, bytes):
        string = string.decode('x')
    string.decode(1)
def d(x):
    x = b'x'
    x = Store()
    x.decode(1)
def e(x):
    try:
        x = Store()
    except ValueError:
        x = b'a'
    else:
        x.decode(1)
def f(x, flag):
    try:
        x = Store()
    except ValueError:
        x = b'a'
    x.decode(1)
def g(x, flag):
    x = None
    if flag:
        x = Store()
    x.decode(1)
def h(xs):
    x = None
    for y in xs:
        if x:
            x.decode(1)
        x = Store()
def k(x, xs):
    for y in xs:
        x = y.get()
    try:
        x = Store()
    except ValueError:
        log()
        raise
    x.decode(1)
def i(s):
    if not isinstance(s, str):
        s = s.decode(1)
def j(s, flag):
    if flag:
        s = b'x'
    if not isinstance(s, Store):
        s.decode(1)
`, []string{"b resolved", "d resolved", "e resolved", "f resolved", "g resolved", "h resolved", "k resolved"}},
		{"isinstance before a call types it by the join; not isinstance then leave narrows after", `from store import Store
def a(x):
    if isinstance(x, Store):
        pass
    x.decode(1)
def b(xs):
    for x in xs:
        if not isinstance(x, Store):
            continue
        x.items[0] = 1
        x.decode(1)
def c(xs):
    for x in xs:
        if not isinstance(x, Store):
            continue
        x = load()
        x.decode(1)
def d(x):
    if not isinstance(x, Store):
        log(x)
    x.decode(1)
`, []string{"a resolved", "b resolved", "c name-only", "d resolved"}},
		{"elements of empty literals are Unknown", `from store import Store
class X:
    def __init__(self):
        self._properties = {}
        self._kids = []
    def a(self):
        return self._properties["x"].decode(1)
    def b(self):
        for c in self._properties["children"]:
            c.decode(1)
        for k in self._kids:
            k.decode(1)
def c(s: Store):
    d = {"a": s}
    d["a"].decode(1)
`, []string{"c name-only"}},
		// pyright types a field assigned from an element of itself
		// (self._properties = child._properties, child one of
		// self._properties' elements) Unknown by the cycle.
		{"a field reassigned from its own element is Unknown", `from store import Store
class X:
    def __init__(self):
        self._properties = {}
class G(X):
    def collapse(self):
        child = self._properties["children"][0]
        self._properties = child._properties
    def a(self):
        for c in self._properties["children"]:
            c.decode(1)
        self._properties["x"].decode(1)
class H(X):
    def reset(self, s: Store):
        self._properties = s
    def b(self):
        self._properties.decode(1)
`, []string{"b resolved"}},
		// After the branches meet, x is Store | Unknown: pyright ties
		// x.decode() to Store's (and Cache's, when tested too).
		{"isinstance joins", `from store import Store, Cache
def a(x, path=None):
    if path is not None:
        if isinstance(x, Store):
            log(path)
    elif isinstance(x, Store):
        log(x)
    x.decode(1)
def b(x):
    if isinstance(x, Cache):
        log(x)
    x.decode(1)
def c(x):
    x.decode(1)
    if isinstance(x, Store):
        log(x)
def h(x):
    while x:
        x.decode(1)
        if isinstance(x, Store):
            log(x)
def k(xs):
    for x in xs:
        x.decode(1)
        if isinstance(x, Store):
            log(x)
def d(x):
    if not isinstance(x, Store):
        log(x)
    x.decode(1)
def e(x, c):
    if not isinstance(x, Store):
        x = x.load(c)
    x.decode(1)
def f(x, c):
    if not isinstance(x, Store):
        log(x)
    x = load(c)
    x.decode(1)
def g(s, c):
    if not isinstance(s, bytes):
        s = s.encode(c)
    s.decode(1)
`, []string{"a resolved", "d resolved", "e resolved", "f name-only", "h name-only"}},
		// pyright keeps an Unknown Unknown where a test proves it is not
		// a C: in the else of isinstance(x, C), and x is a tuple[Unknown,
		// ...] in the branch of isinstance(x, tuple).
		{"the else of isinstance and isinstance of a collection", `from typing import Any, Union
from store import Store
def a(x=None):
    if isinstance(x, tuple):
        x = load(x[0])
    else:
        x.decode(1)
def b(x):
    if isinstance(x, tuple):
        x[2].decode(1)
def c(x):
    if isinstance(x, Store) and ok():
        log(x)
    else:
        x.decode(1)
def d(x: Union[list, Any]):
    if isinstance(x, list):
        log(x)
    elif isinstance(x, tuple):
        return [m.decode(1) for m in x]
    elif isinstance(x, Store):
        x.decode(1)
`, []string{"c resolved", "d resolved"}},
		// pyright types parts list[Unknown]: the assignment building it
		// from itself adds nothing.
		{"a name built from itself in a loop", `from store import Store
def a(tree):
    parts = list(tree)
    while parts:
        part = parts.pop(0)
        part.decode(1)
        parts = list(part) + parts
def b(x):
    node = None
    while x:
        node.decode(1)
        node = make(node)
`, []string{"b name-only"}},
		{"a for's name assigned again in its body", `from store import Store
class H:
    def __init__(self):
        self._chunks = []
    def a(self):
        for s, c in self._chunks:
            s.decode(1)
            s = Store()
    def b(self, xs: list[Store]):
        for s in xs:
            s.decode(1)
            s = load()
`, []string{"b resolved"}},
		// class Cookie(dict) is a dict[Unknown, Unknown]: what its
		// library methods give is Unknown, iterated or not.
		{"a class derived from a bare dict", `from store import Store
class Cookie(dict):
    def a(self):
        for key, value in sorted(self.items()):
            value.decode(1)
    def b(self):
        for value in self.values():
            value.decode(1)
    def c(self):
        self.get("x").decode(1)
    def d(self):
        self.values().decode(1)
def e(d: dict[str, Store]):
    for k, v in d.items():
        v.decode(1)
    for v in d.values():
        v.decode(1)
`, []string{"e resolved"}},
		{"library functions held by a class, and strings formatted with %", `import socket
from store import Store
FMT = "%(code)s"
class H:
    _connect = socket.create_connection
    fmt = FMT
    def a(self):
        self._connect((1, 2)).decode(1)
    def b(self, code):
        (self.fmt % {"code": code}).decode(1)
    def c(self, code):
        s = FMT % code
        s.decode(1)
    def d(self, code):
        s = code % FMT
        s.decode(1)
class G:
    def __init__(self):
        self._connect = socket.create_connection
        self.sock = None
    def e(self):
        self.sock = self._connect((1, 2))
    def f(self):
        self.sock.decode(1)
`, []string{"d name-only"}},
		{"conditional expressions, *args and enumerate", `from store import Store
def a(msg, p=None):
    policy = msg.policy if p is None else p
    policy.decode(1)
def b(msg):
    s = Store() if msg else None
    s.decode(1)
def c(*values, **kw):
    values = list(values)
    for i, v in enumerate(values):
        v.decode(1)
    kw["x"].decode(1)
def d(xs: list[Store]):
    for i, s in enumerate(xs):
        s.decode(1)
`, []string{"b resolved", "d resolved"}},
		// An override of a method whose parameters are written with no
		// annotation, **kwargs among them, is typed as any other def.
		{"an override of a method taking **kwargs", `from store import Store
class Base:
    def __init__(self, a, **params):
        pass
class Sub(Base):
    def __init__(self, text, charset=None):
        text.decode(1)
`, nil},
		{"a library module's functions, by module", `import os
from store import Store
def a(fd):
    with os.fdopen(fd, "w") as f:
        f.decode(1)
def b(p):
    os.open(p, 0).decode(1)
`, nil},
		{"an instance of self's class", `from store import Store
class S(Store):
    def a(self):
        part = type(self)()
        part.decode(1)
    def b(self):
        self.__class__(1).decode(1)
`, []string{"a resolved", "b resolved"}},
		{"a class named through its module", `import store
class X(store.Store):
    def decode(self, s):
        return store.Store.decode(self, s)
`, []string{"decode resolved"}},
		// pyright infers a call's result from the arguments it passes: a
		// def returning what an untyped parameter holds returns Unknown
		// when it is passed Unknown.
		{"calls passing only Unknown values", `from store import Store
def ident(x):
    return x
def wrap(x, y=None):
    if y:
        return Store()
    return x
def a(v):
    ident(v).decode(1)
def b(v):
    ident(Store()).decode(1)
def c(v):
    wrap(v, y=v).decode(1)
`, []string{"b name-only", "c resolved"}},
		{"elements' fields, properties and a call's fields", `from store import Store
class Tokens(list):
    @property
    def value(self):
        return self[0].value
    @property
    def store(self):
        return Store()
    def plain(self):
        return self[0].value
def a(t: Tokens):
    t[0].value.decode(1)
def b():
    Tokens().value.decode(1)
def c():
    Tokens().plain().decode(1)
def d():
    Tokens().store.decode(1)
def e(t: Tokens):
    t.store.decode(1)
`, []string{"d resolved", "e resolved"}},
		// A key= lambda's parameter is an element of what the call
		// sorts: Unknown over an Unknown list, a Store over a list[Store].
		{"key lambdas over what they sort", `from store import Store
class X:
    def __init__(self):
        self._properties = {}
    def a(self):
        return sorted(self._properties["refs"], key=lambda x: x["Ref"].decode(1))
    def b(self):
        self._properties["refs"].sort(key=lambda x: x.decode(1))
def c(xs: list[Store]):
    return max(xs, key=lambda s: s.decode(1))
def d(xs):
    return sorted(*xs, key=lambda s: s.decode(1))
`, []string{"c resolved", "d name-only"}},
		// A builtin class called is an instance of it: str(part) is a str,
		// bytes(x) a bytes, whose members are the library's.
		{"builtin classes called", `from store import Store
def a(part):
    tstr = str(part)
    tstr.encode("ascii").decode(1)
def b(x):
    bytes(x).decode(1)
def c(x):
    s = bytearray(x)
    s.decode(1)
`, nil},
		// base64's and binascii's functions return bytes (the table).
		{"base64 and binascii results are bytes", `from store import Store
import base64
import binascii
from base64 import b64encode
def a(x):
    b64encode(x).decode(1)
def b(x):
    base64.b64encode(x).decode(1)
def c(x):
    binascii.b2a_base64(x).decode(1)
`, nil},
		{"isinstance narrows", `from store import Store, Cache
def a(x):
    if isinstance(x, Store):
        x.decode(1)
def b(x):
    if isinstance(x, (Store, Cache)) and x:
        x.decode(1)
def c(x):
    if isinstance(x, Cache):
        x.decode(1)
`, []string{"a resolved", "b resolved"}},
		// Returns of different types are their union (mixed gives Store |
		// Cache, opened a file or bytes: library values), as pyright
		// infers them.
		{"returns of unannotated functions", `from store import Store, Cache
def make():
    return Store()
def pick(flag):
    if flag:
        s = Store()
        return s
    return None
def mixed(flag):
    if flag:
        return Store()
    return Cache()
def gen():
    yield Store()
def opened(path, flag):
    if flag:
        f = open(path, "rb")
        return f
    return b""
def outer():
    def inner():
        return Cache()
    return Store()
def many(n):
    if n == 0:
        return Store()
    if n == 1:
        return Store()
    if n == 2:
        return Store()
    if n == 3:
        return Store()
    if n == 4:
        return Store()
    if n == 5:
        return Store()
    if n == 6:
        return Store()
    if n == 7:
        return Store()
    if n == 8:
        return Store()
    if n == 9:
        return Store()
    if n == 10:
        return Store()
    if n == 11:
        return Store()
    if n == 12:
        return Store()
    if n == 13:
        return Store()
    if n == 14:
        return Store()
    if n == 15:
        return Store()
    if n == 16:
        return Store()
    if n == 17:
        return Store()
    if n == 18:
        return Store()
    if n == 19:
        return Store()
    if n == 20:
        return Store()
    if n == 21:
        return Store()
    if n == 22:
        return Store()
    if n == 23:
        return Store()
    if n == 24:
        return Store()
    if n == 25:
        return Store()
    if n == 26:
        return Store()
    if n == 27:
        return Store()
    if n == 28:
        return Store()
    if n == 29:
        return Store()
    if n == 30:
        return Store()
    if n == 31:
        return Store()
    if n == 32:
        return Store()
    return Store()
def a(): make().decode(1)
def f(): many(1).decode(1)
def b():
    s = pick(True)
    s.decode(1)
def c(): mixed(1).decode(1)
def d(): gen().decode(1)
def e(): outer().decode(1)
def g(): opened("p", True).decode(1)
`, []string{"a resolved", "b resolved", "c resolved", "d name-only", "e resolved", "f name-only"}},
		{"super() calls the base class's member", `import store
from store import Store, Cache
class Sub(Store):
    def decode(self, s):
        return super().decode(s)
class Other(Cache):
    def decode(self, s):
        return super().decode(s)
class Plain:
    def decode(self, s):
        return super().decode(s)
class Dotted(store.Store):
    def run(self):
        return super().decode(1)
`, []string{"decode resolved", "run resolved"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := project(t, map[string]string{"store.py": storePy, "use.py": c.code})
			r := run(t, dir, Params{Mode: ModeCallers, Language: "python", Symbol: "Store.decode"})
			var got []string
			for _, n := range r.Callers {
				if n.File == "use.py" {
					got = append(got, n.Name+" "+n.Confidence)
				}
			}
			sort.Strings(got)
			sameList(t, "callers of Store.decode in use.py", got, c.want)
		})
	}
}

// TestPyLibTable checks the generated table of Python's standard library:
// a class's type parameters and members, inherited members, and functions.
func TestPyLibTable(t *testing.T) {
	lib := pyLibrary()
	cases := []struct{ typ, member, want string }{
		{"bytes", "decode", "str"},
		{"str", "encode", "bytes"},
		{"str", "join", "str"},
		{"list", "pop", "_T"},
		{"dict", "get", "_VT"},
		{"JSONDecoder", "raw_decode", "tuple<any,int>"},
		{"Namespace", "__getattr__", "any"},
		{"dict", "keys", "dict_keys<_KT,_VT>"},
	}
	for _, c := range cases {
		got, _, ok := lib.member(c.typ, c.member, 0)
		if !ok || got != c.want {
			t.Errorf("%s.%s: got %q (found %v), want %q", c.typ, c.member, got, ok, c.want)
		}
	}
	if got := lib.funcs["open"]; got != "TextIOWrapper" {
		t.Errorf("open(): got %q, want TextIOWrapper", got)
	}
	// A module's functions are named by module: os.open is not open.
	if got, bare := lib.funcs["os.fdopen"], lib.funcs["fdopen"]; got != "TextIOWrapper" || bare != "" {
		t.Errorf("os.fdopen(): got %q (bare fdopen %q), want TextIOWrapper alone", got, bare)
	}
	if got := lib.funcs["os.open"]; got != "int" {
		t.Errorf("os.open(): got %q, want int", got)
	}
	if lt := lib.types["list"]; lt == nil || len(lt.params) != 1 || lt.params[0] != "_T" {
		t.Errorf("list's type parameters: got %+v, want [_T]", lt)
	}
}

// TestPythonModuleImports checks the modules Python's imports bind: a
// submodule imported from its package (from pkg import mod) is that
// module, never a same-named class of a sibling module imported beside it,
// and a dotted import (import pkg.mod) reaches pkg.mod.f().
func TestPythonModuleImports(t *testing.T) {
	files := map[string]string{
		"lib/pkg/__init__.py": "def main():\n    pass\n",
		// new.py defines a class named like its sibling module proj.
		"lib/pkg/new.py":          "class proj:\n    def Add(self):\n        pass\n",
		"lib/pkg/proj.py":         "class Filter:\n    def Add(self):\n        pass\ndef helper():\n    pass\n",
		"lib/pkg/common.py":       "def helper():\n    pass\n",
		"lib/pkg/gen/__init__.py": "",
		"lib/pkg/gen/use.py": `from pkg import (
    new,
    proj,
)
import pkg.common
def a(): proj.Filter()
def b(): proj.helper()
def c(): pkg.common.helper()
def d():
    x = proj.Filter()
    x.Add()
`,
	}
	cases := []struct {
		symbol string
		want   []string // "caller confidence" in use.py
	}{
		{"proj.Filter", []string{"a resolved", "d resolved"}},
		{"proj.helper", []string{"b resolved"}},
		{"common.helper", []string{"c resolved"}},
		{"Filter.Add", []string{"d resolved"}},
		{"new.proj", nil},
	}
	dir := project(t, files)
	for _, c := range cases {
		t.Run(c.symbol, func(t *testing.T) {
			r := run(t, dir, Params{Mode: ModeCallers, Language: "python", Symbol: c.symbol})
			var got []string
			for _, n := range r.Callers {
				if n.File == "lib/pkg/gen/use.py" {
					got = append(got, n.Name+" "+n.Confidence)
				}
			}
			sort.Strings(got)
			sameList(t, "callers of "+c.symbol+" in use.py", got, c.want)
		})
	}
}

// TestPythonDispatch checks which calls may dispatch to an override: a
// call bound to a base class's member may reach it (dispatch); one bound
// to a sibling's or a subclass's own member never does, nor one naming the
// base's member through its class (Shape.name(self)).
func TestPythonDispatch(t *testing.T) {
	dir := project(t, map[string]string{"shapes.py": `class Shape:
    def name(self):
        return "shape"
    def describe(self):
        return self.name()

class Square(Shape):
    def name(self):
        return "square"
    def show(self):
        return self.name()

class Circle(Shape):
    def name(self):
        return "circle"
    def show(self):
        return self.name()
    def plain(self):
        return Shape.name(self)

def first(s: Shape):
    return s.name()

def second(c: Circle):
    return c.name()
`})
	cases := []struct {
		symbol string
		want   []string // "caller confidence reason"
	}{
		{"Square.name", []string{"describe dispatch ", "first dispatch ", "show resolved "}},
		{"Shape.name", []string{"describe resolved ", "first resolved ", "plain resolved "}},
	}
	for _, c := range cases {
		t.Run(c.symbol, func(t *testing.T) {
			sameList(t, "callers of "+c.symbol, pyCallerReasons(t, dir, c.symbol), c.want)
		})
	}
}

// TestPythonArgumentFit checks that a call on an untyped receiver whose
// arguments Store.decode(self, s) cannot take is not its caller, and that
// a call it cannot judge (unpacked arguments) stays.
func TestPythonArgumentFit(t *testing.T) {
	// Receivers of unknown type (load() is nobody's); an untyped
	// parameter would be Unknown, left out before arguments matter.
	use := `x, a, kw, mod = load()
def none(): x.decode()
def one(): x.decode(1)
def two(): x.decode("ascii", "strict")
def named(): x.decode(s=1)
def other_name(): x.decode(errors="strict")
def unpacked(): x.decode(*a)
def spread(): x.decode(**kw)
def nested(): x.decode(f(1, 2), # one argument
    )
def text(): x.decode(")")
def through_class(): mod.Store.decode(x, 1)
def through_value(): mod.store.decode(x, 1)
`
	dir := project(t, map[string]string{"store.py": storePy, "use.py": use})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "python", Symbol: "Store.decode"})
	var got []string
	for _, n := range r.Callers {
		got = append(got, n.Name+" "+n.Confidence)
	}
	sort.Strings(got)
	sameList(t, "callers of Store.decode", got, []string{"named name-only", "nested name-only", "one name-only",
		"spread name-only", "text name-only", "through_class name-only", "unpacked name-only"})
}

// TestPyParams checks the reading of a def's parameters and a call's
// arguments, and when the arguments fit.
func TestPyParams(t *testing.T) {
	cases := []struct {
		def, call string
		method    bool
		viaClass  bool
		fits      bool
	}{
		{"def f(a, b=1):", "f(1)", false, false, true},
		{"def f(a, b=1):", "f()", false, false, false},
		{"def f(a, b=1):", "f(1, 2, 3)", false, false, false},
		{"def f(a, b=1):", "f(b=2, a=1)", false, false, true},
		{"def f(a, /, b):", "f(a=1, b=2)", false, false, false},
		{"def f(a, *, key):", "f(1)", false, false, false},
		{"def f(a, *, key):", "f(1, key=2)", false, false, true},
		{"def f(a, *rest, **kw):", "f(1, 2, 3, x=4)", false, false, true},
		{"def m(self, o):", "x.m(o)", true, false, true},
		{"def m(self, o):", "x.m()", true, false, false},
		{"def m(self):", "Base.m(self)", true, true, true},
		{"def m(self):", "Base.m()", true, true, false},
		{"@classmethod\ndef m(cls, o):", "Base.m(o)", true, true, true},
		{"@staticmethod\ndef m(o):", "x.m(o)", true, false, true},
		{"def m(self, o: dict[str, int] = {}):", "x.m()", true, false, true},
		{"def m(self, s=')'):", "x.m(')', ')')", true, false, false},
	}
	for _, c := range cases {
		t.Run(c.def+" "+c.call, func(t *testing.T) {
			src := []byte(c.def + "\n    pass\n")
			p := pyDefParams(src, strings.Index(string(src), "def "), len(src), c.method, c.viaClass)
			a := pyCallArgs(c.call)
			if !p.ok || !a.ok {
				t.Fatalf("not read: params %+v, args %+v", p, a)
			}
			if got := p.accepts(a); got != c.fits {
				t.Errorf("fits: got %v, want %v (params %+v, args %+v)", got, c.fits, p, a)
			}
		})
	}
}

// TestPyLiteralType checks which return values are typed as one literal.
func TestPyLiteralType(t *testing.T) {
	cases := []struct{ v, want string }{
		{`b""`, "bytes"},
		{`rb'\d'`, "bytes"},
		{`f"{x}"`, "str"},
		{`'abc'`, "str"},
		{`"x".encode()`, ""},
		{`"a" + b`, ""},
		{"12", "int"},
		{"1.5e3", "float"},
		{"1 + x", ""},
		{"True", "bool"},
		{"[1, 2]", "list"},
		{"[a, b][0]", ""},
		{"{}", "dict"},
		{`{"k": v}`, "dict"},
		{"{a, b}", "set"},
		{"Store()", ""},
	}
	for _, c := range cases {
		if got := pyLiteralType(c.v); got != c.want {
			t.Errorf("pyLiteralType(%q) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestPythonMissingMember checks self.m() and cls.m() in a class with no
// member m: not a caller of an unrelated class's m (pyright ties it to
// nothing), a dispatch to a subclass's, and left name-only where the class
// may have m after all (a base out of reach, an attribute it sets).
func TestPythonMissingMember(t *testing.T) {
	dir := project(t, map[string]string{"h.py": `import somewhere
class BaseHeader(str):
    def __new__(cls, name, value):
        kwds = {}
        cls.parse(value, kwds)
        return str.__new__(cls, value)
class Plain:
    def run(self):
        self.parse(1, 2)
class Dynamic:
    def __init__(self, f):
        self.parse = f
    def run(self):
        self.parse(1, 2)
class Far(somewhere.Base):
    def run(self):
        self.parse(1, 2)
class Unstructured:
    @classmethod
    def parse(cls, value, kwds):
        pass
class Sub(BaseHeader):
    @classmethod
    def parse(cls, value, kwds):
        pass
`})
	cases := []struct {
		symbol string
		want   []string // "caller confidence reason"
	}{
		{"Unstructured.parse", []string{"run name-only untyped receiver", "run name-only untyped receiver"}},
		{"Sub.parse", []string{"__new__ dispatch ", "run name-only untyped receiver", "run name-only untyped receiver"}},
	}
	for _, c := range cases {
		t.Run(c.symbol, func(t *testing.T) {
			sameList(t, "callers of "+c.symbol, pyCallerReasons(t, dir, c.symbol), c.want)
		})
	}
}

// pyCallerReasons lists the callers of a Python symbol as "caller
// confidence reason", sorted.
func pyCallerReasons(t *testing.T, dir, symbol string) []string {
	t.Helper()
	r := run(t, dir, Params{Mode: ModeCallers, Language: "python", Symbol: symbol})
	var got []string
	for _, n := range r.Callers {
		got = append(got, n.Name+" "+n.Confidence+" "+n.Reason)
	}
	sort.Strings(got)
	return got
}

// TestPythonLibraryBase: a call of a standard library class's method, on
// a value of that class or named through its module, is no call of a
// workspace class's override of it (pyright ties it to the library's
// declaration alone).
func TestPythonLibraryBase(t *testing.T) {
	dir := project(t, map[string]string{"resp.py": `import io
import socketserver
class Resp(io.BufferedIOBase):
    def readline(self, size=-1):
        return b""
class Server(socketserver.TCPServer):
    def server_bind(self):
        socketserver.TCPServer.server_bind(self)
def read(r: Resp, b: io.BufferedIOBase):
    r.readline()
    b.readline()
`})
	for _, c := range []struct {
		symbol string
		want   []string
	}{
		{"Resp.readline", []string{"read resp.py resolved"}},
		{"Server.server_bind", nil},
	} {
		r := run(t, dir, Params{Mode: ModeCallers, Language: "python", Symbol: c.symbol})
		sameList(t, "callers of "+c.symbol, callerSet(r.Callers), c.want)
	}
}

// TestPythonReturnedModules: a function returning one of several modules
// (email.charset's _get_encoder returns email.base64mime or
// email.quoprimime) gives a value whose functions are each module's.
func TestPythonReturnedModules(t *testing.T) {
	dir := project(t, map[string]string{"pkg/__init__.py": "",
		"pkg/b64.py": "def header_encode(a, b='x'):\n    return a\n",
		"pkg/qp.py":  "def header_encode(a, b='x'):\n    return a\n",
		"pkg/use.py": `import pkg.b64
import pkg.qp
class C:
    def _get(self, x):
        if x == 1:
            return pkg.b64
        elif x == 2:
            return pkg.qp
        return None
    def enc(self, s):
        m = self._get(s)
        if m is None:
            return s
        return m.header_encode(s, 'c')
    def header_encode(self, s):
        return s
`})
	for _, sym := range []string{"b64.header_encode", "qp.header_encode"} {
		r := run(t, dir, Params{Mode: ModeCallers, Language: "python", Symbol: sym})
		sameList(t, "callers of "+sym, callerSet(r.Callers), []string{"enc pkg/use.py resolved"})
	}
}

// TestPythonMethodReads: a method named without a call (stored, passed,
// returned) is a call site and a reference when its receiver's type ties
// it to the method, as pyright's call hierarchy and references count it;
// by name alone it is left out of both.
func TestPythonMethodReads(t *testing.T) {
	dir := project(t, map[string]string{"v.py": `class Boolean:
    def validate(self, value):
        return True
class Other:
    def validate(self, value):
        return False
_boolean = Boolean()
validators = {}
def register(name):
    validators[name] = _boolean.validate
def other(o: Other, x):
    validators["o"] = o.validate
    validators["x"] = x.validate
def check(v):
    return _boolean.validate(v)
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "python", Symbol: "Boolean.validate"})
	sameList(t, "callers of Boolean.validate", callerSet(r.Callers), []string{"register v.py resolved", "check v.py resolved"})
	r = run(t, dir, Params{Mode: ModeReferences, Language: "python", Symbol: "Boolean.validate"})
	got := refList(r, func(cat string, it Ref) string { return fmt.Sprintf("%s:%d", it.File, it.Line) })
	sameList(t, "references of Boolean.validate", got, []string{"v.py:10", "v.py:15"})
}

// TestBareNameKeepsWhatADefinitionKeeps checks that a bare name's answer
// lists a call by name only when the answer about one of its definitions
// would: urllib.parse.quote() is the library's, whatever quote is asked.
func TestBareNameKeepsWhatADefinitionKeeps(t *testing.T) {
	dir := project(t, map[string]string{
		"a.py": `import urllib.parse
from string import ascii_letters

def quote(s):
    return s

class G:
    def quote(self):
        pass

def f(x):
    quote(x)

def g(x):
    urllib.parse.quote(x)

def k():
    ascii_letters.quote()

def h():
    load().quote()
`,
	})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "python", Symbol: "quote"})
	var got []string
	for _, n := range r.Callers {
		got = append(got, fmt.Sprintf("%s %s %s", n.Via, n.Confidence, n.Def))
	}
	sameList(t, "callers of quote", got, []string{"quote(x) resolved quote a.py:4", "load().quote() name-only "})
}
