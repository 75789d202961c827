import crypto from 'node:crypto';
import path from 'node:path';
import { readOrCreateSecretFile } from './private-files.ts';

/**
 * AES-256-GCM for personal data at rest (ID numbers, real names). The key comes from
 * DATA_ENCRYPTION_KEY (64 hex chars) or is generated once into DATA_DIR/data.key (mode 600).
 * Stored form: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /** Keyed hash for equality look-ups (e.g. one ID number per account) without storing the value. */
  digest(plain: string): string;
}

export function loadSecretBox(dataDir: string, envKey = process.env.DATA_ENCRYPTION_KEY): SecretBox {
  let key: Buffer;
  if (envKey) {
    if (!/^[0-9a-fA-F]{64}$/.test(envKey)) throw new Error('DATA_ENCRYPTION_KEY must be 64 hex characters');
    key = Buffer.from(envKey, 'hex');
  } else {
    const hex = readOrCreateSecretFile(path.join(dataDir, 'data.key'), () => crypto.randomBytes(32).toString('hex'));
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${path.join(dataDir, 'data.key')} must hold 64 hex characters`);
    key = Buffer.from(hex, 'hex');
  }
  const macKey = crypto.createHmac('sha256', key).update('digest').digest();
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    },
    open(sealed) {
      const [v, iv, tag, data] = sealed.split('.');
      if (v !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed value');
      const d = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(data, 'base64url')), d.final()]).toString('utf8');
    },
    digest(plain) {
      return crypto.createHmac('sha256', macKey).update(plain).digest('hex');
    },
  };
}
