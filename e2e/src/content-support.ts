import type { ActivityAdmin, PrizeTier } from '@coffer/contract/activity';
import type { AdminBanner, AdminHelpArticle, AdminHelpTopic, AdminNotice, BannerLinkInput, UploadResult } from '@coffer/contract/content';
import { crc32, deflateSync } from 'node:zlib';
import { baseURL, type TestUser } from './app';
import { must, operatorToken } from './wallet-support';

/** Content set up through the operators' API (the console's own pages are tested elsewhere). */

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

type Rgb = [number, number, number];

/** A real PNG (8-bit RGB): a diagonal gradient from `from` to `to`, for banner pictures. */
export function gradientPng(width: number, height: number, from: Rgb, to: Rgb): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) {
      const k = (x / width + y / height) / 2;
      for (let c = 0; c < 3; c += 1) row[1 + x * 3 + c] = Math.round(from[c]! + (to[c]! - from[c]!) * k);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** POST /api/admin/uploads: returns the image's /uploads/ path. */
export async function uploadImage(png: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'banner.png');
  const response = await fetch(`${baseURL()}/api/admin/uploads`, {
    method: 'POST',
    headers: { 'x-token': await operatorToken() },
    body: form,
  });
  const body = (await response.json()) as { code: number; message: string; data: UploadResult };
  if (body.code !== 0) throw new Error(`upload: ${body.code} ${body.message}`);
  return body.data.url;
}

async function asOperator<T>(path: string, body: unknown): Promise<T> {
  return must<T>(path, { token: await operatorToken(), body });
}

export interface BannerSeed {
  titleZh: string;
  titleEn: string;
  bodyZh?: string;
  bodyEn?: string;
  imageUrl: string;
  link: BannerLinkInput;
  sortOrder?: number;
}

export const createBanner = (banner: BannerSeed) => asOperator<AdminBanner>('/admin/banners/create', banner);

export const retireBanner = (id: number) => asOperator<AdminBanner>(`/admin/banners/${id}/retire`, {});

export interface NoticeSeed {
  uid?: number | null;
  titleZh: string;
  titleEn: string;
  bodyZh?: string;
  bodyEn?: string;
}

export const createNotice = (notice: NoticeSeed) => asOperator<AdminNotice>('/admin/notices/create', notice);

export const createHelpTopic = (topic: { key: string; titleZh: string; titleEn: string; sortOrder?: number }) =>
  asOperator<AdminHelpTopic>('/admin/help/topics/create', topic);

export const createHelpArticle = (article: {
  topicId: number;
  titleZh: string;
  titleEn: string;
  bodyZh: string;
  bodyEn: string;
  sortOrder?: number;
}) => asOperator<AdminHelpArticle>('/admin/help/articles/create', article);

/** A swap-volume activity that started a minute ago and runs for a day, prizes in USDT. */
export function createLiveActivity(titles: { titleZh: string; titleEn: string }, prizes: PrizeTier[]) {
  const now = Date.now();
  return asOperator<ActivityAdmin>('/admin/activities/create', {
    ...titles,
    rulesZh: '## 规则\n\n活动期间按兑换量（USDT）排名，前三名获得奖励。',
    rulesEn: '## Rules\n\nRanked by swap volume in USDT during the activity; the top three win prizes.',
    metric: 'swap_volume_usdt',
    startsAt: new Date(now - 60_000).toISOString(),
    endsAt: new Date(now + 24 * 3600_000).toISOString(),
    minScore: '0',
    prizeCurrency: 'USDT',
    prizes,
  });
}

/** The signed-in user's uid (GET /api/getCurrentUser). */
export async function uidOf(user: TestUser): Promise<number> {
  return (await must<{ uid: number }>('/getCurrentUser', { token: user.token })).uid;
}
