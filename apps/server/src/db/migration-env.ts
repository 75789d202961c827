import type { SecretBox } from '../util/secret-box.ts';

/** What a data migration may need: the sealing key (to seal values that were stored clear) and the time. */
export interface MigrationEnv {
  secrets: SecretBox;
  now: number;
}
