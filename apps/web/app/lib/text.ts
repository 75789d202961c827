/** Cuts a string to `n` user-perceived characters (code points), e.g. the header nickname. */
export function cutChars(text: string, n: number): string {
  return Array.from(text).slice(0, n).join('');
}

/** Keeps the digits of a phone input and truncates it to `max`. */
export function phoneInput(value: string, max: number): string {
  return value.replace(/\D+/g, '').slice(0, max);
}

export function charLength(text: string): number {
  return Array.from(text).length;
}

/**
 * Short form of a chain address or hash for display: `cfx:aak2…7dpe`, `0x12ab…9f0e` (keeps the
 * prefix up to the last colon). Dependency-free so the header can use it.
 */
export function shortAddress(address: string, head = 4, tail = 4): string {
  const colon = address.lastIndexOf(':');
  const prefix = colon >= 0 ? address.slice(0, colon + 1) : address.startsWith('0x') ? '0x' : '';
  const body = address.slice(prefix.length);
  if (body.length <= head + tail + 1) return address;
  return `${prefix}${body.slice(0, head)}…${body.slice(-tail)}`;
}
