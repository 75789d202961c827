// Builds (once, cached by source mtime) the LD_PRELOAD shim that makes the embedded node listen on
// loopback only: see native/loopback-bind.c.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('../native/loopback-bind.c', import.meta.url));

/** Path of the compiled shim; throws a clear error when no C compiler is available. */
export function loopbackBindShim(): string {
  if (process.platform !== 'linux') throw new Error('the loopback shim of the embedded node is built for Linux only');
  const dir = join(tmpdir(), `cfx-loopback-bind-${process.getuid?.() ?? 0}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const out = join(dir, 'loopback-bind.so');
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(SOURCE).mtimeMs) return out;
  const tmp = `${out}.${process.pid}.tmp`;
  try {
    execFileSync(process.env.CC || 'cc', ['-shared', '-fPIC', '-O2', '-o', tmp, SOURCE, '-ldl'], { stdio: 'pipe' });
  } catch (err) {
    const detail = (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message;
    throw new Error(
      `cannot build the loopback shim of the embedded Conflux node (a C compiler is needed: apt-get install gcc): ${detail}. ` +
        'Set CHAIN_NODE_PUBLIC_LISTEN=1 only if the node may listen on every network interface.',
      { cause: err },
    );
  }
  renameSync(tmp, out); // atomic: concurrent builders never load a half-written file
  return out;
}
