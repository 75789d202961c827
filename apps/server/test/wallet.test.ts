import crypto from 'node:crypto';
import { PersonalMessage, format, sign } from 'js-conflux-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeApp, register, type TestApp } from './helpers.ts';

/** Wallet linking with proof of ownership: personal_sign of a one-time challenge. */
let t: TestApp;
beforeAll(async () => { t = await makeApp(); });
afterAll(async () => { await t?.close(); });

const EN = { lang: 'en' };
function wallet() {
  const pk = `0x${crypto.randomBytes(32).toString('hex')}`;
  const hex = format.hexAddress(sign.privateKeyToAddress(format.hexBuffer(pk)));
  return { pk, address: format.address(hex, 1029), testnet: format.address(hex, 1), sign: (m: string) => PersonalMessage.sign(pk, m) };
}
async function link(token: string, w: ReturnType<typeof wallet>, signer = w) {
  const ch = await call(t, '/api/user/v1/walletchallenge', { walletAddress: w.address }, { token });
  expect(ch.status).toBe('000000');
  return call(t, '/api/user/v1/walletlogin', { walletAddress: w.address, code: signer.sign(ch.data.message) }, { token, ...EN });
}

describe('wallet linking', () => {
  it('links a wallet whose signature proves ownership; the profile then shows it', async () => {
    const u = await register(t);
    const w = wallet();
    const r = await link(u.token, w);
    expect(r).toMatchObject({ status: '000000', data: { walletAddress: w.address } });
    const p = await call(t, '/api/user/profile/v1/userprofile', {}, { token: u.token });
    expect(p.data.walletAddress).toBe(w.address);
    expect(p.data.walletAddress.startsWith('cfx:')).toBe(true);
    const s = await call(t, '/api/user/v1/walletloginstatus', {}, { token: u.token });
    expect(s.data).toEqual({ walletAddress: w.address, isLoginWallet: true });
    expect((await call(t, '/api/user/v1/walletlogout', {}, { token: u.token })).status).toBe('000000');
    const after = await call(t, '/api/user/v1/walletloginstatus', {}, { token: u.token });
    expect(after.data).toEqual({ walletAddress: w.address, isLoginWallet: false });
    // linking the same wallet again reconnects it
    expect((await link(u.token, w)).status).toBe('000000');
  });

  it('refuses a signature by another key, binding nothing', async () => {
    const u = await register(t);
    const w = wallet();
    const r = await link(u.token, w, wallet());
    expect(r).toMatchObject({ status: '1008', message: 'wallet signature verification failed' });
    expect((await call(t, '/api/user/profile/v1/userprofile', {}, { token: u.token })).data.walletAddress).toBe('');
  });

  it('refuses garbage signatures', async () => {
    const u = await register(t);
    const w = wallet();
    await call(t, '/api/user/v1/walletchallenge', { walletAddress: w.address }, { token: u.token });
    for (const code of ['', '0x', '0x1234', `0x${'ab'.repeat(65)}`, 'not-hex', `0x${'00'.repeat(64)}05`]) {
      const r = await call(t, '/api/user/v1/walletlogin', { walletAddress: w.address, code }, { token: u.token });
      expect(r.status, code).toBe('1008');
    }
  });

  it('refuses another network\'s address (cfxtest:) and hex addresses', async () => {
    const u = await register(t);
    const w = wallet();
    for (const walletAddress of [w.testnet, format.hexAddress(w.address), 'cfx:notanaddress']) {
      const r = await call(t, '/api/user/v1/walletchallenge', { walletAddress }, { token: u.token, ...EN });
      expect(r).toMatchObject({ status: '1001', message: 'please use a Conflux main network (cfx:) wallet address' });
      expect((await call(t, '/api/user/v1/walletlogin', { walletAddress, code: '0x' }, { token: u.token })).status).toBe('1001');
    }
  });

  it('one wallet per user and one user per wallet', async () => {
    const a = await register(t);
    const b = await register(t);
    const w = wallet();
    expect((await link(a.token, w)).status).toBe('000000');
    const taken = await link(b.token, w);
    expect(taken).toMatchObject({ status: '1009', message: 'this wallet is already linked to another account' });
    const other = await link(a.token, wallet());
    expect(other).toMatchObject({ status: '1009', message: 'your account is already linked to another wallet' });
    expect((await call(t, '/api/user/profile/v1/userprofile', {}, { token: b.token })).data.walletAddress).toBe('');
  });

  it('a challenge is single use and expires', async () => {
    const u = await register(t);
    const w = wallet();
    const ch = await call(t, '/api/user/v1/walletchallenge', { walletAddress: w.address }, { token: u.token });
    t.clock.t += 5 * 60_000 + 1;
    const late = await call(t, '/api/user/v1/walletlogin', { walletAddress: w.address, code: w.sign(ch.data.message) }, { token: u.token, ...EN });
    expect(late).toMatchObject({ status: '1008', message: 'the signature request has expired, please try again' });
    const ch2 = await call(t, '/api/user/v1/walletchallenge', { walletAddress: w.address }, { token: u.token });
    const code = w.sign(ch2.data.message);
    expect((await call(t, '/api/user/v1/walletlogin', { walletAddress: w.address, code }, { token: u.token })).status).toBe('000000');
    expect((await call(t, '/api/user/v1/walletlogin', { walletAddress: w.address, code }, { token: u.token })).status).toBe('1008');
  });

  it('a challenge issued to one user cannot link for another', async () => {
    const a = await register(t);
    const b = await register(t);
    const w = wallet();
    const ch = await call(t, '/api/user/v1/walletchallenge', { walletAddress: w.address }, { token: a.token });
    const r = await call(t, '/api/user/v1/walletlogin', { walletAddress: w.address, code: w.sign(ch.data.message) }, { token: b.token });
    expect(r.status).toBe('1008');
  });

  it('needs a login', async () => {
    const w = wallet();
    for (const p of ['walletchallenge', 'walletlogin', 'walletloginstatus', 'walletlogout']) {
      const r = await call(t, `/api/user/v1/${p}`, { walletAddress: w.address, code: '0x' });
      expect(r.status, p).toBe('1100');
    }
  });
});
