// Compile the contracts only when artifacts/ is missing or stale (used by `pretest`
// and by anything that needs the ABIs: tests, the server's deploy step).
import { ensureArtifacts } from './compile.mjs';

const compiled = await ensureArtifacts();
console.log(compiled ? 'contracts compiled' : 'contract artifacts are up to date');
