import type { FastifyInstance } from 'fastify';
import { bannerRoutes } from './banners.ts';
import { helpRoutes } from './help.ts';
import { noticeRoutes } from './notices.ts';
import { uploadRoutes } from './uploads.ts';

/** Banners, notices, help and image uploads: public reading and operator writing. */
export async function contentRoutes(app: FastifyInstance) {
  await app.register(bannerRoutes);
  await app.register(noticeRoutes);
  await app.register(helpRoutes);
  await app.register(uploadRoutes);
}

export { uploadFileRoutes } from './uploads.ts';
