import type { Generated } from 'kysely';

/** Times are epoch milliseconds (bigint in PostgreSQL, parsed to number). */
export interface UsersTable {
  id: Generated<number>;
  account_id: string;
  mobile: string;
  password_hash: string | null;
  nickname: string;
  profpic_id: string;
  is_realname: number;
  is_creator: number;
  wallet_address: string | null;
  invite_code: string;
  invited_by: number | null;
  regist_channel: string | null;
  created_at: number;
}
export interface SessionsTable {
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  wallet_connected: Generated<number>;
}
export interface WalletChallengesTable {
  nonce: string;
  user_id: number;
  address: string;
  message: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
export interface SmsCodesTable {
  id: Generated<number>;
  mobile: string;
  type: string;
  code_hash: string;
  ip: string;
  created_at: number;
  expires_at: number;
  wrong_tries: number;
  used_at: number | null;
}
export interface SmsOutboxTable {
  id: Generated<number>;
  mobile: string;
  type: string;
  code: string;
  created_at: number;
}
export interface CaptchaChallengesTable {
  id: string;
  answer_x: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
export interface CaptchaTokensTable {
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
export interface LoginFailuresTable {
  id: Generated<number>;
  mobile: string;
  ip: string;
  created_at: number;
}
export interface ResetTokensTable {
  token_hash: string;
  mobile: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
export interface ProfpicsTable {
  id: string;
  url: string;
  sort: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  sms_codes: SmsCodesTable;
  sms_outbox: SmsOutboxTable;
  captcha_challenges: CaptchaChallengesTable;
  captcha_tokens: CaptchaTokensTable;
  login_failures: LoginFailuresTable;
  reset_tokens: ResetTokensTable;
  profpics: ProfpicsTable;
  wallet_challenges: WalletChallengesTable;
}
