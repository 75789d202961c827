/**
 * The built-in dev wallet: a Fluent-compatible provider (same `request`/`on`/`removeListener` API)
 * backed by a private key kept in the browser, for the embedded dev chain only. It lets a newcomer
 * and the browser tests link, sign and send without the Fluent extension. It signs without asking
 * (there is nothing of value on the dev chain) and is never offered against a real network: the
 * wallet UI creates it only when GET /chain/v1/info answers devWallet: true.
 *
 * Chain reads and cfx_sendRawTransaction go through the server's allow-listed JSON-RPC proxy
 * (POST /mvapi/public/chain/v1/rpc, info.rpcPath).
 */
import { sameAddress, toBase32Address, toHexAddress } from '@cfx/protocol/address.ts';
import { hashTypedData, type Cip23TypedData } from '@cfx/protocol/cip23.ts';
import { RPC_ERRORS, type ConfluxProvider, type RequestArguments } from '../provider.ts';
import type { TxRequest } from '../tx.ts';
import {
  bytesOf,
  isPrivateKey,
  newPrivateKey,
  personalSign,
  privateKeyToHexAddress,
  signatureHex,
  signDigest,
  signTransaction,
  type CoreTransaction,
  type Hex,
} from './crypto.ts';
import { browserStore, DEV_WALLET_STORAGE, type KeyValueStore } from './keys.ts';

export interface DevWalletOptions {
  /** JSON-RPC endpoint (the server's proxy path, or an absolute URL in Node tests). */
  rpcUrl: string;
  /** Network id of the chain (1029 on the embedded chain). */
  networkId: number;
  store?: KeyValueStore;
  fetch?: typeof fetch;
}

type Listener = (...args: any[]) => void;

export function providerError(code: number, message: string, data?: unknown): Error & { code: number; data?: unknown } {
  return Object.assign(new Error(message), { code, data });
}

function quantity(value: unknown, name: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(value)) return BigInt(value);
  throw providerError(RPC_ERRORS.invalidParams, `invalid ${name}: ${String(value)}`);
}

const qhex = (n: bigint) => `0x${n.toString(16)}`;

export class DevWalletProvider implements ConfluxProvider {
  readonly isDevWallet = true;
  readonly isFluent = false;
  private readonly store: KeyValueStore;
  private readonly fetchFn: typeof fetch;
  private readonly listeners = new Map<string, Set<Listener>>();
  private rpcId = 0;

  constructor(private readonly opts: DevWalletOptions) {
    this.store = opts.store ?? browserStore;
    this.fetchFn = opts.fetch ?? ((...args) => fetch(...args));
  }

  get networkId(): number {
    return this.opts.networkId;
  }

  /** The private key (generated and stored on first use). */
  private get privateKey(): Hex {
    const stored = this.store.get(DEV_WALLET_STORAGE.key);
    if (isPrivateKey(stored)) return stored;
    const key = newPrivateKey();
    this.store.set(DEV_WALLET_STORAGE.key, key);
    return key;
  }

  get hexAddress(): Hex {
    return privateKeyToHexAddress(this.privateKey);
  }

  /** Base32 address on this chain (`cfx:…` on 1029). */
  get address(): string {
    return toBase32Address(this.hexAddress, this.opts.networkId);
  }

  get authorized(): boolean {
    return this.store.get(DEV_WALLET_STORAGE.authorized) === '1';
  }

  on(event: string, handler: Listener) {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(handler);
    return this;
  }

  removeListener(event: string, handler: Listener) {
    this.listeners.get(event)?.delete(handler);
    return this;
  }

  private emit(event: string, ...args: unknown[]) {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }

  async request({ method, params }: RequestArguments): Promise<unknown> {
    const list = Array.isArray(params) ? params : params === undefined ? [] : [params];
    switch (method) {
      case 'cfx_requestAccounts': {
        const was = this.authorized;
        this.store.set(DEV_WALLET_STORAGE.authorized, '1');
        if (!was) this.emit('accountsChanged', [this.address]);
        return [this.address];
      }
      case 'cfx_accounts':
        return this.authorized ? [this.address] : [];
      case 'cfx_chainId':
        return qhex(BigInt(this.opts.networkId));
      case 'cfx_netVersion':
        return String(this.opts.networkId);
      case 'wallet_revokePermissions': {
        const was = this.authorized;
        this.store.set(DEV_WALLET_STORAGE.authorized, null);
        if (was) this.emit('accountsChanged', []);
        return null;
      }
      case 'personal_sign': {
        // Fluent's order is [message, address]; accept the reverse too (some dapps send it).
        let [message, address] = list as [unknown, unknown];
        if (typeof message === 'string' && typeof address === 'string' && sameAddress(message, this.address) && !sameAddress(address, this.address)) {
          [message, address] = [address, message];
        }
        this.requireAccount(address);
        if (typeof message !== 'string') throw providerError(RPC_ERRORS.invalidParams, 'personal_sign: message must be a string');
        return personalSign(this.privateKey, message);
      }
      case 'cfx_signTypedData_v4': {
        const [address, raw] = list as [unknown, unknown];
        this.requireAccount(address);
        let typed: Cip23TypedData<object>;
        try {
          typed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Cip23TypedData<object>;
          return signatureHex(signDigest(this.privateKey, bytesOf(hashTypedData(typed))));
        } catch (err) {
          throw providerError(RPC_ERRORS.invalidParams, `cfx_signTypedData_v4: ${(err as Error).message}`);
        }
      }
      case 'cfx_sendTransaction':
        return this.sendTransaction((list[0] ?? {}) as TxRequest);
      default:
        if (method.startsWith('cfx_')) return this.rpc(method, list);
        throw providerError(RPC_ERRORS.unsupportedMethod, `the dev wallet does not support ${method}`);
    }
  }

