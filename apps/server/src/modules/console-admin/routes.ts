import type { FastifyInstance } from 'fastify';
import { accountLinkRoutes } from './account-links-routes.ts';
import { consoleLedgerRoutes } from './ledger-routes.ts';
import { consoleOverviewRoutes } from './overview-routes.ts';
import { consoleSupportRoutes } from './support-routes.ts';
import { consoleSwapSettingsRoutes } from './swap-settings-routes.ts';
import { consoleTwoFactorResetRoutes } from './two-factor-reset-routes.ts';
import { consoleUserRoutes } from './users-routes.ts';

/**
 * The operator console's server API (decision 018), one plugin per endpoint group. Every
 * route is for operators only; every write is audited in its own transaction
 * (operator_actions); reads are plain queries.
 */
export async function consoleAdminRoutes(app: FastifyInstance) {
  await app.register(consoleSupportRoutes);
  await app.register(accountLinkRoutes);
  await app.register(consoleOverviewRoutes);
  await app.register(consoleLedgerRoutes);
  await app.register(consoleUserRoutes);
  await app.register(consoleTwoFactorResetRoutes);
  await app.register(consoleSwapSettingsRoutes);
}
