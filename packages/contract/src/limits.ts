/** Business constants shared by server and web. */
export const LIMITS = {
  mobileLength: 11,
  passwordMin: 6,
  passwordMax: 20,
  smsCodeLength: 6,
  inviteCodeMax: 6,
  searchMax: 20,
  nicknameMax: 16,
  headerNicknameCut: 4,
  smsCountdownSeconds: 60,
  messageDurationMs: 1000,
  minimumAge: 18,
  chunkReloadGuardMs: 60_000,
  progressThrottleMs: 200,
  progressDurationMs: 5000,
} as const;

/** Password rule (server side): 6-20 characters of digits, letters and ASCII symbols. */
export const PASSWORD_RE = /^[0-9A-Za-z!-/:-@[-`{-~]{6,20}$/;
export const MOBILE_RE = /^1\d{10}$/;
export const SMS_CODE_RE = /^\d{6}$/;
