import type { FastifyInstance } from 'fastify';
import { authRoutes } from './auth/routes.ts';

/**
 * Every feature module registers its routes here (mounted under /api).
 * One line per module; modules do not import each other's internals.
 */
export async function registerModules(app: FastifyInstance) {
  void app;
  await app.register(authRoutes);
}
