// userprofile with a valid token vs a bare Fastify route in the same server, then login throughput.
// Run: npm run bench:user -w bench   (DATABASE_URL=postgres://… to measure PostgreSQL)
import { fmt, load, post, startServer } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const srv = await startServer();
try {
  const mobile = '13900000001';
  const cap = (await post(srv.base, '/mvapi/public/dev/captcha-token')).data.NECaptchaValidate;
  await post(srv.base, '/mvapi/public/api/user/v1/smscode', { mobile, type: '1', NECaptchaValidate: cap });
  const outbox = await (await fetch(`${srv.base}/mvapi/public/dev/sms-outbox?mobile=${mobile}`)).json();
  const pwd = Buffer.from('bench123').toString('base64');
  const reg = await post(srv.base, '/mvapi/public/api/user/v1/regist', { mobile, pwd, smsCode: outbox.data[0].code });
  const token = reg.data.token;

  await load({ url: `${srv.base}/bench/bare`, duration: 2 }); // warm-up
  const bare = await load({ url: `${srv.base}/bench/bare`, duration });
  const profile = await load({ url: `${srv.base}/mvapi/public/api/user/profile/v1/userprofile`, headers: { token }, duration });
  const login = await load({ url: `${srv.base}/mvapi/public/api/user/v1/login`, body: JSON.stringify({ mobile, pwd, loginType: 1 }), duration, connections: 10 });
  const ratio = profile.requests.average / bare.requests.average;
  console.log(`bare route:            ${fmt(bare)}`);
  console.log(`userprofile (token):   ${fmt(profile)}`);
  console.log(`ratio userprofile/bare: ${ratio.toFixed(2)}x (target >= 0.6x on SQLite)`);
  console.log(`login (scrypt):        ${fmt(login)}`);
} finally {
  srv.stop();
}
