import type { AppContext } from '../../context.ts';
import { sniff } from '../uploads/index.ts';

/** The most bytes read to find an image's size (the header is near the start; a JPEG's frame header may follow large EXIF data). */
const MAX_READ = 2 * 1024 * 1024;

/**
 * The pixel size of a stored image, read from its header (uploads/sniff.ts) — the uploads table
 * keeps type and bytes only. Reads the stored object until the header is found (at most 2 MiB) and
 * stops. Undefined when the object is gone or its header cannot be read.
 */
export async function storedImageSize(ctx: Pick<AppContext, 'storage'>, key: string): Promise<{ width: number; height: number } | undefined> {
  const obj = await ctx.storage.get(key);
  if (!obj) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of obj.body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      const s = sniff(Buffer.concat(chunks, size));
      if (s?.width && s.height) return { width: s.width, height: s.height };
      if (size >= MAX_READ) break;
    }
  } finally {
    obj.body.destroy();
  }
  return undefined;
}
