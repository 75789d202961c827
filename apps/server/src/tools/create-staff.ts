/**
 * Bootstraps operations-console accounts (docs/admin.md "Bootstrap"). There is no default staff
 * password anywhere: the first owner is made here, against the server's database (DATA_DIR or
 * DATABASE_URL, migrated first if needed):
 *
 *   npx tsx apps/server/src/tools/create-staff.ts --username boss --role owner [--role finance …]
 *   npx tsx apps/server/src/tools/create-staff.ts --username boss --reset
 *
 * It prints a one-time password, once: the first login enrols TOTP (mandatory) and then sets a
 * new password. `--reset` gives an existing account a new one-time password, clears its TOTP (the
 * next login enrols again), enables it and ends its sessions — the way back in when the last
 * owner lost the authenticator. Every run writes an audit row (actor `cli`). Exit code: 0 done,
 * 1 refused (name taken, unknown account, bad role), 2 usage or database error.
 */
import { parseArgs } from 'node:util';
import { STAFF_ROLES, type StaffRole } from '@cfx/contract/admin-rules.ts';
import { Status } from '@cfx/contract/envelope.ts';
import { formatMessage } from '@cfx/contract/messages.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { inTx } from '../db/tx.ts';
import { ApiError } from '../http/envelope.ts';
import { loadSecretBox } from '../util/secret-box.ts';
import { writeAudit } from '../modules/admin/index.ts';
import { hashedOneTimePassword, insertStaff, normaliseUsername } from '../modules/admin/index.ts';
import { resetPassword, resetTotp } from '../modules/admin/index.ts';

const USAGE = `usage: create-staff --username <name> --role <${STAFF_ROLES.join('|')}> [--role …]
       create-staff --username <name> --reset`;
const CLI = { staffId: null, ipMasked: 'cli' };

/** Creates a staff account as the CLI does (also used by tests and the browser tests' set-up). */
export async function createStaffAccount(db: Db, input: { username: string; roles: StaffRole[] }, now = Date.now()) {
  // Hashed before the transaction: it then holds the write lock only for its few statements (a
  // server on the same SQLite file waits for it meanwhile).
  const otp = await hashedOneTimePassword();
  return inTx({ db }, async (trx) => {
    const r = await insertStaff(trx, { username: input.username, roles: input.roles, createdBy: null, now }, otp);
    await writeAudit(trx, CLI, { action: 'staff.create', targetType: 'staff', targetId: r.staff.id, summary: { username: r.staff.username, after: { roles: r.staff.roles }, via: 'cli' } }, now);
    return r;
  });
}

/** The CLI's --reset: a new one-time password, TOTP cleared, enabled, sessions ended. */
export async function resetStaffAccount(db: Db, username: string, now = Date.now()) {
  const otp = await hashedOneTimePassword();
  return inTx({ db }, async (trx) => {
    const row = await trx.selectFrom('staff').select('id').where('username', '=', normaliseUsername(username)).executeTakeFirst();
    if (!row) throw new ApiError(Status.NOT_FOUND_ITEM, 'staffNotFound');
    const id = Number(row.id);
    await trx.updateTable('staff').set({ disabled_at: null, updated_at: now }).where('id', '=', id).execute();
    await resetTotp(trx, id, now);
    const r = await resetPassword(trx, id, now, otp);
    await writeAudit(trx, CLI, { action: 'staff.reset', targetType: 'staff', targetId: id, summary: { username: r.staff.username, via: 'cli' } }, now);
    return r;
  });
}

export async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: argv, options: { username: { type: 'string' }, role: { type: 'string', multiple: true }, reset: { type: 'boolean' } } }).values;
  } catch (err) {
    console.error(`${String((err as Error).message)}\n${USAGE}`);
    return 2;
  }
  const roles = (args.role ?? []) as string[];
  if (!args.username || (!args.reset && !roles.length) || (args.reset && roles.length)) {
    console.error(USAGE);
    return 2;
  }
  const bad = roles.filter((r) => !(STAFF_ROLES as readonly string[]).includes(r));
  if (bad.length) {
    console.error(`unknown role(s): ${bad.join(', ')}\n${USAGE}`);
    return 1;
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
    await migrate(db, { secrets: loadSecretBox(config.dataDir), now: Date.now() });
    const r = args.reset ? await resetStaffAccount(db, args.username) : await createStaffAccount(db, { username: args.username, roles: roles as StaffRole[] });
    console.log(`${args.reset ? 'reset' : 'created'} staff account "${r.staff.username}" (${r.staff.roles.join(', ')})`);
    console.log(`one-time password: ${r.oneTimePassword}`);
    console.log('It is shown only now. The first login enrols an authenticator app (TOTP) and then sets a new password.');
    return 0;
  } catch (err) {
    if (err instanceof ApiError) {
      console.error(formatMessage(err.key, 'en', err.vars));
      return 1;
    }
    console.error(`failed: ${String((err as Error).message ?? err)}`);
    return 2;
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exitCode = await main(process.argv.slice(2));
}
