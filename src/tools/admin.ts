/**
 * `npm run admin -- <command>`: the operator's way to the admin role (docs/operations.md), in any mode — the only
 * one in anonymous mode, where every account is a temporary identity and none can become admin by itself.
 *
 *   grant <accountId>    adds the role (a temporary identity becomes a permanent account: no expiry, no cleanup)
 *   revoke <accountId>   removes it
 *   list                 accounts holding it
 *   token <accountId> [--ttl SECONDS]   prints a server token for an admin account (for /colyseus, /metrics)
 *   create [--ttl SECONDS]   makes a new permanent admin account and prints its id and a token (development's one
 *                            step to an admin)
 *
 * Account ids are `accountId` in `POST /api/auth/anonymous`, `GET /api/auth/me` or `GET /api/v1/player`. The
 * account's next token carries the role: `POST /api/auth/refresh` with its current token, a new login, or `token`.
 * Uses the server's environment (DATABASE_URL or PGLITE_DATA_DIR; for `token` and `create` the signing secret:
 * JWT_SECRET, or development's kept secret); the embedded database only while the server is stopped.
 */
import { parseArgs } from 'node:util';
import { ADMIN_ROLE, AccountNotFoundError, createAdminAccount, grantAdmin, listAdmins, revokeAdmin } from '../db/account-roles.ts';
import { session } from '../db/transaction.ts';
import { requireLiveAccount } from '../auth/accounts.ts';
import { OperatorError, operatorConfig, operatorDatabase, operatorTokens, runOperatorCommand } from './operator-cli.ts';

const USAGE = 'usage: npm run admin -- grant <accountId> | revoke <accountId> | list | token <accountId> [--ttl SECONDS] | create [--ttl SECONDS]';

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { ttl: { type: 'string' } }, strict: true });
  const [command, accountId, ...extra] = positionals;
  const needsAccount = command === 'grant' || command === 'revoke' || command === 'token';
  if (!['grant', 'revoke', 'list', 'token', 'create'].includes(command ?? '') || (needsAccount ? accountId === undefined : accountId !== undefined) || extra.length > 0) {
    throw new OperatorError(USAGE);
  }
  const config = operatorConfig();
  const tokens = command === 'token' || command === 'create' ? operatorTokens(config) : undefined;
  const ttlSeconds = values.ttl === undefined ? config.jwtTtlSeconds : Number(values.ttl);
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 60 || ttlSeconds > 7 * 86_400) throw new OperatorError('--ttl must be an integer from 60 to 604800');
  const db = await operatorDatabase(config);
  try {
    const em = session(db);
    if (command === 'list') {
      const admins = await listAdmins(em);
      if (admins.length === 0) process.stdout.write('no account has the admin role\n');
      for (const admin of admins) process.stdout.write(`${admin.accountId}\t${admin.displayName}\t${admin.createdAt.toISOString()}\n`);
      return;
    }
    if (command === 'create') {
      const created = await createAdminAccount(em);
      const issued = tokens!.sign({ accountId: created.accountId, roles: created.roles, scope: 'player' }, { ttlSeconds });
      process.stdout.write(`admin account ${created.accountId} (${created.displayName}) created; its token, valid until `
        + `${issued.expiresAt.toISOString()} (\`npm run admin -- token ${created.accountId}\` prints another):\n${issued.token}\n`);
      return;
    }
    if (command === 'token') {
      const user = await requireLiveAccount(em, accountId).catch(() => { throw new AccountNotFoundError(accountId); });
      if (!user.roles.includes(ADMIN_ROLE) || user.isTemporary) throw new OperatorError(`account ${accountId} does not have the admin role: grant it first`);
      process.stdout.write(`${tokens!.sign({ accountId: user.id, roles: user.roles, scope: 'player' }, { ttlSeconds }).token}\n`);
      return;
    }
    const result = command === 'grant' ? await grantAdmin(em, accountId) : await revokeAdmin(em, accountId);
    const verb = command === 'grant' ? 'granted to' : 'revoked from';
    process.stdout.write(result.changed
      ? `admin ${verb} ${result.accountId} (${result.displayName}); roles now ${JSON.stringify(result.roles)}`
        + `${result.madePermanent ? '; the temporary identity is now a permanent account' : ''}.\n`
        + 'Its next token carries the change (POST /api/auth/refresh, a new login, or `npm run admin -- token`).\n'
      : `nothing to do: ${result.accountId} already ${command === 'grant' ? 'has' : 'lacks'} the admin role\n`);
  } catch (error) {
    if (error instanceof AccountNotFoundError) throw new OperatorError(error.message);
    throw error;
  } finally {
    await db.close();
  }
}

if (import.meta.filename === process.argv[1]) await runOperatorCommand(main);
