import { z } from 'zod';
import { MEDIA_MAX_BYTES_DEFAULT, UPLOAD_DEFAULTS } from '@cfx/contract/settled-rules.ts';
import type { S3Config } from '../providers/storage/s3.ts';
import { ConfigError, flagVar, intVar, numVar, oneOfVar, parseVars, strVar, urlVar } from './vars.ts';

/** Uploads and their storage (README "Uploads and project applications"). */
export interface UploadsConfig {
  /** STORAGE_PROVIDER: `local` (DATA_DIR/uploads, default) or `s3`. */
  provider: 'local' | 's3';
  s3?: S3Config;
  /** UPLOAD_IMAGE_MAX_MB (default 5): the largest image. */
  imageMaxBytes: number;
  /** UPLOAD_FILE_MAX_MB (default 20): the largest document. */
  fileMaxBytes: number;
  /** UPLOAD_MEDIA_MAX_MB (default 50): the largest artwork video or 3D model. */
  mediaMaxBytes: number;
  /** UPLOADS_PER_USER_DAY (default 100): files one user may upload per 24 hours. */
  perUserDay: number;
  /** UPLOAD_MB_PER_USER_DAY (default 200): megabytes one user may upload per 24 hours. */
  bytesPerUserDay: number;
}

const MB = 1024 * 1024;

export const uploadsEnv = {
  STORAGE_PROVIDER: oneOfVar(['local', 's3'], { default: 'local' }),
  /** Megabytes, decimals allowed (e.g. 0.5). */
  UPLOAD_IMAGE_MAX_MB: numVar({ above: 0, default: UPLOAD_DEFAULTS.imageMaxBytes / MB }),
  UPLOAD_FILE_MAX_MB: numVar({ above: 0, default: UPLOAD_DEFAULTS.fileMaxBytes / MB }),
  UPLOAD_MEDIA_MAX_MB: numVar({ above: 0, default: MEDIA_MAX_BYTES_DEFAULT / MB }),
  UPLOADS_PER_USER_DAY: intVar({ min: 1, default: 100 }),
  UPLOAD_MB_PER_USER_DAY: numVar({ above: 0, default: 200 }),
  S3_ENDPOINT: urlVar({ pattern: /^https?:\/\//, expected: 'an http(s):// URL' }),
  S3_BUCKET: strVar(),
  S3_ACCESS_KEY_ID: strVar(),
  S3_SECRET_ACCESS_KEY: strVar(),
  S3_REGION: strVar({ default: 'us-east-1' }),
  S3_PUBLIC_BASE_URL: urlVar({ pattern: /^(https:\/\/|\/)/, expected: 'an https:// URL (the pages only load https images)' }),
  S3_PATH_STYLE: flagVar({ default: true }),
};

/** The local provider's root is DATA_DIR/uploads (app.ts), so a test's DATA_DIR override moves it too. */
export function loadUploadsConfig(raw: NodeJS.ProcessEnv): UploadsConfig {
  const env = parseVars(z.object(uploadsEnv), raw);
  const config: UploadsConfig = {
    provider: env.STORAGE_PROVIDER,
    imageMaxBytes: Math.round(env.UPLOAD_IMAGE_MAX_MB * MB),
    fileMaxBytes: Math.round(env.UPLOAD_FILE_MAX_MB * MB),
    mediaMaxBytes: Math.round(env.UPLOAD_MEDIA_MAX_MB * MB),
    perUserDay: env.UPLOADS_PER_USER_DAY,
    bytesPerUserDay: Math.round(env.UPLOAD_MB_PER_USER_DAY * MB),
  };
  if (env.STORAGE_PROVIDER === 's3') {
    const { S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = env;
    if (!S3_ENDPOINT || !S3_BUCKET || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY) {
      const missing = Object.entries({ S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY }).filter(([, v]) => !v).map(([k]) => k);
      throw new ConfigError(`STORAGE_PROVIDER=s3 needs ${missing.join(', ')}`);
    }
    config.s3 = {
      endpoint: S3_ENDPOINT,
      bucket: S3_BUCKET,
      region: env.S3_REGION,
      accessKeyId: S3_ACCESS_KEY_ID,
      secretAccessKey: S3_SECRET_ACCESS_KEY,
      publicBaseUrl: env.S3_PUBLIC_BASE_URL,
      pathStyle: env.S3_PATH_STYLE,
      timeoutMs: 30_000,
    };
  }
  return config;
}
