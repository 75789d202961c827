import { API, call, newMobile, type TestApp } from './helpers.ts';
import type { Trader } from './market-helpers.ts';
import '../src/modules/messages/tables.ts';

/** Helpers of the message-center tests: message rows, a phone that can receive SMS, and a real SSE client. */

export async function messagesOf(t: TestApp, userId: number) {
  return t.ctx.db.kysely.selectFrom('messages').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export async function noticeOutbox(t: TestApp, userId: number) {
  return t.ctx.db.kysely.selectFrom('sms_notice_outbox').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

/** Gives a test trader (whose inserted mobile is not a real phone number) an 11-digit phone. */
export async function givePhone(t: TestApp, u: Trader): Promise<string> {
  const mobile = newMobile();
  await t.ctx.db.kysely.updateTable('users').set({ mobile }).where('id', '=', u.userId).execute();
  return mobile;
}

export async function ticketFor(t: TestApp, u: { h: Record<string, string> }): Promise<string> {
  const r = await call(t, '/api/user/message/v1/stream/ticket', {}, u.h);
  if (r.status !== '000000') throw new Error(`ticket: ${r.status} ${r.message}`);
  return r.data.ticket;
}

export interface SseEvent {
  event: string;
  data: any;
  id?: string;
}

/**
 * A real SSE client over HTTP (fetch streaming): collects events; `next(pred)` waits for the first
 * not yet consumed event matching `pred` (timeout 15 s).
 */
export class SseClient {
  events: SseEvent[] = [];
  comments = 0;
  status = 0;
  headers: Headers | undefined;
  ended = false;
  private consumed = 0;
  private waiters: (() => void)[] = [];
  private ac = new AbortController();

  static async open(baseUrl: string, query: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const c = new SseClient();
    const res = await fetch(`${baseUrl}${API}/api/user/message/v1/stream?${query}`, { headers: { accept: 'text/event-stream', ...headers }, signal: c.ac.signal });
    c.status = res.status;
    c.headers = res.headers;
    if (res.status !== 200 || !res.body) {
      c.ended = true;
      c.events.push({ event: 'http', data: await res.json().catch(() => null) });
      return c;
    }
    void c.pump(res.body);
    return c;
  }

  private async pump(body: ReadableStream<Uint8Array>) {
    const reader = body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          let event = 'message';
          let data = '';
          let id: string | undefined;
          let any = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) this.comments++;
            else if (line.startsWith('event: ')) {
              event = line.slice(7);
              any = true;
            } else if (line.startsWith('data: ')) {
              data += line.slice(6);
              any = true;
            }
            else if (line.startsWith('id: ')) id = line.slice(4);
          }
          if (any) this.events.push({ event, data: data ? JSON.parse(data) : null, id });
          this.notify();
        }
      }
    } catch {
      // aborted
    }
    this.ended = true;
    this.notify();
  }

  private notify() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** The next event (after those already taken) matching `pred`; earlier non-matching ones are skipped. */
  async next(pred: (e: SseEvent) => boolean, timeoutMs = 15_000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.consumed < this.events.length) {
        const e = this.events[this.consumed++]!;
        if (pred(e)) return e;
      }
      if (this.ended) throw new Error(`stream ended; events: ${JSON.stringify(this.events)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms; events: ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until the server ends the stream. */
  async closed(timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error('stream still open');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close() {
    this.ac.abort();
  }
}

/** Listens on a loopback port; returns the base URL. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  if (!addr || typeof addr !== 'object') throw new Error('not listening');
  return `http://127.0.0.1:${addr.port}`;
}
