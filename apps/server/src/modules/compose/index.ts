/** The public face of modules/compose: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { attachConsumeChain, chainConsume, consumeChainOf, consumeOf } from './consume-chain.ts';
export { expireComposes, runComposeJob } from './compose-flow.ts';
export type { ConsumeChain } from './consume-chain.ts';
export { consumeJob, driveConsume } from './consume-flow.ts';
export type { ConsumePayload } from './consume-flow.ts';
export { createRuleFromConsole, updateComposeRule } from './edit-compose-rule.ts';
export { activeAt, holdUntilDone, releaseHolds, sweepExpiredHolds, takeGoods } from './holds.ts';
export { grantUnits, insertRelease, pickCreator } from './releases.ts';
export { composeRoutes } from './routes.ts';
export { loadRule, ruleStatus } from './rules.ts';
