import { z } from 'zod';
import { envelope } from './envelope.ts';
import { SETTLED_STATUSES } from './settled-rules.ts';

/**
 * Project application and its uploads — /official/settled,
 * multipart /official/settled/oss/upload and /official/settled/oss/uploadfile. Paths containing
 * `official` answer `code: 200` on success. The body schemas only bound sizes and types: the
 * rules with their clear messages are settled-rules.ts (invalidSettledFields), applied by the server.
 */

/** One stored upload, as the upload calls answer it and as an application lists its files. */
export const uploadResult = z.object({
  /** Where the file is read: `/media/uploads/<key>` (images) or the private download path (documents). */
  url: z.string(),
  key: z.string(),
  /** The original file name, sanitised (metadata only: never part of the key or a path). */
  name: z.string(),
  size: z.number().int(),
  /** The content type the server sniffed from the bytes. */
  type: z.string(),
});
export type UploadResult = z.infer<typeof uploadResult>;
export const uploadResponse = envelope(uploadResult.nullable());

const text = (max: number) => z.string().max(max).nullish().transform((v) => v ?? '');
const whole = z.union([z.number(), z.string().max(20)]).nullish();
const keyList = z.array(z.string().max(200)).max(20).nullish().transform((v) => v ?? []);

export const settledSubmitBody = z.object({
  projectName: text(500),
  creatorName: text(500),
  contactName: text(500),
  mobile: text(50),
  email: text(500),
  category: text(32),
  description: text(20_000),
  supply: whole,
  /** Planned issue price, integer fen. */
  priceFen: whole,
  artworkKeys: keyList,
  qualificationKeys: keyList,
  agree: z.union([z.boolean(), z.number(), z.string().max(8)]).nullish(),
});
export type SettledSubmitBody = z.infer<typeof settledSubmitBody>;

export const settledStatus = z.enum(SETTLED_STATUSES);

export const settledApplication = z.object({
  id: z.number().int(),
  projectName: z.string(),
  creatorName: z.string(),
  category: z.string(),
  description: z.string(),
  supply: z.number().int(),
  priceFen: z.number().int(),
  contactName: z.string(),
  mobile: z.string(),
  email: z.string(),
  status: settledStatus,
  /** Set when rejected: the staff's reason, shown to the applicant. */
  rejectReason: z.string().nullable(),
  artworks: z.array(uploadResult),
  qualifications: z.array(uploadResult),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  reviewedAt: z.number().int().nullable(),
});
export type SettledApplication = z.infer<typeof settledApplication>;

export const settledSubmitResponse = envelope(z.object({ id: z.number().int(), status: settledStatus }).nullable());

/** GET /official/settled/mine: my applications (newest first) and the upload limits the form checks first. */
export const settledMine = z.object({
  list: z.array(settledApplication),
  /** True when one application is submitted or reviewing: the form is closed until it is decided. */
  hasOpen: z.boolean(),
  limits: z.object({ imageMaxBytes: z.number().int(), fileMaxBytes: z.number().int() }),
});
export type SettledMine = z.infer<typeof settledMine>;
export const settledMineResponse = envelope(settledMine.nullable());

/** GET /official/settled/oss/file?key= — a private upload (documents), for its owner only. */
export const uploadFileQuery = z.object({ key: z.string().max(200) });
