import { Readable } from 'node:stream';
import {
  AUDIT_CSV_COLUMNS,
  AUDIT_LIST_DEFAULT_LIMIT,
  CSV_BOM,
  auditCsvRow,
  csvRecord,
  csvText,
  safeFileNamePart,
  type AuditAction,
  type AuditCheckpointVerdict,
  type AuditEvent,
  type AuditEventExportQuery,
  type AuditEventListQuery,
  type AuditEventPage,
  type AuditTargetType,
  type AuditVerifyResult,
} from '@vrtc/contract';
import { sql, type Selectable } from 'kysely';
import type { Caller } from '../platform/http/caller.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import type { AuditEventsTable } from '../platform/database/schema.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError, invalidCursor, notFound } from '../platform/service/errors.ts';
import { afterKeyset, newestFirst, readKeysetPage } from '../platform/database/paging.ts';
import {
  GENESIS_HASH,
  PLATFORM_CHAIN,
  contentHash,
  eventHash,
  linkHash,
  type ChainedContent,
} from './audit.ts';
import { checkpointTrust } from './audit-key.ts';
import { linkAudit } from './audit-linker.ts';

type AuditRow = Selectable<AuditEventsTable>;

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const DAY_MS = 24 * 3600 * 1000;

/** The rows a caller may read under the filters: staff their organisation's, admins any. */
function matching(db: Db, caller: Caller, filter: AuditEventExportQuery) {
  let query = db.selectFrom('audit_events');
  if (caller.role !== 'admin') {
    // Another organisation's log is not there for staff, as any of its rows (decision: 404).
    if (filter.organization_id && filter.organization_id !== caller.organizationId) {
      throw notFound('Organization');
    }
    query = query.where('organization_id', '=', caller.organizationId);
  } else if (filter.organization_id) {
    query = query.where('organization_id', '=', filter.organization_id);
  }
  if (filter.actor_id) query = query.where('actor_id', '=', filter.actor_id);
  if (filter.target_id) query = query.where('target_id', '=', filter.target_id);
  if (filter.action) {
    // A prefix: `session` and `session.` both find session.*; LIKE's own signs are literal here.
    const prefix = filter.action.replace(/[\\%_]/g, (sign) => `\\${sign}`);
    query = query.where('action', 'like', `${prefix}%`);
  }
  const from = filter.from && new Date(filter.from);
  const to =
    filter.to &&
    (isDay(filter.to) ? new Date(Date.parse(filter.to) + DAY_MS) : new Date(filter.to));
  if (from && to && from > to) {
    throw new AppError('validation_error', '`from` is after `to`', {
      details: { field: 'querystring.from' },
    });
  }
  if (from) query = query.where('at', '>=', from);
  if (to) query = query.where('at', '<', to);
  return query;
}

export function toAuditEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    at: row.at.toISOString(),
    organization_id: row.organization_id,
    actor: {
      type: row.actor_type,
      id: row.actor_id,
      email: row.actor_email,
      role: row.actor_role,
    },
    action: row.action as AuditAction,
    outcome: row.outcome,
    target: {
      type: row.target_type as AuditTargetType,
      id: row.target_id,
      label: row.target_label,
      label_en: row.target_label_en,
    },
    changes: row.changes,
    ip: row.ip,
    user_agent: row.user_agent,
    request_id: row.request_id,
  };
}

/** GET /v1/audit-events: newest first, by cursor. */
export async function listAuditEvents(
  ctx: ServiceContext,
  caller: Caller,
  query: AuditEventListQuery,
): Promise<AuditEventPage> {
  const limit = query.limit ?? AUDIT_LIST_DEFAULT_LIMIT;
  const page = await readKeysetPage(
    matching(ctx.db, caller, query).selectAll(),
    { timeColumn: 'at', cursor: query.cursor, limit },
    (row) => row,
  );
  if (!page) throw invalidCursor();
  return { audit_events: page.rows.map(toAuditEvent), next_cursor: page.nextCursor, limit };
}

