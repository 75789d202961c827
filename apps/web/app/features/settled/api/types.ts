/** Project-application shapes, type-only from the contract (a value import would bundle zod). */
import type { z } from 'zod';
import type { settledApplication, settledMine, uploadResult } from '@cfx/contract/settled.ts';

/** `{url, key, name, size, type}` of one stored upload. */
export type UploadResult = z.infer<typeof uploadResult>;
/** One of my applications with its status, files and (when rejected) the reason. */
export type SettledApplication = z.infer<typeof settledApplication>;
/** `{list, hasOpen, limits: {imageMaxBytes, fileMaxBytes}}` */
export type SettledMine = z.infer<typeof settledMine>;
