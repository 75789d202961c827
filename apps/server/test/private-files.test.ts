import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOrCreateSecretFile } from '../src/util/private-files.ts';
import { loadSecretBox } from '../src/util/secret-box.ts';

/**
 * Generated secrets in DATA_DIR (data.key, operator.key, owner.key, payment-sandbox.key,
 * payout-sandbox.key) are created once even when several processes start on a fresh DATA_DIR at
 * the same moment (two servers, a server and the create-staff tool): every process ends up with
 * the key that is on disk — never one of its own that another process overwrote, nor a file read
 * half-written.
 */
const FILES = { data: 'data.key', operator: 'operator.key', owner: 'owner.key', payment: 'payment-sandbox.key', payout: 'payout-sandbox.key' };
type Keys = Record<keyof typeof FILES, string>;

describe('secret files created by racing processes', () => {
  const racers: ChildProcess[] = [];
  beforeAll(async () => {
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        const c = fork(path.join(import.meta.dirname, 'fixtures/key-racer.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        racers.push(c);
        await new Promise<void>((resolve) => c.once('message', () => resolve()));
      }),
    );
  }, 60_000);
  afterAll(() => racers.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

  async function round(): Promise<{ dir: string; keys: Keys[] }> {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-keys-')), 'data');
    const at = Date.now() + 150;
    const keys = await Promise.all(
      racers.map(
        (c) =>
          new Promise<Keys>((resolve) => {
            c.once('message', ({ type: _type, ...m }: Keys & { type: string }) => resolve(m));
            c.send({ dir, at });
          }),
      ),
    );
    return { dir, keys };
  }

  it('6 processes × 15 fresh DATA_DIRs: every process gets the key that is on disk, the files are 0600 and whole', async () => {
    for (let r = 0; r < 15; r++) {
      const { dir, keys } = await round();
      const onDisk = {
        data: loadSecretBox(dir, '').digest('probe'),
        operator: fs.readFileSync(path.join(dir, FILES.operator), 'utf8').trim(),
        owner: fs.readFileSync(path.join(dir, FILES.owner), 'utf8').trim(),
        payment: fs.readFileSync(path.join(dir, FILES.payment), 'utf8').trim(),
        payout: fs.readFileSync(path.join(dir, FILES.payout), 'utf8').trim(),
      };
      expect(onDisk.operator).toMatch(/^0x[0-9a-f]{64}$/);
      expect(onDisk.owner).toMatch(/^0x[0-9a-f]{64}$/);
      expect(onDisk.payment).toMatch(/^[0-9a-f]{64}$/);
      expect(onDisk.payout).toMatch(/^[0-9a-f]{64}$/);
      expect(fs.readFileSync(path.join(dir, FILES.data), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
      for (const k of keys) expect({ round: r, ...k }).toEqual({ round: r, ...onDisk });
      for (const f of Object.values(FILES)) expect(fs.statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
      // No temporary files left behind.
      expect(fs.readdirSync(dir).sort()).toEqual(Object.values(FILES).sort());
    }
  }, 120_000);
});

describe('readOrCreateSecretFile', () => {
  it('creates the file once (0600, in a 0700 directory it makes), then reads it; an empty file is refused', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-keys-')), 'nested');
    const file = path.join(dir, 'x.key');
    let made = 0;
    const gen = () => `secret-${++made}`;
    expect(readOrCreateSecretFile(file, gen)).toBe('secret-1');
    expect(readOrCreateSecretFile(file, gen)).toBe('secret-1');
    expect(made).toBe(1);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    fs.writeFileSync(path.join(dir, 'empty.key'), '');
    expect(() => readOrCreateSecretFile(path.join(dir, 'empty.key'), gen)).toThrow(/empty\.key is empty/);
  });
});
