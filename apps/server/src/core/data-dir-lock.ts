import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR and the folders in it hold the embedded database, saved mail with live codes and
 * generated keys: only the server's own user may enter them (0700, whatever the umask), and
 * the files the server writes there are 0600. A folder made earlier with looser rights is
 * tightened.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * PGlite does not stop a second process opening the same folder (it would corrupt it),
 * so the embedded mode takes an O_EXCL pidfile. A stale file whose pid is gone is reclaimed.
 */
export function lockDataDir(dataDir: string): () => void {
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, 'coffer.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', PRIVATE_FILE_MODE);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => fs.rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(file, 'utf8'));
      if (pid && isAlive(pid)) {
        throw new Error(`DATA_DIR ${dataDir} is in use by process ${pid}; stop it or choose another DATA_DIR`);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock DATA_DIR ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
