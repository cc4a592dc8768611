import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { decryptSecret, encryptSecret, SecretDecryptionError } from '../../crypto/secrets';
import { toDbDateTime } from '../../time';
import type { BookkeepingConnectInput } from '../adapter';
import { BookkeepingRefusal } from '../types';
import { MoneybirdClient, MoneybirdError } from './client';
import { moneybirdRepository } from './repository';
import { monotonicMs } from '../../time/elapsed';

export interface MoneybirdConnection {
  accountId: string;
  administrationId: string;
  sendInvoices: boolean;
  client: MoneybirdClient;
}

/** A connection could not be made or used; the message says what to do (a retry alone does not help). */
export class MoneybirdConnectionError extends BookkeepingRefusal {}

export function clientFor(ctx: AppContext, administrationId: string, token: string): MoneybirdClient {
  return new MoneybirdClient(ctx.config.MONEYBIRD_API_URL, token, administrationId, ctx.config.MONEYBIRD_TIMEOUT_MS);
}

/** The account's Moneybird connection, or null when it has none. */
export async function moneybirdConnectionOf(ctx: AppContext, db: Knex, accountId: string): Promise<MoneybirdConnection | null> {
  const row = await moneybirdRepository.connectionOf(db, accountId);
  if (!row) return null;
  let token: string;
  try {
    token = decryptSecret(ctx.config.appKey, row.token_encrypted);
  } catch (error) {
    if (!(error instanceof SecretDecryptionError)) throw error;
    throw new MoneybirdConnectionError(
      "The account's Moneybird token cannot be read: APP_KEY differs from the one it was stored with. Connect again with " +
        '`cli accounts set-bookkeeping moneybird`.',
    );
  }
  return {
    accountId,
    administrationId: row.administration_id,
    sendInvoices: Boolean(row.send_invoices),
    client: clientFor(ctx, row.administration_id, token),
  };
}

/**
 * Checks the token and the administration at Moneybird, then stores them (the token sealed with
 * APP_KEY) through `saveConnection`, which names Moneybird the account's bookkeeping system in the
 * same transaction: an account never names Moneybird without a connection to use, nor the reverse.
 */
export async function connectMoneybird(
  ctx: AppContext,
  accountId: string,
  input: { administrationId: string; token: string; sendInvoices: boolean },
  saveConnection: BookkeepingConnectInput['saveConnection'],
): Promise<{ administrationName: string }> {
  const client = clientFor(ctx, input.administrationId, input.token);
  let administrations: Array<{ id: string; name: string }>;
  try {
    administrations = await client.administrations();
  } catch (error) {
    if (error instanceof MoneybirdError) {
      throw new MoneybirdConnectionError(
        error.status === 401
          ? 'Moneybird refused the token: check that it is a valid API token (Moneybird: Settings > Developers)'
          : `Moneybird could not be asked about the token: ${error.message}`,
      );
    }
    throw error;
  }
  const administration = administrations.find((candidate) => String(candidate.id) === input.administrationId);
  if (!administration) {
    throw new MoneybirdConnectionError(
      `The token has no access to Moneybird administration ${input.administrationId} (it may use: ${
        administrations.map((candidate) => String(candidate.id)).join(', ') || 'none'
      })`,
    );
  }
  const now = toDbDateTime(ctx.clock.now());
  const connection = {
    administration_id: input.administrationId,
    token_encrypted: encryptSecret(ctx.config.appKey, input.token),
    send_invoices: input.sendInvoices,
  };
  await saveConnection((trx) => moneybirdRepository.saveConnection(trx, accountId, connection, now));
  forgetCachedStyles(accountId);
  return { administrationName: administration.name };
}

/** Removes the account's Moneybird connection (`set-bookkeeping --none` or another system). */
export async function disconnectMoneybird(db: Knex, accountId: string): Promise<void> {
  await moneybirdRepository.deleteConnection(db, accountId);
  forgetCachedStyles(accountId);
}

/** Workflows and document styles of an administration, kept a minute: subscriptions are checked against them. */
const STYLE_CACHE_MS = 60_000;
const styleCache = new Map<string, { at: number; workflows: Set<string>; docstyles: Set<string> }>();

function forgetCachedStyles(accountId: string): void {
  for (const key of styleCache.keys()) if (key.startsWith(`${accountId}:`)) styleCache.delete(key);
}

/** Which of the two ids the administration does not know: the fields to refuse. */
export async function unknownStyleFields(
  ctx: AppContext,
  accountId: string,
  ids: { workflow_id: string; docstyle_id: string },
): Promise<Array<'workflow_id' | 'docstyle_id'>> {
  const connection = await moneybirdConnectionOf(ctx, ctx.db, accountId);
  if (!connection) return [];
  const key = `${accountId}:${connection.administrationId}`;
  let cached = styleCache.get(key);
  if (!cached || monotonicMs() - cached.at > STYLE_CACHE_MS) {
    const [workflows, docstyles] = await Promise.all([connection.client.workflows(), connection.client.documentStyles()]);
    cached = {
      at: monotonicMs(),
      workflows: new Set(workflows.filter((workflow) => workflow.type !== 'EstimateWorkflow').map((workflow) => String(workflow.id))),
      docstyles: new Set(docstyles.map((style) => String(style.id))),
    };
    styleCache.set(key, cached);
  }
  const unknown: Array<'workflow_id' | 'docstyle_id'> = [];
  if (!cached.workflows.has(ids.workflow_id)) unknown.push('workflow_id');
  if (!cached.docstyles.has(ids.docstyle_id)) unknown.push('docstyle_id');
  return unknown;
}
