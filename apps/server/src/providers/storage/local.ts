import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MEDIA_UPLOADS_PREFIX } from '@cfx/contract/routes.ts';
import { ensurePrivateDir } from '../../util/private-files.ts';
import { contentTypeOfKey, isStorageKey, resolveRange, StorageKeyError, type StorageProvider } from './types.ts';

/**
 * Files under `root` (DATA_DIR/uploads): directories 0700, files 0600 like the rest of DATA_DIR
 * (the server is the only reader; it serves public keys at /media/uploads/<key>). A write goes to a
 * temporary file first and is renamed into place, so a reader never sees half a file.
 */
export function localStorage(root: string): StorageProvider {
  const fileOf = (key: string) => {
    if (!isStorageKey(key)) throw new StorageKeyError();
    const file = path.resolve(root, key);
    // Belt and braces: the key pattern already forbids anything that could leave the root.
    if (!file.startsWith(path.resolve(root) + path.sep)) throw new StorageKeyError();
    return file;
  };
  let rootReady = false;
  const mkdirs = (dir: string) => {
    if (!rootReady) {
      ensurePrivateDir(root);
      rootReady = true;
    }
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  };

  return {
    name: 'local',
    async put(key, bytes) {
      const file = fileOf(key);
      mkdirs(path.dirname(file));
      const tmp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
      try {
        await fs.promises.writeFile(tmp, bytes, { mode: 0o600, flag: 'wx' });
        await fs.promises.rename(tmp, file);
      } catch (err) {
        await fs.promises.rm(tmp, { force: true });
        throw err;
      }
    },
    async get(key) {
      const file = fileOf(key);
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(file, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
      const st = await handle.stat();
      if (!st.isFile()) {
        await handle.close();
        return undefined;
      }
      return { body: handle.createReadStream(), size: st.size, contentType: contentTypeOfKey(key) };
    },
    async getRange(key, range) {
      const file = fileOf(key);
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(file, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
      const st = await handle.stat();
      const span = st.isFile() ? resolveRange(range, st.size) : undefined;
      if (!st.isFile() || !span) {
        await handle.close();
        return st.isFile() ? { totalSize: st.size, contentType: contentTypeOfKey(key), lastModified: st.mtimeMs } : undefined;
      }
      // The stream reads only [start, end] and closes the handle when done or destroyed.
      return { totalSize: st.size, contentType: contentTypeOfKey(key), lastModified: st.mtimeMs, range: span, body: handle.createReadStream({ start: span.start, end: span.end }) };
    },
    async delete(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
    url(key) {
      return MEDIA_UPLOADS_PREFIX + key;
    },
  };
}
