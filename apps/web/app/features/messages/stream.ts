import { create } from 'zustand';
import { langFromDocument } from '../../i18n/index.ts';
import { API_BASE, STATUS_SESSION_LOST } from '../../lib/api.ts';
import { getUnread } from './api/get-unread.ts';
import { getStreamTicket, STREAM_PATH } from './api/stream-ticket.ts';
import type { MessageItem } from './api/types.ts';

/**
 * The live unread count and new messages of the signed-in user: one EventSource per tab on the
 * message stream (SSE). The server pushes `unread` ({count}) on connect and whenever it changes, and
 * `message` (the new message, in this page's language) as it is created.
 *
 * EventSource cannot send the token header, so every connection first asks for a single-use ticket
 * (POST, with the token); the token itself is never in a URL. Because a ticket works once, the
 * browser's own reconnect cannot be used: on any error the connection is closed and a new one is
 * made with a new ticket after a backoff (1 s, 2 s, 4 s … 30 s, with jitter; reset once the stream
 * delivers) — so a server that is down or refusing (429: too many streams) sees a few calls a
 * minute, not a storm. `after` (the newest message id seen) brings what arrived while disconnected.
 * `logout` (the session was revoked elsewhere) stops it; the next API call then reports the lost
 * session the usual way. stop() (logout, the header unmounting) closes it at once.
 */
interface MessageStreamState {
  /** null until the first count arrives. */
  unread: number | null;
  connected: boolean;
  /** The newest message pushed by the stream (the message center refreshes on it). */
  latest: MessageItem | null;
  /** Increments with every pushed message. */
  version: number;
  setUnread(n: number): void;
}

export const useMessageStream = create<MessageStreamState>()((set) => ({
  unread: null,
  connected: false,
  latest: null,
  version: 0,
  setUnread: (n) => set({ unread: Math.max(0, n) }),
}));

const MAX_BACKOFF_MS = 30_000;
let source: EventSource | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let running = false;
/** Each start() gets a generation; callbacks of an older one do nothing. */
let generation = 0;
let attempt = 0;
let lastId = 0;
const listeners = new Set<(m: MessageItem) => void>();

/** Called for every new message pushed (e.g. a toast). Returns the unsubscribe function. */
export function onNewMessage(fn: (m: MessageItem) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function startMessageStream() {
  if (running || typeof window === 'undefined' || typeof EventSource === 'undefined') return;
  running = true;
  attempt = 0;
  const gen = ++generation;
  void connect(gen);
}

export function stopMessageStream() {
  running = false;
  generation++;
  if (timer) clearTimeout(timer);
  timer = undefined;
  source?.close();
  source = null;
  lastId = 0;
  useMessageStream.setState({ unread: null, connected: false, latest: null });
}

function scheduleReconnect(gen: number) {
  if (!running || gen !== generation) return;
  const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(attempt, 5));
  attempt++;
  const delay = base / 2 + Math.random() * (base / 2);
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => void connect(gen), delay);
}

async function connect(gen: number) {
  if (!running || gen !== generation) return;
  const r = await getStreamTicket();
  if (!running || gen !== generation) return;
  if (!r.ok) {
    // A lost session is handled by the API client (the user store is cleared and the header stops us).
    if (r.status !== STATUS_SESSION_LOST) scheduleReconnect(gen);
    return;
  }
  const q = new URLSearchParams({ ticket: r.data.ticket, lang: langFromDocument() });
  if (lastId > 0) q.set('after', String(lastId));
  const es = new EventSource(`${API_BASE}${STREAM_PATH}?${q}`);
  source = es;
  const alive = () => running && gen === generation && source === es;
  es.addEventListener('open', () => {
    if (alive()) useMessageStream.setState({ connected: true });
  });
  es.addEventListener('unread', (e) => {
    if (!alive()) return;
    attempt = 0;
    const { count } = JSON.parse((e as MessageEvent<string>).data) as { count: number };
    useMessageStream.setState({ unread: count, connected: true });
  });
  es.addEventListener('message', (e) => {
    if (!alive()) return;
    const m = JSON.parse((e as MessageEvent<string>).data) as MessageItem;
    lastId = Math.max(lastId, m.id);
    useMessageStream.setState((s) => ({ latest: m, version: s.version + 1 }));
    for (const fn of listeners) fn(m);
  });
  es.addEventListener('logout', () => {
    if (!alive()) return;
    es.close();
    source = null;
    running = false;
    useMessageStream.setState({ connected: false });
    // The session ended elsewhere: a call now gets 1100 and the client's usual handling runs.
    void getUnread().catch(() => undefined);
  });
  es.onerror = () => {
    if (!alive()) return;
    es.close();
    source = null;
    useMessageStream.setState({ connected: false });
    scheduleReconnect(gen);
  };
}
