// Typed access to the compiled contracts (artifacts/<Name>.json), compiling on demand.
// Artifacts are git-ignored; ensureArtifacts() compiles only when the sources changed.
import { ensureArtifacts, readArtifact } from '../scripts/compile.mjs';

export type ContractName = 'Collectible' | 'Exchange';

export interface Artifact {
  contractName: ContractName;
  abi: AbiItem[];
  bytecode: `0x${string}`;
}

/** One ABI entry (function, event, error, constructor). */
export interface AbiItem {
  type: string;
  name?: string;
  inputs?: AbiParam[];
  outputs?: AbiParam[];
  stateMutability?: string;
  anonymous?: boolean;
}

export interface AbiParam {
  name: string;
  type: string;
  internalType?: string;
  indexed?: boolean;
  components?: AbiParam[];
}

/** Compile if needed, then load the artifact. */
export async function loadArtifact(name: ContractName): Promise<Artifact> {
  await ensureArtifacts();
  return readArtifact(name) as Artifact;
}
