import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, isSuccess } from '../app/lib/api.ts';
import { useToastStore } from '../app/stores/toast.ts';
import { useUserStore } from '../app/stores/user.ts';

function respond(body: unknown) {
  return vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
}
const env = (status: string, extra: Record<string, unknown> = {}) => ({ status, code: status, data: null, message: 'm', msg: '', ...extra });

beforeEach(() => {
  useToastStore.setState({ items: [] });
  useUserStore.setState({ token: 'T', nickname: 'n' });
});
afterEach(() => vi.unstubAllGlobals());

describe('success rules', () => {
  it('status 000000 except for official URLs, which use code 200', () => {
    expect(isSuccess('/api/user/v1/login', { status: '000000', code: '000000' })).toBe(true);
    expect(isSuccess('/api/user/v1/login', { status: '1001', code: 200 })).toBe(false);
    expect(isSuccess('/official/news/list', { status: '', code: 200 })).toBe(true);
    expect(isSuccess('/official/news/list', { status: '000000', code: 500 })).toBe(false);
  });
});

describe('api client', () => {
  it('posts JSON to /mvapi/public with channel, token and lang headers', async () => {
    const fetch = respond(env('000000', { data: { a: 1 } }));
    vi.stubGlobal('fetch', fetch);
    const r = await api('/api/user/v1/getinvitecode', { x: 1 });
    expect(r).toMatchObject({ ok: true, data: { a: 1 } });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/mvapi/public/api/user/v1/getinvitecode');
    expect(init!.method).toBe('POST');
    expect(init!.body).toBe('{"x":1}');
    expect(init!.headers).toMatchObject({ channel: 'pc', token: 'T', lang: 'zh', 'content-type': 'application/json' });
  });

  it('shows a red closable message with the server message on failure', async () => {
    vi.stubGlobal('fetch', respond(env('1001', { message: 'bad thing' })));
    const r = await api('/api/user/v1/smscode', {});
    expect(r.ok).toBe(false);
    expect(useToastStore.getState().items).toMatchObject([{ kind: 'error', text: 'bad thing', closable: true }]);
  });

  it('falls back to msg when message is empty', async () => {
    vi.stubGlobal('fetch', respond(env('1001', { message: '', msg: 'from msg' })));
    await api('/api/user/v1/smscode', {});
    expect(useToastStore.getState().items[0]?.text).toBe('from msg');
  });

  it('skip-list paths and silent calls show nothing', async () => {
    vi.stubGlobal('fetch', respond(env('1001')));
    await api('/api/user/profile/v1/profpic/list');
    await api('/api/user/v1/logout', {}, { silent: true });
    expect(useToastStore.getState().items).toEqual([]);
  });

  it('1100 clears the user and closes other messages', async () => {
    useToastStore.getState().push('info', 'older');
    vi.stubGlobal('fetch', respond(env('1100')));
    const r = await api('/api/user/profile/v1/userprofile');
    expect(r.ok).toBe(false);
    expect(useUserStore.getState().token).toBe('');
    expect(useUserStore.getState().nickname).toBe('');
    const items = useToastStore.getState().items;
    expect(items).toHaveLength(1);
    expect(items[0]!.kind).toBe('error');
  });

  it('1100 answers in a row (the stream\'s logout, then a save) leave the one session message showing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 10_000);
      vi.stubGlobal('fetch', respond(env('1100')));
      await api('/api/user/message/v1/unread');
      vi.setSystemTime(Date.now() + 100);
      useUserStore.setState({ token: 'T' });
      await api('/api/user/profile/v1/modifynickname', { nickname: 'x' });
      const items = useToastStore.getState().items;
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ kind: 'error', text: 'session.lost' }); // the catalog key (the e2e shell test checks the words)
    } finally {
      vi.useRealTimers();
    }
  });

  it('1100 can be handled by the caller (password reset)', async () => {
    vi.stubGlobal('fetch', respond(env('1100')));
    await api('/api/user/findpwd/v1/reset', {}, { ownSessionCodes: true, silent: true });
    expect(useUserStore.getState().token).toBe('T');
  });

  it('network errors are logged only', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('offline'); }));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const r = await api('/api/user/v1/login', {});
    expect(r).toMatchObject({ ok: false, networkError: true });
    expect(useToastStore.getState().items).toEqual([]);
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});
