import fs from 'node:fs';

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
