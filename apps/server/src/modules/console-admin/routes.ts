import {
  adjustmentPage,
  adjustmentQuery,
  adminSwapPairList,
  adminUserDetail,
  adminUserPage,
  adminUserQuery,
  apiResponse,
  auditTrailPage,
  auditTrailQuery,
  dashboardData,
  houseLimitList,
  houseLimitSetBody,
  houseLimitSetData,
  idParams,
  ledgerAuditRunData,
  swapPairUpdateBody,
  swapPairUpdateData,
  uidParams,
  userStatusBody,
  twoFactorResetBody,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { operatorOf } from '../../core/operator-audit.ts';
import { ok } from '../../core/reply.ts';
import { auditTrail } from './audit-trail.ts';
import { dashboard } from './dashboard.ts';
import { adjustmentsPage, runLedgerAudit } from './ledger.ts';
import { listHouseLimits, listPairs, setHouseLimitAsOperator, updatePair } from './swap-settings.ts';
import { accountLinkRoutes } from './account-links-routes.ts';
import { consoleSupportRoutes } from './support-routes.ts';
import { searchUsers, setUserDisabled, userDetail } from './users.ts';
import { cancelReset, openReset } from '../two-factor/index.ts';

const tags = ['admin'];
const security = [{ token: [] }];
const ROLE = 'Operators only: HTTP 403 for a signed-in user, 2001 signed out.';

/**
 * The operator console's server API (decision 018). Every write is audited in its own
 * transaction (operator_actions); reads are plain queries.
 */
export async function consoleAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;
  const guard = { preHandler: app.requireOperator };
  await app.register(consoleSupportRoutes);
  await app.register(accountLinkRoutes);

  app.get(
    '/admin/audit-trail',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: 'The operator audit trail, newest first (filters: actor, action or its dotted prefix, target)',
        description: ROLE,
        querystring: auditTrailQuery,
        response: apiResponse(auditTrailPage),
      },
    },
    async (request) => ok(await auditTrail(database, request.query), requestLocale(request)),
  );

  app.get(
    '/admin/dashboard',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: 'Users, balances per currency, swap volume (24 h, 7 d), withdrawals in review, the last ledger audit',
        description: ROLE,
        response: apiResponse(dashboardData),
      },
    },
    async (request) => ok(await dashboard(database), requestLocale(request)),
  );

  app.post(
    '/admin/ledger/audit/run',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: 'Run every ledger check and keep the result (the dashboard shows the latest)',
        description: ROLE,
        response: apiResponse(ledgerAuditRunData),
      },
    },
    async (request) => ok(await runLedgerAudit(database, operatorOf(request.user)), requestLocale(request)),
  );

  app.get(
    '/admin/ledger/adjustments',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: 'The adjustments log, newest first (?uid= one user)',
        description: ROLE,
        querystring: adjustmentQuery,
        response: apiResponse(adjustmentPage),
      },
    },
    async (request) => ok(await adjustmentsPage(database, request.query), requestLocale(request)),
  );

  app.get(
    '/admin/users',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: 'Users by e-mail substring or exact uid (?q=), newest first',
        description: ROLE,
        querystring: adminUserQuery,
        response: apiResponse(adminUserPage),
      },
    },
    async (request) => ok(await searchUsers(database, request.query), requestLocale(request)),
  );

  app.get(
    '/admin/users/:uid',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: 'One user: profile, sign-in state, two-factor, balances, last 20 postings, live sessions',
        description: `${ROLE} 4004 unknown uid.`,
        params: uidParams,
        response: apiResponse(adminUserDetail),
      },
    },
    async (request) => ok(await userDetail(app.deps, request.params.uid), requestLocale(request)),
  );

  for (const action of ['disable', 'enable'] as const) {
    app.post(
      `/admin/users/:uid/${action}`,
      {
        ...guard,
        schema: {
          tags,
          security,
          summary:
            action === 'disable'
              ? "Disable a user's sign-in (2010 from then on) and end every session of theirs at once"
              : "Enable a disabled user's sign-in again",
          description: `${ROLE} 3007 oneself, another operator, or already so; 4004 unknown uid.`,
          params: uidParams,
          body: userStatusBody,
          response: apiResponse(adminUserDetail),
        },
      },
      async (request) =>
        ok(
          await setUserDisabled(app.deps, request.user, request.params.uid, action === 'disable', request.body.reason),
          requestLocale(request),
        ),
    );
  }

  app.post(
    '/admin/users/:uid/two-factor-reset',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: "Open a reset of a user's two-factor (an owner who lost the authenticator and the recovery codes)",
        description:
          `${ROLE} The owner is mailed at once and may cancel it; after TWO_FACTOR_RESET_WAIT_HOURS (72 by default) the ` +
          'authenticator and recovery codes are removed and the owner is mailed again. Audited. 3007 two-factor off, a ' +
          'reset already open, oneself or another operator; 4004 unknown uid. Answers the user.',
        params: uidParams,
        body: twoFactorResetBody,
        response: apiResponse(adminUserDetail),
      },
    },
    async (request) => {
      const { uid } = request.params;
      await openReset(app.deps, request.user, uid, request.body.reason, app.deps.config.TWO_FACTOR_RESET_WAIT_HOURS);
      return ok(await userDetail(app.deps, uid), requestLocale(request));
    },
  );

  app.post(
    '/admin/users/:uid/two-factor-reset/cancel',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: "Cancel a user's open two-factor reset",
        description: `${ROLE} The owner is mailed; audited. 4004 unknown uid or no open reset. Answers the user.`,
        params: uidParams,
        body: twoFactorResetBody,
        response: apiResponse(adminUserDetail),
      },
    },
    async (request) => {
      const { uid } = request.params;
      await cancelReset(app.deps, uid, { actor: request.user, role: 'operator', reason: request.body.reason });
      return ok(await userDetail(app.deps, uid), requestLocale(request));
    },
  );

  app.get(
    '/admin/swap/pairs',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: 'Every swap pair with its operator settings',
        description: ROLE,
        response: apiResponse(adminSwapPairList),
      },
    },
    async (request) => ok(await listPairs(database), requestLocale(request)),
  );

  app.post(
    '/admin/swap/pairs/:id',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: "Set a pair's mid rate, spread, fee, limits and whether it is enabled (the next quote uses them)",
        description: `${ROLE} 3002 a value out of range (min above max, more decimals than the currency), 4004 unknown pair.`,
        params: idParams,
        body: swapPairUpdateBody,
        response: apiResponse(swapPairUpdateData),
      },
    },
    async (request) => ok(await updatePair(database, operatorOf(request.user), request.params.id, request.body), requestLocale(request)),
  );

  app.get(
    '/admin/swap/house-limits',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: "Per currency: the house limit, and the house account's balance and floor",
        description: ROLE,
        response: apiResponse(houseLimitList),
      },
    },
    async (request) => ok(await listHouseLimits(database), requestLocale(request)),
  );

  app.post(
    '/admin/swap/house-limits',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: 'Set how much of a currency the house may owe (floor −limit, or its balance if it owes more)',
        description: `${ROLE} 3003 unknown currency; changed false when it was already so (nothing recorded).`,
        body: houseLimitSetBody,
        response: apiResponse(houseLimitSetData),
      },
    },
    async (request) => ok(await setHouseLimitAsOperator(database, operatorOf(request.user), request.body), requestLocale(request)),
  );
}
