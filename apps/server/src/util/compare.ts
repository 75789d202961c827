/**
 * Orders strings by UTF-16 code units (not the locale): the same order in every process, which is
 * what a lock order needs — batches that lock rows (accounts, identities, order numbers) sorted by it
 * cannot wait for each other in a cycle.
 */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
