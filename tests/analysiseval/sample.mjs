// What both truth scripts (truth.mjs for TypeScript, pyright.mjs for
// Python) share: the source files they read, and the sample they measure.

import fs from 'node:fs';
import path from 'node:path';

// sourceFiles lists the files under dir whose name matches re, folders
// walked in name order.
export function sourceFiles(dir, re) {
  const files = [];
  (function walk(d) {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (re.test(e.name)) files.push(p);
    }
  })(dir);
  return files;
}

// The sample both truth scripts (truth.mjs for TypeScript, pyright.mjs for
// Python) measure: of the declarations whose name several share (and that
// keep accepts), one per file and qualified name, in a seeded order
// (mulberry32, so a seed picks the same sample everywhere), the first n
// (all when n is 0). It returns the sample, how many symbols were shared,
// and the seeded generator, which goes on where the sample left it.
export function sampleShared(decls, rel, seed, n, keep = () => true) {
  const byName = new Map();
  for (const d of decls) byName.set(d.name, (byName.get(d.name) || 0) + 1);
  const seen = new Set();
  const shared = decls.filter((d) => {
    if (byName.get(d.name) < 2 || !keep(d)) return false;
    // One declaration per (qualifier, name): overloads and merged
    // declarations are one symbol.
    const k = `${rel(d.file)}|${d.qual}.${d.name}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = shared.map((d) => [rand(), d]).sort((x, y) => x[0] - y[0]).map((x) => x[1]);
  return { sample: n > 0 ? order.slice(0, n) : order, shared: shared.length, rand };
}
