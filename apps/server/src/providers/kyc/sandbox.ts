import type { KycProvider } from './types.ts';

/**
 * Sandbox: any well-formed pair matches, except names starting with 错 ("wrong"), which lets a
 * newcomer and the tests see the mismatch path without a real provider.
 */
export const sandboxKyc: KycProvider = {
  name: 'sandbox',
  async verify({ name }) {
    return { match: !name.startsWith('错') };
  },
};
