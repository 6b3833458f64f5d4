// A small module with the usual JavaScript shapes.
'use strict';

const fs = require('fs');
const path = require("path");
const { promisify } = require('util');

const readFile = promisify(fs.readFile);

function add(a, b) {
  return a + b;
}

function sum(...xs) {
  let total = 0;
  for (const x of xs) {
    total = add(total, x);
  }
  return total;
}

async function load(file, opts = {}) {
  try {
    const text = await readFile(path.join(__dirname, file), 'utf8');
    return JSON.parse(text);
  } catch (err) {
    console.error('cannot load', file, err);
    return null;
  } finally {
    console.log("done", file);
  }
}

class Cache {
  constructor(limit) {
    this.limit = limit;
    this.items = new Map();
  }

  get(key) {
    if (this.items.has(key)) {
      return this.items.get(key);
    }
    return undefined;
  }

  set(key, value) {
    if (this.items.size >= this.limit) {
      const first = this.items.keys().next().value;
      this.items.delete(first);
    }
    this.items.set(key, value);
    return this;
  }

  static of(limit) { return new Cache(limit); }
}

const double = (x) => x * 2;
const square = x => x * x;
const same = (x) => x === x;
const cmp = (a, b) => a === b ? 0 : a < b ? -1 : 1;

if (sum(1, 2, 3) === 6) {
  console.log('ok');
} else {
  console.log('bad');
}

if (double(2) == 4) console.log("four");

var legacy = function (a, b, c) { return a || b || c; };

const obj = { a: 1, b: 2, c: [1, 2, 3], d: { e: 'f' }, };
const { a, b: renamed, ...rest } = obj;
const arr = [1, 2, 3].map(x => x + 1).filter(Boolean);

module.exports = { add, sum, load, Cache, double, square, same, cmp, legacy };

foo(a, b, c);
foo(a);
foo();
foo(/* before */ a /* after */);
foo(a, b,);
bar(bar);
bar(baz);
setTimeout(() => { console.log('tick'); }, 1000);
console.log(a, a);
console.log(a, b);

function Legacy(name) {
  this.name = name;
}
Legacy.prototype.greet = function () {
  return 'hi ' + this.name;
};
Object.defineProperty(Legacy.prototype, 'upper', {
  get: function () { return this.name.toUpperCase(); },
});

async function poll(check, tries) {
  let i = 0;
  while (i < tries) {
    if (await check()) {
      return true;
    }
    i++;
  }
  for (var j = 0; j < tries; j++) console.log(j);
  return false;
}

function pick(value, fallback) {
  if (value === undefined) {
    return fallback;
  }
  return value === null ? fallback : value;
}

max(a, a);
max(a, b);

function bail(x) {
  if (!x) return;
  return x;
}
