import { LIMITS } from '@cfx/contract/limits.ts';
import { PAGE_SIZE_MAX } from '@cfx/contract/paging.ts';
import type { AppContext } from '../../context.ts';

/** Site-wide facts the goods pages show: server time (countdowns), chain, commission, limits. */
export function getCommonInfo(ctx: AppContext) {
  return {
    serverTime: ctx.now(),
    chainId: ctx.chain?.networkId ?? ctx.config.chain.networkId,
    explorerUrl: ctx.chain?.explorerUrl ?? ctx.config.chain.explorerUrl,
    commissionPermille: ctx.config.commissionPermille,
    currencySymbol: '￥',
    pageSizeMax: PAGE_SIZE_MAX,
    searchMax: LIMITS.searchMax,
  };
}
