import type { FastifyInstance } from 'fastify';
import { consoleAdminRoutes } from './console-admin/routes.ts';
import { currencyRoutes } from './currency/routes.ts';
import { ledgerAdminRoutes } from './ledger-admin/routes.ts';
import { transferRoutes } from './transfer/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { swapRoutes } from './swap/routes.ts';
import { turnoverRoutes } from './turnover/routes.ts';
import { chainFundingRoutes } from './chain-funding/routes.ts';
import { chainAdminRoutes } from './chain-admin/routes.ts';
import { depositRoutes } from './deposits/routes.ts';
import { eventRoutes } from './events/routes.ts';
import { networkRoutes } from './networks/routes.ts';
import { withdrawRoutes } from './withdrawals/routes.ts';
import { twoFactorRoutes } from './two-factor/routes.ts';
import { passkeyRoutes } from './passkeys/routes.ts';
import { securityRoutes } from './security/routes.ts';
import { contentRoutes } from './content/routes.ts';
import { activityRoutes } from './activities/routes.ts';
import { holdRoutes } from './holds/routes.ts';
import { addressBookRoutes } from './address-book/routes.ts';
import { networkAdminRoutes } from './network-admin/routes.ts';
import { alertRoutes } from './alerts/routes.ts';
import { operatorRoutes } from './operators/routes.ts';
import { notifyRoutes } from './notify/routes.ts';
import { batchRoutes } from './batch/routes.ts';

/**
 * Every feature module registers its routes here (mounted under /api), one line per module.
 * A module's public file is its index.ts: other modules (and the rest of the server) import
 * from modules/<name>/index.ts only; its routes.ts is for this registry (and app.ts). Checked
 * by scripts/check-boundaries.mjs in the lint stage.
 */
export async function registerModules(app: FastifyInstance) {
  void app;
  await app.register(authRoutes);
  await app.register(currencyRoutes);
  await app.register(transferRoutes);
  await app.register(ledgerAdminRoutes);
  await app.register(swapRoutes);
  await app.register(turnoverRoutes);
  await app.register(networkRoutes);
  await app.register(depositRoutes);
  await app.register(withdrawRoutes);
  await app.register(twoFactorRoutes);
  await app.register(passkeyRoutes);
  await app.register(eventRoutes);
  await app.register(chainAdminRoutes);
  await app.register(chainFundingRoutes);
  await app.register(securityRoutes);
  await app.register(holdRoutes);
  await app.register(addressBookRoutes);
  await app.register(contentRoutes);
  await app.register(activityRoutes);
  await app.register(consoleAdminRoutes);
  await app.register(networkAdminRoutes);
  await app.register(alertRoutes);
  await app.register(operatorRoutes);
  await app.register(notifyRoutes);
  await app.register(batchRoutes);
}
