import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import {
  apiResponse,
  ErrorCode,
  MAX_UPLOAD_BYTES,
  UPLOAD_NAME_RE,
  UPLOAD_PATH_PREFIX,
  type UploadResult,
  uploadResult,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BizError } from '../../core/errors.ts';
import { requestLocale } from '../../core/locale.ts';
import { operatorOf, recordOperatorAction } from '../../core/operator-audit.ts';
import { ok } from '../../core/reply.ts';
import { inTransaction } from '../../db/transaction.ts';
import { adminTags, signedIn } from './shared.ts';

/** Room for the multipart envelope (boundaries, part headers) around a largest file. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;
/** Uploads are named by content, so a served file never changes: cache it for a year. */
const UPLOAD_CACHE_CONTROL = 'public, max-age=31536000, immutable';

type ImageType = { ext: 'png' | 'jpg' | 'webp'; contentType: UploadResult['contentType'] };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CONTENT_TYPES: Record<ImageType['ext'], ImageType['contentType']> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

/**
 * The image type by the file's first bytes, never by its name or the client's content type:
 * PNG signature, JPEG SOI marker, or a RIFF container of WEBP. Anything else (GIF, SVG,
 * HTML...) is refused.
 */
export function sniffImage(bytes: Buffer): ImageType | null {
  const typed = (ext: ImageType['ext']): ImageType => ({ ext, contentType: CONTENT_TYPES[ext] });
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return typed('png');
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return typed('jpg');
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return typed('webp');
  return null;
}

export const uploadDir = (dataDir: string) => path.join(dataDir, 'uploads');

/** Stores the file as <sha256>.<ext> (0600 in a 0700 folder); the same image twice is one file. */
function store(dir: string, bytes: Buffer, type: ImageType): string {
  const name = `${crypto.createHash('sha256').update(bytes).digest('hex')}.${type.ext}`;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) {
    // Written aside and renamed, so a reader never sees half a file.
    const temp = path.join(dir, `.${name}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`);
    fs.writeFileSync(temp, bytes, { mode: 0o600, flag: 'wx' });
    fs.renameSync(temp, file);
  }
  return name;
}

const refused = (detail: string) => new BizError(ErrorCode.UPLOAD_REFUSED, detail);

/** POST /api/admin/uploads (mounted under /api with the other content routes). */
export async function uploadRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, config } = app.deps;
  const dir = uploadDir(config.dataDir);
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, parts: 5 } });

  app.post(
    '/admin/uploads',
    {
      preHandler: app.requireOperator,
      bodyLimit: MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'Upload an image (multipart, one file; PNG, JPEG or WebP by content, at most 1 MiB; else 6001)',
        consumes: ['multipart/form-data'],
        response: apiResponse(uploadResult),
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw refused('multipart/form-data expected');
      let bytes: Buffer;
      try {
        const part = await request.file();
        if (!part) throw refused('no file');
        bytes = await part.toBuffer();
      } catch (e) {
        if (e instanceof BizError) throw e;
        const code = (e as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw refused('larger than 1 MiB');
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw refused('one file only');
        throw e;
      }
      const type = sniffImage(bytes);
      if (!type) throw refused('not a PNG, JPEG or WebP image');
      const name = store(dir, bytes, type);
      const data: UploadResult = { url: `${UPLOAD_PATH_PREFIX}${name}`, name, bytes: bytes.length, contentType: type.contentType };
      await inTransaction(database, (q) =>
        recordOperatorAction(q, {
          ...operatorOf(request.user),
          action: 'upload.create',
          targetType: 'upload',
          targetId: name,
          before: null,
          after: data,
        }),
      );
      return ok(data, requestLocale(request));
    },
  );
}

/**
 * GET /uploads/<name>: the stored images, outside /api (registered at the root by app.ts).
 * Only names of the exact stored form are looked up, so no path can leave the folder.
 */
export async function uploadFileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const dir = uploadDir(app.deps.config.dataDir);
  app.get('/uploads/:name', { schema: { hide: true, params: z.object({ name: z.string() }) } }, async (request, reply) => {
    const { name } = request.params;
    const missing = () => new BizError(ErrorCode.NOT_FOUND, undefined, 404);
    if (!UPLOAD_NAME_RE.test(name)) throw missing();
    let bytes: Buffer;
    try {
      bytes = await fs.promises.readFile(path.join(dir, name));
    } catch {
      throw missing();
    }
    const ext = name.slice(name.lastIndexOf('.') + 1) as ImageType['ext'];
    return reply
      .header('content-type', CONTENT_TYPES[ext])
      .header('cache-control', UPLOAD_CACHE_CONTROL)
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  });
}
