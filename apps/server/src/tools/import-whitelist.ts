/**
 * Imports a release's whitelist from a CSV file, until the admin console exists (docs/drops.md
 * "Whitelist"). Runs against the same database as the server (DATA_DIR or DATABASE_URL):
 *
 *   npx tsx apps/server/src/tools/import-whitelist.ts --project 42 --file whitelist.csv [--replace] [--lang zh]
 *
 * The file has one `mobile,quota` or `accountId,quota` per line (an optional header line
 * `mobile,quota` / `accountId,quota` fixes the key; blank lines and # comments are skipped).
 * Every bad line is reported with its number and NOTHING is imported then; a clean file is written
 * in one transaction. Importing again updates the quotas; --replace also deletes entries that are
 * not in the file. Phone numbers are never printed. Exit code: 0 imported, 1 bad lines, 2 usage or
 * database error.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { formatMessage, type Lang } from '@cfx/contract/messages.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { ApiError } from '../http/envelope.ts';
import { importWhitelist } from '../modules/drops/index.ts';

const USAGE = 'usage: import-whitelist --project <releaseId> --file <file.csv> [--replace] [--lang en|zh]';

export async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: argv, options: { project: { type: 'string' }, file: { type: 'string' }, replace: { type: 'boolean' }, lang: { type: 'string' } } }).values;
  } catch (err) {
    console.error(`${String((err as Error).message)}\n${USAGE}`);
    return 2;
  }
  const projectId = Number(args.project);
  if (!Number.isSafeInteger(projectId) || projectId < 1 || !args.file) {
    console.error(USAGE);
    return 2;
  }
  const lang: Lang = args.lang === 'zh' ? 'zh' : 'en';
  let text: string;
  try {
    text = fs.readFileSync(args.file, 'utf8');
  } catch (err) {
    console.error(`cannot read ${args.file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`[config] ${err.message}`);
      return 2;
    }
    throw err;
  }
  const db = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const report = await importWhitelist({ db }, projectId, text, { now: Date.now(), replace: !!args.replace });
    for (const e of report.errors) console.error(formatMessage(e.key, lang, e.vars));
    if (!report.ok) {
      console.error(`${report.errors.length} bad line(s): nothing was imported`);
      return 1;
    }
    console.log(formatMessage('whitelistImported', lang, { added: report.added, updated: report.updated }) + (lang === 'en' ? `, ${report.unchanged} unchanged, ${report.removed} removed` : `，未变${report.unchanged}条，删除${report.removed}条`));
    return 0;
  } catch (err) {
    if (err instanceof ApiError) console.error(formatMessage(err.key, lang, err.vars));
    else console.error(`import failed (is the database migrated? start the server once): ${String((err as Error).message ?? err)}`);
    return 2;
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exitCode = await main(process.argv.slice(2));
}
