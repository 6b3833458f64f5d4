#!/usr/bin/env node
'use strict';
// A tiny static site generator: reads Markdown-ish files and writes HTML.

import fs from 'node:fs/promises';
import { join, extname, basename } from 'node:path';
import * as util from 'node:util';

const größe = 3;
const DEFAULTS = Object.freeze({ out: 'dist', title: 'Mein Blog — ブログ', pretty: true });

/**
 * Escapes text for HTML.
 * @param {string} s
 */
export function escape(s) {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

class Page {
  static count = 0;
  #raw;

  constructor(file, raw) {
    this.file = file;
    this.#raw = raw;
    Page.count += 1;
  }

  get title() {
    const first = this.#raw.split('\n', 1)[0];
    return first.startsWith('# ') ? first.slice(2) : basename(this.file, extname(this.file));
  }

  render({ pretty } = DEFAULTS) {
    const body = this.#raw
      .split(/\n{2,}/)
      .map((block) => (block.startsWith('# ') ? `<h1>${escape(block.slice(2))}</h1>` : `<p>${escape(block)}</p>`))
      .join(pretty ? '\n' : '');
    return `<!doctype html><title>${escape(this.title)}</title>${body}`;
  }
}

async function* walk(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) {
      yield* walk(p);
    } else if (/\.(md|txt)$/i.test(entry.name)) {
      yield p;
    }
  }
}

export async function build(src, options = {}) {
  const opts = { ...DEFAULTS, ...options };
  await fs.mkdir(opts.out, { recursive: true });
  const pages = [];
  for await (const file of walk(src)) {
    const raw = await fs.readFile(file, 'utf8');
    pages.push(new Page(file, raw));
  }
  await Promise.all(
    pages.map(async (page, i) => {
      const target = join(opts.out, `${i}-${basename(page.file, extname(page.file))}.html`);
      await fs.writeFile(target, page.render(opts));
    }),
  );
  const index = pages.map((p, i) => `<li><a href="${i}.html">${escape(p.title)}</a></li>`).join('');
  await fs.writeFile(join(opts.out, 'index.html'), `<ul>${index}</ul>`);
  return { pages: pages.length, größe, debug: util.inspect(opts, { depth: 1 }) };
}

function parseArgs(argv) {
  const args = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') args.out = argv[++i];
    else if (a.startsWith('--')) args[a.slice(2)] = true;
    else args._.push(a);
  }
  return args;
}

const main = async () => {
  const { _: [src = 'content'], ...rest } = parseArgs(process.argv.slice(2));
  try {
    const result = await build(src, rest);
    console.log(`built ${result.pages} pages`);
  } catch (err) {
    console.error(err?.message ?? err);
    process.exitCode = 1;
  }
};

if (import.meta.url === `file://${process.argv[1]}`) main();