const EXPORT_BATCH = 1000;

/**
 * GET /v1/audit-events/export: every matching event, newest first, streamed in batches read by
 * the same keyset as the list (constant memory, whatever the log's size).
 */
export function exportAuditEvents(
  ctx: ServiceContext,
  caller: Caller,
  filter: AuditEventExportQuery,
): { fileName: string; stream: Readable } {
  const base = () => matching(ctx.db, caller, filter);
  base(); // refuses a bad filter (another organisation, from after to) before the file starts
  const scope =
    caller.role === 'admin' && !filter.organization_id
      ? 'all'
      : safeFileNamePart(
          filter.organization_id && filter.organization_id !== caller.organizationId
            ? filter.organization_id
            : caller.organizationName,
        );
  const fileName = `audit_${scope}_${ctx.clock.now().toISOString().slice(0, 10)}.csv`;
  async function* lines() {
    yield `${CSV_BOM}${csvText([AUDIT_CSV_COLUMNS])}`;
    let after: AuditRow | undefined;
    for (;;) {
      let query = base();
      if (after) query = query.where(afterKeyset('at', after));
      const rows = await query.selectAll().orderBy(newestFirst('at')).limit(EXPORT_BATCH).execute();
      if (rows.length === 0) return;
      yield `${rows.map((row) => csvRecord(auditCsvRow(toAuditEvent(row)))).join('\r\n')}\r\n`;
      if (rows.length < EXPORT_BATCH) return;
      after = rows.at(-1);
    }
  }
  return { fileName, stream: Readable.from(lines()) };
}

/** A row as its hash saw it. */
export function chainedContent(row: AuditRow): ChainedContent {
  return {
    id: row.id,
    chain: row.chain,
    seq: row.seq === null ? null : Number(row.seq),
    at: row.at.toISOString(),
    organization_id: row.organization_id,
    actor_type: row.actor_type,
    actor_id: row.actor_id,
    actor_email: row.actor_email,
    actor_role: row.actor_role,
    action: row.action,
    outcome: row.outcome,
    target_type: row.target_type,
    target_id: row.target_id,
    target_label: row.target_label,
    ...(row.target_label_en === null ? {} : { target_label_en: row.target_label_en }),
    changes: row.changes,
    ip: row.ip,
    user_agent: row.user_agent,
    request_id: row.request_id,
  };
}

const VERIFY_BATCH = 2000;

/** The link at one seq of a chain: an event linked as written, or by the linker. */
type Link =
  | { kind: 'written'; row: AuditRow }
  | { kind: 'linked'; eventId: string; prevHash: string; hash: string; row: AuditRow | undefined };

/**
 * The links of `chain` with seq in (from, to], by seq: the events linked as they were written,
 * and the linker's links with their events (undefined: the event is gone).
 */
async function linksBetween(trx: Tx, chain: string, from: number, to: number) {
  const bySeq = new Map<number, Link>();
  const written = await trx
    .selectFrom('audit_events')
    .selectAll()
    .where('chain', '=', chain)
    .where('seq', '>', String(from) as never)
    .where('seq', '<=', String(to) as never)
    .execute();
  for (const row of written) bySeq.set(Number(row.seq), { kind: 'written', row });
  const linked = await trx
    .selectFrom('audit_links as l')
    .leftJoin('audit_events as e', 'e.id', 'l.event_id')
    .selectAll('e')
    .select([
      'l.event_id as link_event_id',
      'l.seq as link_seq',
      'l.prev_hash as link_prev_hash',
      'l.hash as link_hash',
    ])
    .where('l.chain', '=', chain)
    .where('l.seq', '>', String(from) as never)
    .where('l.seq', '<=', String(to) as never)
    .execute();
  for (const { link_event_id, link_seq, link_prev_hash, link_hash, ...row } of linked) {
    bySeq.set(Number(link_seq), {
      kind: 'linked',
      eventId: link_event_id,
      prevHash: link_prev_hash,
      hash: link_hash,
      row: row.id === null ? undefined : (row as AuditRow),
    });
  }
  return bySeq;
}

