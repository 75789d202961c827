import { MEDIA_MAX_BYTES_DEFAULT, UPLOAD_DEFAULTS } from '@cfx/contract/settled-rules.ts';
import type { S3Config } from '../../providers/storage/s3.ts';
// A cycle with config.ts (which calls loadUploadsConfig): ConfigError is only used at call time.
import { ConfigError } from '../../config.ts';

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
const num = (v: string | undefined, d: number) => {
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : d;
};

/** The local provider's root is DATA_DIR/uploads (app.ts), so a test's DATA_DIR override moves it too. */
export function loadUploadsConfig(env: NodeJS.ProcessEnv): UploadsConfig {
  const provider = env.STORAGE_PROVIDER || 'local';
  if (provider !== 'local' && provider !== 's3') throw new ConfigError(`STORAGE_PROVIDER must be one of local, s3 (got "${provider}")`);
  const config: UploadsConfig = {
    provider,
    imageMaxBytes: Math.round(num(env.UPLOAD_IMAGE_MAX_MB, UPLOAD_DEFAULTS.imageMaxBytes / MB) * MB),
    fileMaxBytes: Math.round(num(env.UPLOAD_FILE_MAX_MB, UPLOAD_DEFAULTS.fileMaxBytes / MB) * MB),
    mediaMaxBytes: Math.round(num(env.UPLOAD_MEDIA_MAX_MB, MEDIA_MAX_BYTES_DEFAULT / MB) * MB),
    perUserDay: Math.floor(num(env.UPLOADS_PER_USER_DAY, 100)),
    bytesPerUserDay: Math.round(num(env.UPLOAD_MB_PER_USER_DAY, 200) * MB),
  };
  if (provider === 's3') {
    const missing = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((n) => !env[n]);
    if (missing.length) throw new ConfigError(`STORAGE_PROVIDER=s3 needs ${missing.join(', ')}`);
    if (!/^https?:\/\//.test(env.S3_ENDPOINT!)) throw new ConfigError('S3_ENDPOINT must be an http(s):// URL');
    if (env.S3_PUBLIC_BASE_URL && !/^(https:\/\/|\/)/.test(env.S3_PUBLIC_BASE_URL)) {
      throw new ConfigError('S3_PUBLIC_BASE_URL must be an https:// URL (the pages only load https images)');
    }
    if (env.S3_PATH_STYLE && env.S3_PATH_STYLE !== '0' && env.S3_PATH_STYLE !== '1') throw new ConfigError('S3_PATH_STYLE must be 1 or 0');
    config.s3 = {
      endpoint: env.S3_ENDPOINT!,
      bucket: env.S3_BUCKET!,
      region: env.S3_REGION || 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID!,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
      publicBaseUrl: env.S3_PUBLIC_BASE_URL || undefined,
      pathStyle: env.S3_PATH_STYLE !== '0',
      timeoutMs: 30_000,
    };
  }
  return config;
}
