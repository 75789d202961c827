/** Paths of the gateway (relative to API_BASE), shared by server and web. */
export const UserPaths = {
  smscode: '/api/user/v1/smscode',
  regist: '/api/user/v1/regist',
  login: '/api/user/v1/login',
  logout: '/api/user/v1/logout',
  walletlogin: '/api/user/v1/walletlogin',
  walletchallenge: '/api/user/v1/walletchallenge',
  walletlogout: '/api/user/v1/walletlogout',
  walletloginstatus: '/api/user/v1/walletloginstatus',
  userprofile: '/api/user/profile/v1/userprofile',
  checkmobile: '/api/user/findpwd/v1/checkmobile',
  reset: '/api/user/findpwd/v1/reset',
  profpicList: '/api/user/profile/v1/profpic/list',
  changeprofpic: '/api/user/profile/v1/changeprofpic',
  modifynickname: '/api/user/profile/v1/modifynickname',
  getinvitecode: '/api/user/v1/getinvitecode',
  securitySetting: '/api/user/profile/v1/security/setting',
  privacySetting: '/api/user/profile/v1/privacy/other/getsetting',
  mobileSmscode: '/api/user/v1/mobile/smscode',
} as const;

export const CaptchaPaths = {
  get: '/captcha/v1/get',
  check: '/captcha/v1/check',
} as const;

export const DevPaths = {
  captchaToken: '/dev/captcha-token',
  smsOutbox: '/dev/sms-outbox',
} as const;