/**
 * GET /v1/admin/audit/verify: links what waits for the linker, then checks each chain
 * (verifyChain). Read in one snapshot, so events written meanwhile are not half seen.
 */
export async function verifyAudit(ctx: ServiceContext): Promise<AuditVerifyResult> {
  await linkAudit(ctx.db);
  return ctx.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const heads = await trx
        .selectFrom('audit_chain_heads as h')
        .leftJoin('audit_checkpoints as c', 'c.chain', 'h.chain')
        .select([
          'h.chain',
          'h.seq',
          'h.hash',
          'c.seq as checkpoint_seq',
          'c.hash as checkpoint_hash',
          'c.purged_at as checkpoint_purged_at',
          'c.signature as checkpoint_signature',
        ])
        .orderBy('h.chain')
        .execute();
      const result: AuditVerifyResult = {
        ok: true,
        chains_checked: heads.length,
        events_checked: 0,
        first_bad_event_id: null,
        organization_id: null,
        checkpoints: [],
      };
      for (const head of heads) {
        const organizationId = head.chain === PLATFORM_CHAIN ? null : head.chain;
        const checkpoint = checkpointVerdict(ctx, head);
        if (checkpoint) result.checkpoints.push(checkpoint);
        // A checkpoint not signed with this server's key is not where the chain starts: what it
        // would hide is not known, so the chain does not hold.
        if (checkpoint && !checkpoint.trusted) {
          return { ...result, ok: false, organization_id: organizationId };
        }
        const verdict = await verifyChain(trx, head);
        result.events_checked += verdict.checked;
        if (verdict.firstBad !== undefined) {
          return {
            ...result,
            ok: false,
            first_bad_event_id: verdict.firstBad,
            organization_id: organizationId,
          };
        }
      }
      return result;
    });
}

/** A chain's head, and its checkpoint when part of it was purged. */
interface ChainHead {
  chain: string;
  seq: string;
  hash: string;
  checkpoint_seq: string | null;
  checkpoint_hash: string | null;
  checkpoint_purged_at: Date | null;
  checkpoint_signature: string | null;
}

/** Whether the chain's checkpoint is signed under this server's AUDIT_KEY (audit-key.ts). */
function checkpointVerdict(
  ctx: ServiceContext,
  head: ChainHead,
): AuditCheckpointVerdict | undefined {
  if (head.checkpoint_seq === null || head.checkpoint_hash === null) return undefined;
  const purgedAt = head.checkpoint_purged_at ?? new Date(0);
  const trust = checkpointTrust(
    ctx.config,
    { chain: head.chain, seq: Number(head.checkpoint_seq), hash: head.checkpoint_hash, purgedAt },
    head.checkpoint_signature,
  );
  return {
    organization_id: head.chain === PLATFORM_CHAIN ? null : head.chain,
    seq: Number(head.checkpoint_seq),
    purged_at: purgedAt.toISOString(),
    trust,
    trusted: trust === 'key_matched',
  };
}

/**
 * How one chain holds: the events it checked, and the first bad one when it does not hold (null
 * when there is nothing left to name).
 */
interface ChainVerdict {
  checked: number;
  firstBad?: string | null;
}

/**
 * Walks the chain from its checkpoint (or its start), in seq order, recomputing every hash
 * (walkLinks). Then the events still waiting for the linker (another process is linking) must
 * match their content_hash, and the chain must hold no event outside the walk and the queue.
 */
