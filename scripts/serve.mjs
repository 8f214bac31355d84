#!/usr/bin/env node
/**
 * A small static file server for the built site (no dependencies). It sends the same strict
 * Content-Security-Policy as the page's <meta> tag (plus frame-ancestors, which only a header can set), correct MIME types (application/wasm for the
 * engine), Content-Length (for the download progress bar) and no-cache (the service worker does
 * the offline caching). It can serve the site under a sub-path, as tests do.
 *
 *   node scripts/serve.mjs [dir=dist] [--port 8080] [--host 127.0.0.1] [--base /some/sub/path/]
 *
 * Prints the URL. If the port is taken it tries the next ones. Also importable: startServer().
 */
import { createServer } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The page's own policy (its <meta> tag says the same), and what only a header can say: who may
// frame the page (frame-ancestors is ignored in <meta>). Other static hosts should send it too.
export const PAGE_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'self'; form-action 'none'";
export const CSP = `${PAGE_CSP}; frame-ancestors 'self'`;

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.tsv': 'text/tab-separated-values; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.nmt': 'application/octet-stream',
};

function headers(extra = {}) {
  return {
    'Content-Security-Policy': CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-cache',
    ...extra,
  };
}

/**
 * Starts serving `root` at `base`.
 * @param {{root: string, port?: number, host?: string, base?: string, routes?: Record<string, string>, log?: boolean}} options
 *   routes: extra URL paths (under base) → files, e.g. benchmark data that is not in the site.
 * @returns {Promise<{url: string, port: number, close: () => Promise<void>, server: import('node:http').Server}>}
 */
export function startServer({ root, port = 0, host = '127.0.0.1', base = '/', routes = {}, log = false }) {
  root = path.resolve(root);
  if (!base.startsWith('/')) base = `/${base}`;
  if (!base.endsWith('/')) base = `${base}/`;
  const server = createServer((req, res) => {
    const done = (status, body, extra) => {
      res.writeHead(status, headers({ 'Content-Type': 'text/plain; charset=utf-8', ...extra }));
      res.end(req.method === 'HEAD' ? undefined : body);
      if (log) console.log(`${status} ${req.method} ${req.url}`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return done(405, 'Method not allowed\n', { Allow: 'GET, HEAD' });
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      return done(400, 'Bad request\n');
    }
    if (`${pathname}/` === base) return done(301, '', { Location: base });
    if (!pathname.startsWith(base)) return done(404, 'Not found\n');
    const rel = pathname.slice(base.length);
    let file = routes[rel] ? path.resolve(routes[rel]) : path.resolve(root, `.${path.posix.sep}${rel}`);
    if (!routes[rel] && file !== root && !file.startsWith(root + path.sep)) return done(403, 'Forbidden\n');
    let st;
    try {
      st = statSync(file);
    } catch {
      return done(404, 'Not found\n');
    }
    if (st.isDirectory()) {
      if (!pathname.endsWith('/')) return done(301, '', { Location: `${pathname}/` });
      file = path.join(file, 'index.html');
      if (!existsSync(file)) return done(404, 'Not found\n');
      st = statSync(file);
    }
    const type = TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream';
    const etag = `"${st.size.toString(36)}-${Math.floor(st.mtimeMs).toString(36)}"`;
    if (req.headers['if-none-match'] === etag) return done(304, undefined, { ETag: etag });
    res.writeHead(200, headers({ 'Content-Type': type, 'Content-Length': String(st.size), ETag: etag }));
    if (log) console.log(`200 ${req.method} ${req.url}`);
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).on('error', () => res.destroy()).pipe(res);
  });
  const sockets = new Set();
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const actual = server.address().port;
      const shownHost = host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
      resolve({
        url: `http://${shownHost}:${actual}${base}`,
        port: actual,
        server,
        close: () => new Promise((r) => {
          for (const s of sockets) s.destroy();
          server.close(() => r());
        }),
      });
    });
  });
}

async function main(argv) {
  const opts = { root: null, port: Number(process.env.PORT) || 8080, host: process.env.HOST || '127.0.0.1', base: '/', log: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--host') opts.host = argv[++i];
    else if (a === '--base') opts.base = argv[++i];
    else if (a === '--log') opts.log = true;
    else if (a === '--help' || a === '-h') {
      console.log('usage: node scripts/serve.mjs [dir=dist] [--port 8080] [--host 127.0.0.1] [--base /sub/path/] [--log]');
      return;
    } else if (!opts.root) opts.root = a;
    else throw new Error(`unknown argument ${a}`);
  }
  opts.root = path.resolve(opts.root || 'dist');
  if (!existsSync(path.join(opts.root, 'index.html'))) {
    throw new Error(`${opts.root} has no index.html: build the site first (npm run build).`);
  }
  let lastError;
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const s = await startServer({ ...opts, port: opts.port ? opts.port + attempt : 0 });
      console.log(`Serving ${path.relative(process.cwd(), opts.root) || '.'}/ at ${s.url}  (Ctrl+C to stop)`);
      return;
    } catch (e) {
      if (e.code !== 'EADDRINUSE') throw e;
      lastError = e;
    }
  }
  throw lastError;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(`serve: ${e.message}`);
    process.exit(1);
  });
}
