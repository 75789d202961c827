import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';

/** Process entry: configuration from the environment, migrations, then listen; stops cleanly on signals. */
const config = loadConfig();
const { app, close } = await buildApp(config);
await app.listen({ port: config.port, host: config.host });

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${sig}: shutting down`);
    close().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
  });
}