  private requireAccount(address: unknown) {
    if (!this.authorized) throw providerError(RPC_ERRORS.unauthorized, 'the dev wallet is not connected to this site');
    if (typeof address !== 'string' || !sameAddress(address, this.hexAddress)) {
      throw providerError(RPC_ERRORS.unauthorized, `unknown account ${String(address)}`);
    }
  }

  /** Fills the missing fields from the chain, signs, and sends with cfx_sendRawTransaction. */
  private async sendTransaction(tx: TxRequest): Promise<string> {
    this.requireAccount(tx.from ?? this.address);
    const from = this.address;
    const toHex = tx.to ? toHexAddress(tx.to) : null;
    const to = toHex ? toBase32Address(toHex, this.opts.networkId) : undefined;
    const data = (tx.data ?? '0x') as Hex;
    const value = quantity(tx.value ?? 0, 'value');
    const [nonce, gasPrice, epochHeight] = await Promise.all([
      tx.nonce !== undefined ? quantity(tx.nonce, 'nonce') : this.rpc<string>('cfx_getNextNonce', [from]).then((v) => quantity(v, 'nonce')),
      tx.gasPrice !== undefined ? quantity(tx.gasPrice, 'gasPrice') : this.rpc<string>('cfx_gasPrice', []).then((v) => quantity(v, 'gasPrice')),
      tx.epochHeight !== undefined ? quantity(tx.epochHeight, 'epochHeight') : this.rpc<string>('cfx_epochNumber', ['latest_state']).then((v) => quantity(v, 'epochHeight')),
    ]);
    let gas = tx.gas !== undefined ? quantity(tx.gas, 'gas') : undefined;
    let storageLimit = tx.storageLimit !== undefined ? quantity(tx.storageLimit, 'storageLimit') : undefined;
    if (gas === undefined || storageLimit === undefined) {
      const est = await this.rpc<{ gasLimit?: string; gasUsed: string; storageCollateralized: string }>('cfx_estimateGasAndCollateral', [
        { from, ...(to ? { to } : {}), data, value: qhex(value), nonce: qhex(nonce) },
        'latest_state',
      ]);
      gas ??= quantity(est.gasLimit ?? est.gasUsed, 'gas');
      storageLimit ??= quantity(est.storageCollateralized, 'storageLimit');
    }
    const full: CoreTransaction = {
      nonce,
      gasPrice,
      gas,
      to: toHex,
      value,
      storageLimit,
      epochHeight,
      chainId: tx.chainId !== undefined ? quantity(tx.chainId, 'chainId') : BigInt(this.opts.networkId),
      data,
    };
    const { raw, hash } = signTransaction(this.privateKey, full);
    const sent = await this.rpc<string>('cfx_sendRawTransaction', [raw]);
    return typeof sent === 'string' ? sent : hash;
  }

  /** One JSON-RPC call to the node proxy; an RPC error is rethrown with its code and data. */
  async rpc<T = unknown>(method: string, params: unknown[]): Promise<T> {
    let body: { result?: T; error?: { code: number; message: string; data?: unknown } };
    try {
      const res = await this.fetchFn(this.opts.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++this.rpcId, method, params }),
      });
      body = (await res.json()) as typeof body;
    } catch (err) {
      throw providerError(RPC_ERRORS.internal, `dev chain unreachable: ${(err as Error).message}`);
    }
    if (body.error) throw providerError(body.error.code, body.error.message, body.error.data);
    return body.result as T;
  }
}

let shared: DevWalletProvider | null = null;

/** The page's dev wallet for the embedded chain described by GET /chain/v1/info. */
export function getDevWalletProvider(info: { rpcPath: string; networkId: number }): DevWalletProvider {
  if (!shared || shared.networkId !== info.networkId) shared = new DevWalletProvider({ rpcUrl: info.rpcPath, networkId: info.networkId });
  return shared;
}
