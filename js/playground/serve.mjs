// Serves a built playground (make playground) on http://127.0.0.1:PORT/
// (PORT from the environment, default 8080):
//
//   node js/playground/serve.mjs [DIR]
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.map': 'application/json',
};

/** A static file server for dir; resolves to the listening server. */
export function servePlayground(dir, port = 0, host = '127.0.0.1') {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((ok) => server.listen(port, host, () => ok(server)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), 'dist');
  if (!existsSync(join(dir, 'index.html'))) {
    console.error(`no playground in ${dir}: run make playground first`);
    process.exit(1);
  }
  const server = await servePlayground(dir, Number(process.env.PORT ?? 8080));
  console.log(`loupe playground: http://127.0.0.1:${server.address().port}/`);
}
