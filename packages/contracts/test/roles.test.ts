// Key roles (owner ≠ operator), the holder-only burn rule and the owner-consented, atomic
// consumeAndMint (compose / blind box), on a real @xcfx/node dev chain.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { format } from 'js-conflux-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { exchangeDomain } from '@cfx/protocol/cip23.ts';
import { collectibleDomain, consumeDigest, type Consume } from '@cfx/protocol/consume.ts';
import { malleateSignature } from '@cfx/protocol/signature.ts';
import { recoverConsumeSigner, signConsume, verifyConsume } from '../src/consume-signature.ts';
import { setOperatorOf } from '../src/deploy.ts';
import { consumeArg, hex32, uid, startTestChain, type Account, type TestChain } from './fixture.ts';

const run = promisify(execFile);
let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain();
});

afterAll(async () => {
  await chain?.stop();
});

async function holderOf(tokenId: bigint): Promise<string | null> {
  return (await chain.collectible.exists(tokenId)) ? toBase32Address(await chain.collectible.ownerOf(tokenId)) : null;
}

describe('key roles', () => {
  it('the owner key owns, administers and sponsors both contracts; the operator is a different key', async () => {
    const { collectible, exchange, accounts, deployed, conflux } = chain;
    expect(deployed.owner).toBe(accounts.owner.address);
    expect(deployed.operator).toBe(accounts.operator.address);
    expect(accounts.owner.address).not.toBe(accounts.operator.address);
    for (const contract of [collectible, exchange]) {
      expect(toBase32Address(await contract.owner())).toBe(accounts.owner.address);
      expect(toBase32Address(await contract.operator())).toBe(accounts.operator.address);
    }
    for (const address of [deployed.collectible, deployed.exchange]) {
      expect(toBase32Address(await conflux.cfx.getAdmin(address))).toBe(accounts.owner.address);
    }
  });

  it('only the owner changes the operator and the base URI; the hot operator key cannot', async () => {
    const { collectible, exchange, accounts, deployed, node } = chain;
    for (const who of [accounts.operator, accounts.stranger]) {
      expect((await chain.revertOf(collectible.setOperator(who.address), who))?.name).toBe('OwnableUnauthorizedAccount');
      expect((await chain.revertOf(exchange.setOperator(who.address), who))?.name).toBe('OwnableUnauthorizedAccount');
      expect((await chain.revertOf(collectible.setBaseURI('https://evil.example/'), who))?.name).toBe('OwnableUnauthorizedAccount');
      expect((await chain.revertOf(collectible.transferOwnership(who.address), who))?.name).toBe('OwnableUnauthorizedAccount');
    }

    // Rotation after a leak: the owner points both contracts at a new operator; the old key is powerless.
    const contracts = [deployed.collectible, deployed.exchange];
    const fresh = chain.freshAccount();
    await setOperatorOf({ rpcUrl: node.rpcUrl, ownerPrivateKey: accounts.owner.key, contracts, operator: fresh.hex });
    try {
      expect(toBase32Address(await collectible.operator())).toBe(fresh.address);
      expect(toBase32Address(await exchange.operator())).toBe(fresh.address);
      expect((await chain.revertOf(collectible.mint(accounts.operator.address, chain.nextId()), accounts.operator))?.name).toBe('NotOperator');
      expect(await chain.revertOf(collectible.mint(fresh.address, chain.nextId()), fresh)).toBeNull();
    } finally {
      await setOperatorOf({ rpcUrl: node.rpcUrl, ownerPrivateKey: accounts.owner.key, contracts, operator: accounts.operator.address });
    }
    expect(toBase32Address(await collectible.operator())).toBe(accounts.operator.address);
  });

  it('scripts/owner.ts deploys from an owner key file and rotates the operator', async () => {
    const { accounts, node } = chain;
    const dir = mkdtempSync(join(tmpdir(), 'owner-key-'));
    const keyFile = join(dir, 'owner.key');
    writeFileSync(keyFile, accounts.owner.key, { mode: 0o600 });
    const script = join(import.meta.dirname, '../scripts/owner.ts');
    const tsx = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', script, ...args, '--rpc', node.rpcUrl], { env: { ...process.env, OWNER_KEY_FILE: keyFile }, timeout: 120_000 });
    try {
      // The owner key as operator is refused.
      await expect(tsx('deploy', '--operator', accounts.owner.address, '--no-sponsor')).rejects.toMatchObject({ code: 2 });

      const deployed = JSON.parse((await tsx('deploy', '--operator', accounts.operator.address, '--sponsor-gas', '10.5', '--sponsor-collateral', '50')).stdout);
      expect(deployed.owner).toBe(accounts.owner.address);
      expect(deployed.operator).toBe(accounts.operator.address);
      expect(deployed.env.CHAIN_COLLECTIBLE_ADDRESS).toBe(deployed.collectible);
      const control = chain.conflux.InternalContract('SponsorWhitelistControl');
      expect(await control.getSponsoredBalanceForGas(deployed.exchange)).toBe(10_500_000_000_000_000_000n);

      const where = ['--collectible', deployed.collectible, '--exchange', deployed.exchange];
      await tsx('set-operator', '--operator', accounts.stranger.hex, ...where);
      const status = JSON.parse((await tsx('status', ...where)).stdout);
      for (const name of ['collectible', 'exchange']) {
        expect(status[name]).toMatchObject({ owner: accounts.owner.address, operator: accounts.stranger.address, admin: accounts.owner.address });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('burn is the holder’s right', () => {
  it('the operator cannot burn a user’s token, nor can a stranger', async () => {
    const { collectible, accounts } = chain;
    const tokenId = await chain.mint(accounts.seller);
    for (const who of [accounts.operator, accounts.stranger, accounts.owner]) {
      expect((await chain.revertOf(collectible.burn(tokenId), who))?.name).toBe('ERC721InsufficientApproval');
    }
    // Mined for real by the operator: the transaction fails and the token stays.
    const hash = await collectible.burn(tokenId).sendTransaction({ from: accounts.operator.address, gas: 500_000n, storageLimit: 1024n });
    const receipt = await chain.conflux.cfx.getTransactionReceipt(hash);
    expect(receipt?.outcomeStatus).toBe(1);
    expect(await holderOf(tokenId)).toBe(accounts.seller.address);
    // A token that does not exist.
    expect((await chain.revertOf(collectible.burn(chain.nextId()), accounts.seller))?.name).toBe('ERC721NonexistentToken');
  });

  it('a holder with 0 CFX burns its own token (sponsored)', async () => {
    const { collectible, conflux } = chain;
    const user = chain.freshAccount();
    const tokenId = await chain.mint(user);
    expect(await conflux.cfx.getBalance(user.address)).toBe(0n);
    const receipt = await chain.send(collectible.burn(tokenId), user);
    expect(receipt.gasCoveredBySponsor).toBe(true);
    expect(chain.events(receipt).map((e) => e.name)).toContain('Transfer');
    expect(await collectible.exists(tokenId)).toBe(false);
    expect(await conflux.cfx.getBalance(user.address)).toBe(0n);
  });

  it('an address the holder approved (one token or all) can burn', async () => {
    const { collectible, accounts } = chain;
    const one = await chain.mint(accounts.seller);
    await chain.send(collectible.approve(accounts.stranger.address, one), accounts.seller);
    await chain.send(collectible.burn(one), accounts.stranger);
    expect(await collectible.exists(one)).toBe(false);

    const two = await chain.mint(accounts.seller);
    await chain.send(collectible.setApprovalForAll(accounts.buyer.address, true), accounts.seller);
    try {
      await chain.send(collectible.burn(two), accounts.buyer);
      expect(await collectible.exists(two)).toBe(false);
    } finally {
      await chain.send(collectible.setApprovalForAll(accounts.buyer.address, false), accounts.seller);
    }
  });
});

describe('consumeAndMint (compose / blind box)', () => {
  const domain = () => collectibleDomain(1029, chain.deployed.collectibleHex);
  /** Mint `n` fragments to `holder` and describe consuming them into one new token. */
  async function composeFor(holder: Account, n = 3): Promise<Consume> {
    const burnIds: bigint[] = [];
    for (let i = 0; i < n; i++) burnIds.push(await chain.mint(holder));
    return { owner: holder.hex, burnIds, mintIds: [chain.nextId()], flowId: uid('C') };
  }
  const consumeTx = (c: Consume, signature: string) => chain.collectible.consumeAndMint(consumeArg(c), signature);
  const revertName = async (c: Consume, signature: string, from: Account = chain.accounts.operator) =>
    (await chain.revertOf(consumeTx(c, signature), from))?.name;

  it('burns the fragments and mints the result atomically, with the holder’s signature (0-CFX holder)', async () => {
    const { collectible, accounts, conflux } = chain;
    const user = chain.freshAccount();
    const c = await composeFor(user);
    const signature = signConsume(user.key, c, domain());
    expect(verifyConsume(signature, c, domain())).toBe(true);
    expect(recoverConsumeSigner(signature, c, domain())).toBe(user.hex);
    expect(hex32(await collectible.consumeDigest(consumeArg(c)))).toBe(consumeDigest(c, domain()));
    expect(toBase32Address(await collectible.recoverConsumeSigner(consumeArg(c), signature))).toBe(user.address);

    const receipt = await chain.send(consumeTx(c, signature), accounts.operator);
    for (const id of c.burnIds) expect(await collectible.exists(id)).toBe(false);
    expect(await holderOf(BigInt(c.mintIds[0]!))).toBe(user.address);
    expect(await collectible.balanceOf(user.address)).toBe(1n);
    expect(await conflux.cfx.getBalance(user.address)).toBe(0n);

    const events = chain.events(receipt);
    expect(events.filter((e) => e.name === 'Transfer')).toHaveLength(4);
    const consumed = events.find((e) => e.name === 'Consumed')!.object;
    expect(toBase32Address(consumed.owner as string)).toBe(user.address);
    expect(hex32(consumed.flowIdHash)).toBe(format.keccak256(Buffer.from(c.flowId, 'utf8')));
    expect(consumed.burnIds).toEqual(c.burnIds);
    expect(consumed.mintIds).toEqual(c.mintIds.map(BigInt));
    expect(consumed.flowId).toBe(c.flowId);
    expect(await collectible.flowUsed(await collectible.flowKey(user.hex, c.flowId))).toBe(true);
  });

  it('a blind box: burn the box, mint the drawn item', async () => {
    const { collectible, accounts } = chain;
    const box = await chain.mint(accounts.buyer);
    const item = chain.nextId();
    const c: Consume = { owner: accounts.buyer.hex, burnIds: [box], mintIds: [item], flowId: uid('BOX') };
    await chain.send(consumeTx(c, signConsume(accounts.buyer.key, c, domain())), accounts.operator);
    expect(await collectible.exists(box)).toBe(false);
    expect(await holderOf(item)).toBe(accounts.buyer.address);
  });

  it('a flow id runs once per holder: replay → FlowIdUsed', async () => {
    const { accounts } = chain;
    const c = await composeFor(accounts.seller, 1);
    const signature = signConsume(accounts.seller.key, c, domain());
    await chain.send(consumeTx(c, signature), accounts.operator);
    expect(await revertName(c, signature)).toBe('FlowIdUsed');
    // Another consume under the same flow id, freshly signed: still used.
    const again = { ...(await composeFor(accounts.seller, 1)), flowId: c.flowId };
    expect(await revertName(again, signConsume(accounts.seller.key, again, domain()))).toBe('FlowIdUsed');
    // The same flow id string of another holder is a different key.
    const other = { ...(await composeFor(accounts.buyer, 1)), flowId: c.flowId };
    expect(await revertName(other, signConsume(accounts.buyer.key, other, domain()))).toBeUndefined();
  });

  it('rejects a signature by anyone but the holder, a tampered message, and other domains → InvalidSigner', async () => {
    const { accounts, deployed } = chain;
    const c = await composeFor(accounts.seller);
    expect(await revertName(c, signConsume(accounts.stranger.key, c, domain()))).toBe('InvalidSigner');
    expect(await revertName(c, signConsume(accounts.operator.key, c, domain()))).toBe('InvalidSigner');
    const signature = signConsume(accounts.seller.key, c, domain());
    // Tampered mint ids (more, or other ones), burn ids, owner or flow id.
    expect(await revertName({ ...c, mintIds: [...c.mintIds, chain.nextId()] }, signature)).toBe('InvalidSigner');
    expect(await revertName({ ...c, mintIds: [chain.nextId()] }, signature)).toBe('InvalidSigner');
    expect(await revertName({ ...c, burnIds: c.burnIds.slice(1) }, signature)).toBe('InvalidSigner');
    expect(await revertName({ ...c, flowId: uid('C') }, signature)).toBe('InvalidSigner');
    expect(verifyConsume(signature, { ...c, mintIds: [chain.nextId()] }, domain())).toBe(false);
    // Bound to this contract and chain: the Exchange's domain, chain 1 → InvalidSigner.
    expect(await revertName(c, signConsume(accounts.seller.key, c, exchangeDomain(1029, deployed.exchangeHex)))).toBe('InvalidSigner');
    expect(await revertName(c, signConsume(accounts.seller.key, c, collectibleDomain(1, deployed.collectibleHex)))).toBe('InvalidSigner');
    // Malformed / malleable signatures.
    expect(await revertName(c, malleateSignature(signature))).toBe('InvalidSignatureS');
    expect(await revertName(c, `${signature.slice(0, 130)}05`)).toBe('InvalidSignatureV');
    expect(await revertName(c, signature.slice(0, 128))).toBe('InvalidSignatureLength');
    // The right signature works (v = 27/28 as well).
    const v27 = `${signature.slice(0, 130)}${(parseInt(signature.slice(130), 16) + 27).toString(16)}`;
    expect(await revertName(c, v27)).toBeUndefined();
  });

  it('a burn id the holder does not own → NotTokenOwner, and NOTHING is burnt or minted', async () => {
    const { collectible, accounts, conflux } = chain;
    const mine = [await chain.mint(accounts.seller), await chain.mint(accounts.seller)];
    const foreign = await chain.mint(accounts.buyer);
    // The foreign token comes last: the first two would be burnt already if it were not atomic.
    const c: Consume = { owner: accounts.seller.hex, burnIds: [...mine, foreign], mintIds: [chain.nextId()], flowId: uid('C') };
    const signature = signConsume(accounts.seller.key, c, domain());
    expect(await revertName(c, signature)).toBe('NotTokenOwner');

    const hash = await consumeTx(c, signature).sendTransaction({ from: accounts.operator.address, gas: 2_000_000n, storageLimit: 4096n });
    const receipt = await conflux.cfx.getTransactionReceipt(hash);
    expect(receipt?.outcomeStatus).toBe(1);
    for (const id of mine) expect(await holderOf(id)).toBe(accounts.seller.address);
    expect(await holderOf(foreign)).toBe(accounts.buyer.address);
    expect(await collectible.exists(BigInt(c.mintIds[0]!))).toBe(false);
    expect(await collectible.flowUsed(await collectible.flowKey(accounts.seller.hex, c.flowId))).toBe(false);

    // A burnt id and a duplicate id are "not owned" as well.
    const dup: Consume = { ...c, burnIds: [mine[0]!, mine[0]!], flowId: uid('C') };
    expect(await revertName(dup, signConsume(accounts.seller.key, dup, domain()))).toBe('NotTokenOwner');
    // A mint id that exists already → ERC721InvalidSender (whole call reverts).
    const taken: Consume = { ...c, burnIds: mine, mintIds: [foreign], flowId: uid('C') };
    expect(await revertName(taken, signConsume(accounts.seller.key, taken, domain()))).toBe('ERC721InvalidSender');
  });

  it('only the operator submits → NotOperator (the holder and the owner key included)', async () => {
    const { accounts } = chain;
    const c = await composeFor(accounts.seller);
    const signature = signConsume(accounts.seller.key, c, domain());
    for (const who of [accounts.seller, accounts.owner, accounts.stranger]) {
      expect(await revertName(c, signature, who)).toBe('NotOperator');
    }
    expect(await revertName(c, signature)).toBeUndefined();
  });

  it('rejects empty burn or mint lists (EmptyConsume), an empty flow id or zero owner (InvalidConsume)', async () => {
    const { accounts } = chain;
    const c = await composeFor(accounts.seller, 1);
    const signed = (x: Consume) => signConsume(accounts.seller.key, x, domain());
    const noBurn = { ...c, burnIds: [] };
    const noMint = { ...c, mintIds: [] };
    const noFlow = { ...c, flowId: '' };
    expect(await revertName(noBurn, signed(noBurn))).toBe('EmptyConsume');
    expect(await revertName(noMint, signed(noMint))).toBe('EmptyConsume');
    expect(await revertName(noFlow, signed(noFlow))).toBe('InvalidConsume');
    const zero = { ...c, owner: '0x0000000000000000000000000000000000000000' };
    expect(await revertName(zero, signed(zero))).toBe('InvalidConsume');
  });
});
