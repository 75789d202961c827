import { fork } from 'node:child_process';
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
