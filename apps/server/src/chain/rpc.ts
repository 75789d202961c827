/** A minimal Conflux JSON-RPC client over fetch, with batches (one HTTP round trip for many calls). */
export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

export interface Rpc {
  url: string;
  call<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Results in order; a failed call yields its RpcError in place. */
  batch(calls: { method: string; params?: unknown[] }[]): Promise<(unknown | RpcError)[]>;
}

export function createRpc(url: string, timeoutMs = 30_000): Rpc {
  let id = 0;
  const post = async (body: unknown) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`rpc http ${res.status}`);
    return res.json() as Promise<any>;
  };
  return {
    url,
    async call(method, params = []) {
      const r = await post({ jsonrpc: '2.0', id: ++id, method, params });
      if (r.error) throw new RpcError(r.error.code, r.error.message, r.error.data);
      return r.result;
    },
    async batch(calls) {
      if (calls.length === 0) return [];
      const first = id + 1;
      const rs: any[] = await post(calls.map((c) => ({ jsonrpc: '2.0', id: ++id, method: c.method, params: c.params ?? [] })));
      const byId = new Map(rs.map((r) => [r.id, r]));
      return calls.map((_, i) => {
        const r = byId.get(first + i);
        if (!r) return new RpcError(-1, 'missing batch answer');
        return r.error ? new RpcError(r.error.code, r.error.message, r.error.data) : r.result;
      });
    },
  };
}
