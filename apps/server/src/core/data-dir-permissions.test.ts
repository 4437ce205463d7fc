import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMailer } from '../mail/mailer.ts';
import { lockDataDir } from './data-dir-lock.ts';

/**
 * DATA_DIR holds the embedded database, saved mail with live sign-up and reset codes, and the
 * pidfile. Before, they were made with the process umask (typically 0755 folders and 0644
 * files: readable by every local user). Now the folders are 0700 and the files 0600.
 */
describe('DATA_DIR permissions', () => {
  let root: string;
  let oldUmask: number;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-perm-'));
    // The usual default: without explicit modes, folders would be 0755 and files 0644.
    oldUmask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(oldUmask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  const mode = (p: string) => fs.statSync(p).mode & 0o777;
  const log = { warn: () => {} } as never;

  it('the pidfile lock makes DATA_DIR 0700 and the lock 0600', () => {
    const dataDir = path.join(root, 'data');
    const release = lockDataDir(dataDir);
    try {
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(path.join(dataDir, 'coffer.lock'))).toBe(0o600);
    } finally {
      release();
    }
  });

  it('tightens an existing DATA_DIR that others could read', () => {
    const dataDir = path.join(root, 'old');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    const release = lockDataDir(dataDir);
    release();
    expect(mode(dataDir)).toBe(0o700);
  });

  it('console mail is saved 0600 in a 0700 mail folder inside a 0700 DATA_DIR', async () => {
    const dataDir = path.join(root, 'mailer');
    const mailer = createMailer({ from: 'Coffer <a@b.c>', dataDir, log });
    await mailer.send({ to: 'someone@coffer.test', subject: 'code', text: 'your code is 123456' });
    const outbox = path.join(dataDir, 'mail');
    const [file] = fs.readdirSync(outbox);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(outbox)).toBe(0o700);
    expect(mode(path.join(outbox, file!))).toBe(0o600);
  });
});
