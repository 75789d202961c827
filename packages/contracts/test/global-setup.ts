// Compile the contracts once before any test file starts (artifacts are git-ignored).
import { ensureArtifacts } from '../scripts/compile.mjs';

export default async function setup(): Promise<void> {
  await ensureArtifacts();
}