async function verifyChain(trx: Tx, head: ChainHead): Promise<ChainVerdict> {
  const start = Number(head.checkpoint_seq ?? 0);
  const last = Number(head.seq);
  const walk = await walkLinks(trx, head.chain, start, last, head.checkpoint_hash ?? GENESIS_HASH);
  if (walk.firstBad !== undefined) return { checked: walk.checked, firstBad: walk.firstBad };
  // The chain's last events gone: nothing left to name, but it does not hold.
  if (walk.seq !== last || walk.prevHash !== head.hash) {
    return { checked: walk.checked, firstBad: null };
  }
  const waiting = await trx
    .selectFrom('audit_unlinked as u')
    .leftJoin('audit_events as e', 'e.id', 'u.event_id')
    .selectAll('e')
    .select('u.event_id as queued_event_id')
    .where('u.chain', '=', head.chain)
    .orderBy('u.queued')
    .execute();
  let checked = walk.checked;
  for (const { queued_event_id, ...row } of waiting) {
    checked += 1;
    if (row.id === null || contentHash(chainedContent(row as AuditRow)) !== row.content_hash) {
      return { checked, firstBad: queued_event_id };
    }
  }
  const stray = await strayEvent(trx, head.chain, { start, last }, walk.checked + waiting.length);
  return stray === undefined ? { checked } : { checked, firstBad: stray };
}

/**
 * The links of the chain in (start, last], in seq order. An event is bad when its stored content
 * no longer gives its hash (or its content_hash), when it does not link to the one before, or
 * when its seq skips (an event was removed: the one after it is named). Answers where the walk
 * ended: the last seq and hash it reached.
 */
async function walkLinks(trx: Tx, chain: string, start: number, last: number, startHash: string) {
  let seq = start;
  let prevHash = startHash;
  let checked = 0;
  for (let from = start; from < last; from += VERIFY_BATCH) {
    const links = await linksBetween(trx, chain, from, from + VERIFY_BATCH);
    const to = Math.min(from + VERIFY_BATCH, last);
    for (let at = from + 1; at <= to; at += 1) {
      const link = links.get(at);
      if (!link) continue; // removed: the next one's link to the one before fails
      checked += 1;
      const hash = at === seq + 1 ? linkedHash(link, at, prevHash) : undefined;
      if (hash === undefined) {
        const firstBad = link.kind === 'written' ? link.row.id : link.eventId;
        return { checked, seq, prevHash, firstBad };
      }
      prevHash = hash;
      seq = at;
    }
  }
  return { checked, seq, prevHash, firstBad: undefined };
}

/** The hash the link at `at` ends with, when it links to `prevHash` and its content holds. */
function linkedHash(link: Link, at: number, prevHash: string): string | undefined {
  if (link.kind === 'written') {
    const { row } = link;
    const hash = eventHash(chainedContent(row), prevHash);
    return row.prev_hash === prevHash && row.hash === hash ? hash : undefined;
  }
  const { row } = link;
  const holds =
    row !== undefined &&
    link.prevHash === prevHash &&
    contentHash(chainedContent(row)) === row.content_hash &&
    linkHash(prevHash, at, row.content_hash) === link.hash;
  return holds ? link.hash : undefined;
}

/**
 * An event of the chain neither in the walk nor waiting (its place in the queue removed, or added
 * behind the trigger's back with a seq of its own) is not the chain's: the first such is named
 * (null when the count is off but none can be found). Undefined when the chain holds `expected`
 * events exactly.
 */
async function strayEvent(
  trx: Tx,
  chain: string,
  walked: { start: number; last: number },
  expected: number,
): Promise<string | null | undefined> {
  const { count } = await trx
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('chain', '=', chain)
    .executeTakeFirstOrThrow();
  if (Number(count) === expected) return undefined;
  const stray = await sql<{ id: string }>`
    SELECT e.id FROM audit_events e LEFT JOIN audit_links l ON l.event_id = e.id
    WHERE e.chain = ${chain}
      AND NOT EXISTS (SELECT 1 FROM audit_unlinked u WHERE u.event_id = e.id)
      AND (COALESCE(e.seq, l.seq) IS NULL OR COALESCE(e.seq, l.seq) <= ${walked.start}
        OR COALESCE(e.seq, l.seq) > ${walked.last})
    ORDER BY e.at, e.id LIMIT 1`.execute(trx);
  return stray.rows[0]?.id ?? null;
}
