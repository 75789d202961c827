// Deployment, sponsorship (users never need CFX) and the Collectible token on a real node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { loadArtifact } from '../src/artifacts.ts';
import { deployContract, SPONSOR_CONTROL_ADDRESS, ZERO_ADDRESS } from '../src/deploy.ts';
import { signListOrder } from '../src/order-signature.ts';
import { orderArg, startTestChain, uid, type TestChain } from './fixture.ts';

let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain();
});

afterAll(async () => {
  await chain?.stop();
});

describe('sponsorship', () => {
  it('sponsors gas and collateral of both contracts for every user', async () => {
    const control = chain.conflux.InternalContract('SponsorWhitelistControl');
    expect(toBase32Address(control.address)).toBe(toBase32Address(SPONSOR_CONTROL_ADDRESS));
    for (const contract of [chain.deployed.collectible, chain.deployed.exchange]) {
      // The owner key sponsors (it is the contracts' admin); the hot operator key has no part in it.
      expect(toBase32Address(await control.getSponsorForGas(contract))).toBe(chain.accounts.owner.address);
      expect(toBase32Address(await control.getSponsorForCollateral(contract))).toBe(chain.accounts.owner.address);
      expect(toBase32Address(await chain.conflux.cfx.getAdmin(contract))).toBe(chain.accounts.owner.address);
      expect(await control.isAllWhitelisted(contract)).toBe(true);
      expect(await control.getSponsoredBalanceForGas(contract)).toBeGreaterThan(0n);
      expect(await control.getSponsoredBalanceForCollateral(contract)).toBeGreaterThan(0n);
    }
  });

  it('lets a fresh account with 0 CFX approve, unlist, cancel and sell', async () => {
    const { conflux, collectible, exchange, deployed, accounts } = chain;
    const user = chain.freshAccount();
    expect(await conflux.cfx.getBalance(user.address)).toBe(0n);
    const tokenId = await chain.mint(user);

    const approve = await chain.send(collectible.approve(deployed.exchange, tokenId), user);
    expect(approve.outcomeStatus).toBe(0);
    expect(approve.gasCoveredBySponsor).toBe(true);
    expect(approve.storageCoveredBySponsor).toBe(true);
    expect(toBase32Address(await collectible.getApproved(tokenId))).toBe(toBase32Address(deployed.exchange));

    const unlist = await chain.send(collectible.approve(toBase32Address(ZERO_ADDRESS), tokenId), user);
    expect(unlist.gasCoveredBySponsor).toBe(true);
    const cancel = await chain.send(exchange.cancelOrder(uid('S')), user);
    expect(cancel.gasCoveredBySponsor).toBe(true);
    expect(cancel.storageCoveredBySponsor).toBe(true);

    // List again and sell through the exchange.
    await chain.send(collectible.approve(deployed.exchange, tokenId), user);
    const order = { seller: user.hex, nftToken: deployed.collectibleHex, tokenId, amount: 100n, sellerOrderId: uid('S') };
    const signature = signListOrder(user.key, order, chain.domain);
    await chain.send(exchange.executeOrder(orderArg(order), signature, accounts.buyer.address, uid('B')), accounts.operator);
    expect(toBase32Address(await collectible.ownerOf(tokenId))).toBe(accounts.buyer.address);

    expect(await conflux.cfx.getBalance(user.address)).toBe(0n);
  });

  it('without sponsorship the same 0-CFX approve is refused (control)', async () => {
    const { conflux, accounts } = chain;
    const unsponsored = await deployContract(conflux, accounts.operator.address, 'Collectible', ['Plain', 'P', '', accounts.operator.address]);
    const token = conflux.Contract({ abi: (await loadArtifact('Collectible')).abi, address: unsponsored });
    const user = chain.freshAccount();
    await chain.send(token.mint(user.address, 1), accounts.operator);
    await expect(chain.send(token.approve(chain.deployed.exchange, 1), user)).rejects.toThrow(/balance|collateral|gas/i);
  });
});

describe('Collectible', () => {
  it('mints and batch-mints by the operator only', async () => {
    const { collectible, accounts } = chain;
    for (const who of [accounts.seller, accounts.stranger, accounts.owner]) {
      expect((await chain.revertOf(collectible.mint(who.address, 9_000), who))?.name).toBe('NotOperator');
    }
    const receipt = await chain.send(collectible.mintBatch([accounts.seller.address, accounts.buyer.address, accounts.buyer.address], [9_001, 9_002, 9_003]), accounts.operator);
    expect(chain.events(receipt).filter((e) => e.name === 'Transfer')).toHaveLength(3);
    expect(toBase32Address(await collectible.ownerOf(9_002))).toBe(accounts.buyer.address);
    expect(await collectible.balanceOf(accounts.buyer.address)).toBeGreaterThanOrEqual(2n);
    expect((await chain.revertOf(collectible.mintBatch([accounts.seller.address], [1, 2]), accounts.operator))?.name).toBe('LengthMismatch');
    expect((await chain.revertOf(collectible.mint(accounts.seller.address, 9_001), accounts.operator))?.name).toBe('ERC721InvalidSender');

    // Burning is the holder's right (test/roles.test.ts): the operator cannot, the holder can.
    expect((await chain.revertOf(collectible.burn(9_003), accounts.operator))?.name).toBe('ERC721InsufficientApproval');
    await chain.send(collectible.burn(9_003), accounts.buyer);
    expect(await collectible.exists(9_003)).toBe(false);
    expect((await chain.revertOf(collectible.ownerOf(9_003), accounts.operator))?.name).toBe('ERC721NonexistentToken');
  });

  it('serves token URIs from a base the owner can change', async () => {
    const { collectible, accounts } = chain;
    const tokenId = await chain.mint(accounts.seller);
    expect(await collectible.tokenURI(tokenId)).toBe(`https://example.test/meta/${tokenId}`);
    for (const who of [accounts.stranger, accounts.operator]) {
      expect((await chain.revertOf(collectible.setBaseURI('https://evil/'), who))?.name).toBe('OwnableUnauthorizedAccount');
    }
    const receipt = await chain.send(collectible.setBaseURI('https://cdn.example.test/nft/'), accounts.owner);
    expect(chain.events(receipt).map((e) => e.name)).toEqual(['BaseURIChanged']);
    expect(await collectible.tokenURI(tokenId)).toBe(`https://cdn.example.test/nft/${tokenId}`);
    expect(await collectible.name()).toBe('Digital Collectible');
  });
});
