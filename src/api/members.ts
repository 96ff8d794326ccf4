import Router from '@koa/router';
import type { Context } from 'koa';
import { requireAdmin, requireUser } from '../identity/policy.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { parseInput } from '../kernel/parse.ts';
import { compMember, endComp, listMembers, memberHistory, memberQuerySchema } from '../members/admin.ts';
import { compSchema, subscribeSchema } from '../members/member-schema.ts';
import { MEMBER_MESSAGES } from '../members/messages.ts';
import { billingPortalUrl, startSubscription } from '../members/subscriptions.ts';
import type { AppServices } from '../server/services.ts';
import { TIER_MESSAGES, tierSchema } from '../shop/tier-schema.ts';
import { createTier, deleteTier, listTiers, updateTier } from '../shop/tiers.ts';
import { objectBody } from './http.ts';

function idParam(ctx: Context, message: string): number {
  const raw = ctx.params.id;
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (!id) throw new NotFound(message);
  return id;
}

/** Tiers (public list, admin writes), a member's subscription and portal, and the admin's members. */
export function membersRouter(services: AppServices): Router {
  const { db } = services;
  const router = new Router();

  router.get('/tiers', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { tiers: await listTiers(db, { activeOnly: true }) };
  });

  router.get('/admin/tiers', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { tiers: await listTiers(db) };
  });

  router.post('/admin/tiers', async (ctx) => {
    requireAdmin(ctx.state);
    const input = parseInput(tierSchema, await objectBody(ctx));
    ctx.state.audit = { what: `Tier “${input.name}” created` };
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = { tier: await createTier(db, input) };
  });

  router.put('/admin/tiers/:id', async (ctx) => {
    requireAdmin(ctx.state);
    const id = idParam(ctx, TIER_MESSAGES.notFound);
    const input = parseInput(tierSchema, await objectBody(ctx));
    ctx.state.audit = { what: `Tier “${input.name}” saved` };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { tier: await updateTier(db, id, input) };
  });

  router.delete('/admin/tiers/:id', async (ctx) => {
    requireAdmin(ctx.state);
    await deleteTier(db, idParam(ctx, TIER_MESSAGES.notFound));
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 204;
  });

  router.post('/members', async (ctx) => {
    const user = requireUser(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    if (ctx.query.action === 'subscribe') {
      const input = parseInput(subscribeSchema, await objectBody(ctx));
      ctx.body = { paymentUrl: await startSubscription(services, user, input, ctx.state.session.id) };
      return;
    }
    if (ctx.query.action === 'portal') {
      ctx.body = { url: await billingPortalUrl(services, user) };
      return;
    }
    throw new Invalid(`Unknown action ${String(ctx.query.action)}`);
  });

  router.get('/admin/members', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listMembers(db, parseInput(memberQuerySchema, ctx.query));
  });

  router.get('/admin/members/:id', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await memberHistory(db, idParam(ctx, MEMBER_MESSAGES.memberNotFound));
  });

  router.post('/admin/members/:id', async (ctx) => {
    requireAdmin(ctx.state);
    const userId = idParam(ctx, MEMBER_MESSAGES.memberNotFound);
    ctx.set('Cache-Control', 'no-store');
    if (ctx.query.action === 'comp') {
      const input = parseInput(compSchema, await objectBody(ctx));
      ctx.state.audit = { what: `Complimentary membership given to member #${userId}` };
      ctx.body = { membership: await compMember(db, userId, input) };
      return;
    }
    if (ctx.query.action === 'end-comp') {
      ctx.state.audit = { what: `Complimentary membership of member #${userId} ended` };
      ctx.body = { membership: await endComp(db, userId) };
      return;
    }
    throw new Invalid(`Unknown action ${String(ctx.query.action)}`);
  });

  return router;
}
