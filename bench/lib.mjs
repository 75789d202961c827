import { fork } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Starts bench/serve.ts in a child process (one core for the server, one for the load). */
export async function startServer(env = {}) {
  const child = fork(path.join(here, 'serve.ts'), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, ...env }, stdio: 'inherit' });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m.port));
    child.once('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

export async function post(base, p, body = {}, headers = {}) {
  const res = await fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return res.json();
}

export function load(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 50, duration: 10, method: 'POST', ...opts, headers: { 'content-type': 'application/json', ...(opts.headers ?? {}) } }, (err, r) => (err ? reject(err) : resolve(r)));
  });
}

export const fmt = (r) => `${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`;

/**
 * A sequential JSON POST client on one keep-alive socket (node:http). For latency figures: fetch
 * (undici) adds ≈ 0.5–1 ms per request and a tail of its own on the client side (measured side by
 * side: p50 1.41 vs 0.29 ms, p99 9.5 vs 2.9 ms for the same server), which would be counted as the
 * server's.
 */
export function keepAliveClient(base) {
  const u = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const postJson = (path, body) =>
    new Promise((resolve, reject) => {
      const data = JSON.stringify(body);
      const req = http.request(
        { host: u.hostname, port: u.port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
            } catch (err) {
              reject(err);
            }
          });
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  return { postJson, close: () => agent.destroy() };
}
