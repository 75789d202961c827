import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the database, the data key and the chain keys: the directory is 0700 and the
 * database files 0600, whatever the umask. An existing directory owned by another user is left
 * as it is (we could not chmod it anyway).
 */
export function ensurePrivateDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dir);
  if (typeof process.getuid === 'function' && st.uid === process.getuid() && (st.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}

/** Creates `file` empty with mode 0600 if it is missing, and makes an existing one 0600. */
export function ensurePrivateFile(file: string) {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  restrictFile(file);
}

/** chmod 0600 when the file exists and is readable by others. */
export function restrictFile(file: string) {
  try {
    const st = fs.statSync(file);
    if ((st.mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * Reads the secret kept in `file` (trimmed), generating it with `generate()` the first time. Safe
 * when several processes start at once on a fresh DATA_DIR (two servers, a server and a tool):
 * the value is written to a temporary file of our own (O_EXCL, 0600) and hard-linked to its name,
 * which fails with EEXIST if another process got there first — then its value is read and ours is
 * dropped. So the file appears whole or not at all, is never overwritten, and every process uses
 * the value on disk. An existing empty file is refused (it would be a key of no bytes).
 */
export function readOrCreateSecretFile(file: string, generate: () => string): string {
  const existing = readSecret(file);
  if (existing !== undefined) return existing;
  ensurePrivateDir(path.dirname(file));
  const value = generate();
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeSync(fd, value);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
    return value;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readSecret(file)!;
  } finally {
    fs.unlinkSync(tmp);
  }
}

function readSecret(file: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  if (!text) throw new Error(`${file} is empty: delete it to generate a new one only if nothing was sealed or signed with it`);
  restrictFile(file);
  return text;
}
