import fs from 'node:fs';
import path from 'node:path';
import type { AdminBanner, AdminBannerList, BannerDetail, BannerList, UploadResult } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { auditRows, CONTROL_TEXTS, countRows, fromNow, HOUR_MS } from './test-support.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest of a png')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('jfif')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x10, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
const IMAGE = `/uploads/${'b'.repeat(64)}.png`;

function multipart(filename: string, contentType: string, bytes: Buffer) {
  const boundary = '----coffer-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('banners', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    operator = await createUser(t, { email: 'ops@coffer.test', role: 'operator' });
    user = await createUser(t, { email: 'reader@coffer.test' });
  });
  afterAll(() => t.close());

  const input = (over: Record<string, unknown> = {}) => ({
    titleZh: '新币上线',
    titleEn: 'New coin listed',
    bodyZh: '**欢迎**',
    bodyEn: '**Welcome**',
    imageUrl: IMAGE,
    link: { type: 'detail' },
    ...over,
  });
  const create = (over: Record<string, unknown> = {}) =>
    call<AdminBanner>('POST', '/api/admin/banners/create', { token: operator.token, body: input(over) });
  const liveIds = async () => (await call<BannerList>('GET', '/api/banner/list')).data.map((b) => b.id);
  const upload = (filename: string, contentType: string, bytes: Buffer, token = operator.token) =>
    t.app.inject({ method: 'POST', url: '/api/admin/uploads', ...withToken(multipart(filename, contentType, bytes), token) });
  const withToken = (m: ReturnType<typeof multipart>, token: string) => ({ ...m, headers: { ...m.headers, 'x-token': token } });

  it('refuses admin paths to signed-out callers (2001) and non-operators (HTTP 403)', async () => {
    const { data: banner } = await create();
    const paths: ['GET' | 'POST', string, unknown?][] = [
      ['GET', '/api/admin/banners'],
      ['GET', `/api/admin/banners/${banner.id}`],
      ['POST', '/api/admin/banners/create', input()],
      ['POST', `/api/admin/banners/${banner.id}/update`, input()],
      ['POST', '/api/admin/banners/reorder', { ids: [banner.id] }],
      ['POST', `/api/admin/banners/${banner.id}/retire`, {}],
    ];
    for (const [method, url, body] of paths) {
      expect(await call(method, url, { body }), url).toMatchObject({ status: 200, code: 2001, data: null });
      expect(await call(method, url, { body, token: user.token }), url).toMatchObject({ status: 403, code: 4003 });
    }
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/admin/uploads', ...multipart('a.png', 'image/png', PNG) });
    expect(anonymous.json()).toMatchObject({ code: 2001 });
    const asUser = await upload('a.png', 'image/png', PNG, user.token);
    expect(asUser.statusCode).toBe(403);
    expect(await auditRows(t, 'banner.update')).toEqual([]);
    expect(await auditRows(t, 'upload.create')).toEqual([]);
    await call('POST', `/api/admin/banners/${banner.id}/retire`, { token: operator.token, body: {} });
  });

  it('creates a banner: listed live in order, detail with HTML, text in the asked language, audited', async () => {
    const res = await create({ link: { type: 'route', path: '/swap?from=USDT' }, sortOrder: 5 });
    expect(res).toMatchObject({
      code: 0,
      data: { state: 'live', href: '/swap?from=USDT', sortOrder: 5, htmlEn: '<p><strong>Welcome</strong></p>\n' },
    });
    const id = res.data.id;
    const list = await call<BannerList>('GET', '/api/banner/list', { lang: 'en-US' });
    expect(list.data.find((b) => b.id === id)).toEqual({
      id,
      title: 'New coin listed',
      imageUrl: IMAGE,
      link: { type: 'route', target: '/swap?from=USDT' },
    });
    const zh = await call<BannerDetail>('GET', `/api/banner/details/${id}`);
    expect(zh.data).toMatchObject({ id, title: '新币上线', html: '<p><strong>欢迎</strong></p>\n' });
    const [row, ...more] = await auditRows(t, 'banner.create', id);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ actor_user_id: operator.uid, actor: 'ops@coffer.test', target_type: 'banner', before: null });
    expect(row!.after).toMatchObject({ id, titleEn: 'New coin listed', bodyEn: '**Welcome**', sortOrder: 5 });

    const detail = await create({ link: { type: 'detail' } });
    const ranking = await create({ link: { type: 'ranking', activityId: 7 } });
    const items = (await call<BannerList>('GET', '/api/banner/list')).data;
    expect(items.find((b) => b.id === detail.data.id)!.link).toEqual({ type: 'detail', target: `/banner/detail?id=${detail.data.id}` });
    expect(items.find((b) => b.id === ranking.data.id)!.link).toEqual({ type: 'ranking', target: '/banner/ranking?id=7' });
    expect((await call<AdminBanner>('GET', `/api/admin/banners/${ranking.data.id}`, { token: operator.token })).data.link).toEqual({
      type: 'ranking',
      activityId: 7,
    });
  });

  it('refuses bad input with 1001 and writes nothing', async () => {
    const before = [await countRows(t, 'banners'), await countRows(t, 'operator_actions')];
    const bad: Record<string, unknown>[] = [
      ...CONTROL_TEXTS.map((text) => ({ titleEn: text })),
      ...CONTROL_TEXTS.slice(0, 3).map((text) => ({ bodyZh: text })),
      { titleZh: 'x'.repeat(101) },
      { titleEn: '   ' },
      { bodyEn: 'x'.repeat(20_001) },
      { imageUrl: 'http://img.example/a.png' },
      { imageUrl: 'javascript:alert(1)' },
      { imageUrl: '/uploads/../etc/passwd' },
      { imageUrl: `https://img.example/${'a'.repeat(500)}` },
      { link: { type: 'route', path: '//evil.example' } },
      { link: { type: 'route', path: '/\\evil.example' } },
      { link: { type: 'route', path: 'javascript:alert(1)' } },
      { link: { type: 'route', path: 'https://evil.example' } },
      { link: { type: 'route', path: '/a b' } },
      { link: { type: 'ranking', activityId: 0 } },
      { link: { type: 'ranking', activityId: '7' } },
      { link: { type: 'ranking' } },
      { link: { type: 'elsewhere' } },
      { startsAt: fromNow(HOUR_MS), endsAt: fromNow(-HOUR_MS) },
      { startsAt: fromNow(HOUR_MS), endsAt: fromNow(HOUR_MS) },
      { endsAt: fromNow(-HOUR_MS) },
      { startsAt: 'tomorrow' },
      { sortOrder: -1 },
      { sortOrder: 1.5 },
    ];
    for (const over of bad) {
      expect((await create(over)).code, JSON.stringify(over).slice(0, 80)).toBe(1001);
    }
    const message = await call('POST', '/api/admin/banners/create', {
      token: operator.token,
      body: input({ titleEn: 'a\u0000' }),
      lang: 'en-US',
    });
    expect(message.message).toBe('Invalid parameters: titleEn');
    expect([await countRows(t, 'banners'), await countRows(t, 'operator_actions')]).toEqual(before);
  });

  it('lists only live banners: scheduled, ended and retired ones are hidden (detail 4004)', async () => {
    const future = (await create({ startsAt: fromNow(HOUR_MS) })).data;
    const ended = (await create({ startsAt: fromNow(-2 * HOUR_MS), endsAt: fromNow(-HOUR_MS) })).data;
    const open = (await create({ startsAt: fromNow(-HOUR_MS), endsAt: fromNow(HOUR_MS) })).data;
    const retired = (await create()).data;
    const retire = await call<AdminBanner>('POST', `/api/admin/banners/${retired.id}/retire`, {
      token: operator.token,
      body: { reason: 'campaign over' },
    });
    expect(retire.data.state).toBe('retired');
    expect([future.state, ended.state, open.state]).toEqual(['scheduled', 'ended', 'live']);
    const ids = await liveIds();
    expect(ids).toContain(open.id);
    for (const hidden of [future, ended, retired]) {
      expect(ids).not.toContain(hidden.id);
      expect((await call('GET', `/api/banner/details/${hidden.id}`)).code).toBe(4004);
    }
    expect((await call('GET', '/api/banner/details/987654')).code).toBe(4004);
    expect((await call('GET', '/api/banner/details/abc')).code).toBe(1001);
    const all = (await call<AdminBannerList>('GET', '/api/admin/banners', { token: operator.token })).data.list;
    expect(all.find((b) => b.id === retired.id)).toMatchObject({ state: 'retired', retiredAt: expect.any(String) });
    expect(all.at(-1)!.state).toBe('retired');
    const [audit, ...more] = await auditRows(t, 'banner.retire', retired.id);
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ reason: 'campaign over', before: { retiredAt: null }, after: { retiredAt: expect.any(String) } });
    expect((await call('POST', `/api/admin/banners/${retired.id}/retire`, { token: operator.token })).code).toBe(3007);
    expect((await call('POST', `/api/admin/banners/${retired.id}/update`, { token: operator.token, body: input() })).code).toBe(3007);
    expect((await call('POST', '/api/admin/banners/987654/retire', { token: operator.token })).code).toBe(4004);
  });

  it('updates a banner with the whole record; the audit keeps before and after', async () => {
    const { data: banner } = await create({ startsAt: fromNow(-HOUR_MS) });
    const res = await call<AdminBanner>('POST', `/api/admin/banners/${banner.id}/update`, {
      token: operator.token,
      body: input({ titleEn: 'Renamed', link: { type: 'ranking', activityId: 3 } }),
    });
    expect(res.data).toMatchObject({ titleEn: 'Renamed', href: '/banner/ranking?id=3', startsAt: banner.startsAt, state: 'live' });
    const [audit, ...more] = await auditRows(t, 'banner.update', banner.id);
    expect(more).toEqual([]);
    expect(audit!.before).toMatchObject({ titleEn: 'New coin listed', link: { type: 'detail' } });
    expect(audit!.after).toMatchObject({ titleEn: 'Renamed', link: { type: 'ranking', activityId: 3 } });
    // endsAt is checked against the start it keeps.
    const early = input({ endsAt: new Date(Date.parse(banner.startsAt) - 1000).toISOString() });
    expect((await call('POST', `/api/admin/banners/${banner.id}/update`, { token: operator.token, body: early })).code).toBe(1001);
    expect((await call('POST', '/api/admin/banners/987654/update', { token: operator.token, body: input() })).code).toBe(4004);
    expect(await auditRows(t, 'banner.update', banner.id)).toHaveLength(1);
  });

  it('reorders banners in one audited action', async () => {
    const a = (await create({ sortOrder: 1 })).data.id;
    const b = (await create({ sortOrder: 2 })).data.id;
    const res = await call<AdminBannerList>('POST', '/api/admin/banners/reorder', { token: operator.token, body: { ids: [b, a] } });
    expect(res.code).toBe(0);
    const ids = await liveIds();
    expect(ids.indexOf(b)).toBeLessThan(ids.indexOf(a));
    expect(res.data.list.find((x) => x.id === b)!.sortOrder).toBe(0);
    const [audit, ...more] = await auditRows(t, 'banner.reorder');
    expect(more).toEqual([]);
    expect(audit!.before).toEqual([
      { id: a, sortOrder: 1 },
      { id: b, sortOrder: 2 },
    ]);
    expect(audit!.after).toEqual([
      { id: b, sortOrder: 0 },
      { id: a, sortOrder: 1 },
    ]);
    expect((await call('POST', '/api/admin/banners/reorder', { token: operator.token, body: { ids: [a, 987654] } })).code).toBe(4004);
    expect((await call('POST', '/api/admin/banners/reorder', { token: operator.token, body: { ids: [a, a] } })).code).toBe(1001);
    expect((await call('POST', '/api/admin/banners/reorder', { token: operator.token, body: { ids: [] } })).code).toBe(1001);
    expect(await auditRows(t, 'banner.reorder')).toHaveLength(1);
  });

  it('renders banner bodies safely', async () => {
    const body =
      '<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1)) [y](https://example.com) ' +
      '![i](data:image/png;base64,AAAA) <b>raw</b>';
    const { data } = await create({ bodyEn: body });
    const html = (await call<BannerDetail>('GET', `/api/banner/details/${data.id}`, { lang: 'en-US' })).data.html;
    expect(html).not.toMatch(/<script|<img|<b>|href="javascript/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('[x](javascript:alert(1))');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">y</a>');
  });

  it('stores an uploaded PNG, JPEG or WebP by its hash and serves it with the right headers', async () => {
    const res = await upload('banner.png', 'image/png', PNG);
    const data = res.json().data as UploadResult;
    expect(data).toMatchObject({ contentType: 'image/png', bytes: PNG.length });
    expect(data.url).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    const dir = path.join(t.config.dataDir, 'uploads');
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, data.name)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual([data.name]);

    const served = await t.app.inject({ method: 'GET', url: data.url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(served.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(served.headers['content-security-policy']).toContain("default-src 'none'");

    // The extension follows the content, not the name the client gave.
    const jpeg = (await upload('photo.png', 'image/png', JPEG)).json().data as UploadResult;
    expect(jpeg).toMatchObject({ contentType: 'image/jpeg', name: expect.stringMatching(/\.jpg$/) });
    expect((await t.app.inject({ method: 'GET', url: jpeg.url })).headers['content-type']).toBe('image/jpeg');
    const webp = (await upload('x.bin', 'application/octet-stream', WEBP)).json().data as UploadResult;
    expect(webp.contentType).toBe('image/webp');
    // Usable as a banner image at once.
    expect((await create({ imageUrl: data.url })).code).toBe(0);

    const audits = await auditRows(t, 'upload.create');
    expect(audits).toHaveLength(3);
    expect(audits[0]).toMatchObject({ target_type: 'upload', target_id: data.name, before: null, after: data });
  });

  it('refuses files that are not PNG, JPEG or WebP by content, or larger than 1 MiB (6001)', async () => {
    const before = await countRows(t, 'operator_actions');
    const refusals: [string, string, Buffer][] = [
      ['fake.png', 'image/png', Buffer.from('GIF89a\x01\x00\x01\x00')],
      ['page.png', 'image/png', Buffer.from('<!doctype html><script>alert(1)</script>')],
      ['logo.png', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
      ['empty.png', 'image/png', Buffer.alloc(0)],
      ['big.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(1024 * 1024)])],
      ['huge.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)])],
    ];
    for (const [name, type, bytes] of refusals) {
      const res = await upload(name, type, bytes);
      expect(res.json(), name).toMatchObject({ code: 6001, data: null });
    }
    const json = await call('POST', '/api/admin/uploads', { token: operator.token, body: { file: 'x' }, lang: 'en-US' });
    expect(json.code).toBe(6001);
    expect(await countRows(t, 'operator_actions')).toBe(before);
    expect(fs.readdirSync(path.join(t.config.dataDir, 'uploads')).filter((n) => !n.startsWith('.'))).toHaveLength(3);
  });

  it('serves only stored names: anything else is 404', async () => {
    for (const url of [
      `/uploads/${'c'.repeat(64)}.png`,
      `/uploads/${'C'.repeat(64)}.png`,
      `/uploads/${'c'.repeat(64)}.gif`,
      '/uploads/..%2F..%2Fetc%2Fpasswd',
      '/uploads/../package.json',
      '/uploads/%2e%2e/coffer.lock',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('application/json');
    }
  });
});
