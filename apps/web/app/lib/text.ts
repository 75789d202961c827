/** Cuts a string to `n` user-perceived characters (code points), e.g. the header nickname. */
export function cutChars(text: string, n: number): string {
  return Array.from(text).slice(0, n).join('');
}

/** Keeps the digits of a phone input and truncates it to `max` (spec §5: truncated to 11). */
export function phoneInput(value: string, max: number): string {
  return value.replace(/\D+/g, '').slice(0, max);
}

export function charLength(text: string): number {
  return Array.from(text).length;
}
