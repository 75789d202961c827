/** Two-factor identity check (name + ID number) against an authoritative source. */
export interface KycProvider {
  readonly name: 'sandbox' | 'aliyun';
  verify(input: { name: string; idNumber: string }): Promise<{ match: boolean }>;
}
