// Types of scripts/compile.mjs for TypeScript importers (src/artifacts.ts).
export declare const PACKAGE_DIR: string;
export declare const CONTRACTS_DIR: string;
export declare const ARTIFACTS_DIR: string;
export declare const SOLC_SETTINGS: Record<string, unknown>;
/** Compile every contract; returns the contract names written to artifacts/. */
export declare function compileAll(): Promise<string[]>;
/** True when artifacts exist and match the current sources and settings. */
export declare function artifactsAreFresh(): boolean;
/** Compile only when stale; resolves true if it compiled. */
export declare function ensureArtifacts(): Promise<boolean>;
/** Parsed artifacts/<name>.json. */
export declare function readArtifact(name: string): unknown;
