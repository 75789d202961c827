// Owner-key tool: everything only the contracts' OWNER may do, run from the machine that holds
// the owner key (never the server). See docs/operations.md "Key roles".
//
// The key is read from the file named by OWNER_KEY_FILE (preferred) or from OWNER_KEY — never
// from the command line (argv is visible to every user of the machine). Output is JSON.
//
//   npx tsx packages/contracts/scripts/owner.ts deploy       --rpc URL --operator ADDR [--network-id 1029]
//        [--base-uri URI] [--name NAME] [--symbol SYM] [--no-sponsor] [--sponsor-gas CFX] [--sponsor-collateral CFX]
//   npx tsx packages/contracts/scripts/owner.ts set-operator --rpc URL --operator ADDR --collectible ADDR --exchange ADDR
//   npx tsx packages/contracts/scripts/owner.ts set-base-uri --rpc URL --collectible ADDR --base-uri URI
//   npx tsx packages/contracts/scripts/owner.ts status       --rpc URL --collectible ADDR --exchange ADDR   (no key needed)
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { loadArtifact } from '../src/artifacts.ts';
import { createConflux, deployContracts, setBaseURIOf, setOperatorOf } from '../src/deploy.ts';
import { addressOfPrivateKey } from '../src/order-signature.ts';

const USAGE = `usage: owner.ts <deploy|set-operator|set-base-uri|status> --rpc URL [options]
  key: OWNER_KEY_FILE=/path/to/owner.key (or OWNER_KEY=0x…), never on the command line
  deploy        --operator ADDR [--network-id 1029] [--base-uri URI] [--name NAME] [--symbol SYM]
                [--no-sponsor] [--sponsor-gas CFX (20)] [--sponsor-collateral CFX (500)]
  set-operator  --operator ADDR --collectible ADDR --exchange ADDR
  set-base-uri  --collectible ADDR --base-uri URI
  status        --collectible ADDR --exchange ADDR`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    rpc: { type: 'string' },
    'network-id': { type: 'string' },
    operator: { type: 'string' },
    collectible: { type: 'string' },
    exchange: { type: 'string' },
    'base-uri': { type: 'string' },
    name: { type: 'string' },
    symbol: { type: 'string' },
    'no-sponsor': { type: 'boolean' },
    'sponsor-gas': { type: 'string' },
    'sponsor-collateral': { type: 'string' },
    help: { type: 'boolean' },
  },
});

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function need(name: keyof typeof values): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') fail(`--${name} is required`);
  return v;
}

function ownerKey(): string {
  const file = process.env.OWNER_KEY_FILE;
  const key = (file ? readFileSync(file, 'utf8') : process.env.OWNER_KEY ?? '').trim();
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(key)) fail('set OWNER_KEY_FILE (a file holding the 32-byte hex key) or OWNER_KEY');
  return key.startsWith('0x') ? key : `0x${key}`;
}

/** "20" or "0.5" CFX -> Drip. */
function cfx(value: string | undefined, fallback: bigint): bigint {
  if (value === undefined) return fallback;
  const m = /^(\d+)(?:\.(\d{1,18}))?$/.exec(value);
  if (!m) fail(`not a CFX amount: ${value}`);
  return BigInt(m[1]!) * 10n ** 18n + BigInt((m[2] ?? '').padEnd(18, '0'));
}

async function main(): Promise<void> {
  const command = positionals[0];
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!command) fail('a command is required');
  const rpcUrl = need('rpc');
  const networkId = values['network-id'] ? Number(values['network-id']) : 1029;
  if (!Number.isSafeInteger(networkId) || networkId <= 0) fail('--network-id must be a positive integer');
  let result: unknown;
  switch (command) {
    case 'deploy': {
      const key = ownerKey();
      const operator = toBase32Address(need('operator'), networkId);
      if (operator === addressOfPrivateKey(key, networkId)) fail('--operator must not be the owner key: keep the owner key offline');
      const d = await deployContracts({
        rpcUrl,
        networkId,
        ownerPrivateKey: key,
        operator,
        baseURI: values['base-uri'],
        name: values.name,
        symbol: values.symbol,
        sponsor: values['no-sponsor']
          ? false
          : { gasBalance: cfx(values['sponsor-gas'], 20n * 10n ** 18n), collateralBalance: cfx(values['sponsor-collateral'], 500n * 10n ** 18n) },
      });
      result = { ...d, env: { CHAIN_COLLECTIBLE_ADDRESS: d.collectible, CHAIN_EXCHANGE_ADDRESS: d.exchange } };
      break;
    }
    case 'set-operator': {
      const contracts = [need('collectible'), need('exchange')];
      const txs = await setOperatorOf({ rpcUrl, networkId, ownerPrivateKey: ownerKey(), contracts, operator: need('operator') });
      result = { operator: toBase32Address(need('operator'), networkId), transactions: txs };
      break;
    }
    case 'set-base-uri': {
      const txs = await setBaseURIOf({ rpcUrl, networkId, ownerPrivateKey: ownerKey(), contracts: [need('collectible')], baseURI: need('base-uri') });
      result = { baseURI: need('base-uri'), transactions: txs };
      break;
    }
    case 'status': {
      const conflux = createConflux(rpcUrl, networkId);
      const { abi } = await loadArtifact('Collectible');
      const status: Record<string, unknown> = {};
      for (const [name, address] of [['collectible', need('collectible')], ['exchange', need('exchange')]] as const) {
        const c = conflux.Contract({ abi, address: toBase32Address(address, networkId) }) as any;
        status[name] = {
          address: toBase32Address(address, networkId),
          owner: toBase32Address(await c.owner(), networkId),
          operator: toBase32Address(await c.operator(), networkId),
          admin: toBase32Address(await conflux.cfx.getAdmin(toBase32Address(address, networkId)), networkId),
        };
      }
      result = status;
      break;
    }
    default:
      fail(`unknown command ${command}`);
  }
  console.log(JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
