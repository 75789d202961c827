// The baseline of bench/drop.ts: a bare Fastify process answering POST createOrder's path with a
// fixed envelope (JSON body parsed, no database, no auth). Started twice, like the two marketplace
// processes, and driven by the same load generator (drop-load.mjs) in the same run.
import Fastify from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 256 * 1024 });
const answer = { status: '1022', code: '1022', data: null, message: '已售罄', msg: '已售罄' };
app.post('/mvapi/public/payment/nftOrder/V1/createOrder', async () => answer);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const addr = app.server.address();
process.send?.({ port: typeof addr === 'object' && addr ? addr.port : 0 });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
