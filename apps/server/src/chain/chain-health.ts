import type { AppContext } from '../context.ts';

export type ChainHealth = 'ok' | 'off' | 'down';

/**
 * The chain's health for /healthz: 'off' without a chain (CHAIN=off), 'ok' when the node answers
 * cfx_epochNumber within `timeoutMs`, 'down' otherwise (node gone, hung or erroring).
 */
export async function chainHealth(ctx: Pick<AppContext, 'chain'>, timeoutMs = 2000): Promise<ChainHealth> {
  const c = ctx.chain;
  if (!c) return 'off';
  try {
    const res = await fetch(c.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'cfx_epochNumber', params: ['latest_state'] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const json = (await res.json()) as { result?: unknown };
    return typeof json.result === 'string' ? 'ok' : 'down';
  } catch {
    return 'down';
  }
}
