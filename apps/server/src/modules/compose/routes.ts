import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as F from '@cfx/contract/goods-flows.ts';
import { GoodsFlowPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { body, langOf, ok } from '../../http/envelope.ts';
import { Status } from '@cfx/contract/envelope.ts';
import { formatMessage } from '@cfx/contract/messages.ts';
import { confirmCompose, listComposeRecords, selectFragments, submitCompose } from './compose-flow.ts';
import { createDevComposeRule } from './create-compose-rule.ts';
import { chip, chipAll, fragmentList } from './fragments.ts';
import { listRules } from './rules.ts';

/** Fragments and compose (docs/drops.md "Compose"). Every call needs a login (1100). */
export function composeRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['compose'];
  r.post(GoodsFlowPaths.chip, { schema: { tags, body: F.chipBody, response: { 200: F.chipResponse } } }, async (req) => {
    return ok(req, await chip(ctx, await requireUserId(ctx, req), req.body));
  });
  r.post(GoodsFlowPaths.chipAll, { schema: { tags, body: F.chipAllBody, response: { 200: F.chipAllResponse } } }, async (req) => {
    return ok(req, await chipAll(ctx, await requireUserId(ctx, req)));
  });
  r.post(GoodsFlowPaths.composeRule, { schema: { tags, body: F.composeRuleBody, response: { 200: F.composeRulePageResponse } } }, async (req) => {
    return ok(req, await listRules(ctx, await requireUserId(ctx, req), req.body));
  });
  r.post(GoodsFlowPaths.getFragmentList, { schema: { tags, body: F.fragmentListBody, response: { 200: F.fragmentListResponse } } }, async (req) => {
    return ok(req, await fragmentList(ctx, await requireUserId(ctx, req), req.body.ruleId));
  });
  r.post(GoodsFlowPaths.selectFragment, { schema: { tags, body: F.selectFragmentBody, response: { 200: F.composeRecordResponse } } }, async (req) => {
    const rec = await selectFragments(ctx, await requireUserId(ctx, req), req.body, langOf(req));
    return body(Status.OK, rec, formatMessage('composeSelected', langOf(req), { m: Math.max(1, Math.round(ctx.config.goodsFlows.holdMs / 60_000)) }));
  });
  r.post(GoodsFlowPaths.confirmCompose, { schema: { tags, body: F.confirmComposeBody, response: { 200: F.composeConsentResponse } } }, async (req) => {
    return ok(req, await confirmCompose(ctx, await requireUserId(ctx, req), req.body, langOf(req)));
  });
  r.post(GoodsFlowPaths.submitCompose, { schema: { tags, body: F.submitComposeBody, response: { 200: F.composeRecordResponse } } }, async (req) => {
    return ok(req, await submitCompose(ctx, await requireUserId(ctx, req), req.body, langOf(req)), 'composeSubmitted');
  });
  r.post(GoodsFlowPaths.composeRecord, { schema: { tags, body: F.composeRecordBody, response: { 200: F.composeRecordPageResponse } } }, async (req) => {
    return ok(req, await listComposeRecords(ctx, await requireUserId(ctx, req), req.body, langOf(req)));
  });
  if (ctx.config.devMode) {
    r.post(GoodsFlowPaths.devComposeRule, { schema: { hide: true, tags: ['dev'], body: F.devComposeRuleBody, response: { 200: F.devComposeRuleResponse } } }, async (req) => {
      return ok(req, await createDevComposeRule(ctx, await requireUserId(ctx, req), req.body));
    });
  }
}
