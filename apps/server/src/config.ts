/**
 * The server's configuration lives in config/ (the environment schema in config/env.ts, the typed
 * Config built in config/index.ts); this file keeps the long-standing import path working.
 */
export * from './config/index.ts';
