import crypto from 'node:crypto';
import {
  AUDIT_REDACTED,
  type AuditAction,
  type AuditActor,
  type AuditChanges,
  type AuditOutcome,
  type AuditTargetType,
  type Role,
} from '@vrtc/contract';
import { CompiledQuery } from 'kysely';
import { PREPARED_STATEMENT, type Db, type Tx } from '../platform/database/db.ts';
import type { RequestFacts } from '../platform/http/request-facts.ts';
import { canonicalJson } from '../platform/service/serialize.ts';

/**
 * The audit log's writer, a sink (docs/ARCHITECTURE.md): any domain tells it what happened, in
 * the transaction of the change (`recordAudit(trx, …)`), so a rolled-back change leaves no event
 * and no event tells of a change that did not happen. It calls no domain.
 */

/**
 * A signed-in account as the audit log needs it: auth's Caller has this shape (the sink imports
 * no domain, so auth can tell it of sign-ins without a circle).
 */
export interface AccountActor {
  accountId: string;
  email: string;
  role: Role;
  organizationId: string;
  request?: RequestFacts;
}

/** Who acted, and from where: an account (a Caller), a headset, or the server itself. */
export interface AuditSource {
  actor: AuditActor;
  /** The actor's organisation: the chain an event goes to unless it names another. */
  organizationId: string | null;
  request?: RequestFacts;
}

/** The server deciding by itself (the sweeper, the retention purge). */
export const SYSTEM: AuditSource = {
  actor: { type: 'system', id: null, email: null, role: null },
  organizationId: null,
};

/** An enrolled headset reporting (its request's facts from requestFacts). */
export function headsetSource(
  device: { id: string; organizationId: string },
  request?: RequestFacts,
): AuditSource {
  return {
    actor: { type: 'headset', id: device.id, email: null, role: null },
    organizationId: device.organizationId,
    request,
  };
}

/** A signed-in account: its email and role now are copied into the event, and kept. */
export function callerSource(caller: AccountActor): AuditSource {
  return {
    actor: { type: 'account', id: caller.accountId, email: caller.email, role: caller.role },
    organizationId: caller.organizationId,
    request: caller.request,
  };
}

export interface AuditRecord {
  by: AccountActor | AuditSource;
  /** When it happened: the service's clock (decision 017), so tests can move it. */
  at: Date;
  action: AuditAction;
  /** Default success. */
  outcome?: AuditOutcome;
  /**
   * The organisation the event concerns, whose chain (and whose staff) it goes to; default the
   * actor's. null: the platform's chain (content, builds: what no one organisation owns).
   */
  organizationId?: string | null;
  /**
   * What the event is about. `label` names it in the primary language (Russian) as it was;
   * `labelEn` its English name beside it, when it has one (content, qualifications, sessions of
   * content named in English): the English console shows that one, and the chain covers both.
   */
  target: {
    type: AuditTargetType;
    id?: string | null;
    label?: string | null;
    labelEn?: string | null;
  };
  /** Field → [before, after]; secrets are redacted here, whatever the caller passes. */
  changes?: AuditChanges;
}

/** Fields whose values never reach the log (docs/logging.md, "Never logged"). */
const SECRET_FIELD = /password|token|secret|hash|^code$|enrollment_code/i;

/** The hash a chain starts from (no event before it). */
export const GENESIS_HASH = '0'.repeat(64);
export const PLATFORM_CHAIN = 'platform';
export const chainOf = (organizationId: string | null) => organizationId ?? PLATFORM_CHAIN;

const toSource = (by: AccountActor | AuditSource): AuditSource =>
  'accountId' in by ? callerSource(by) : by;

/**
 * Writes one event in `trx`, the transaction of the change it records, as the next link of its
 * organisation's chain, in one statement (vrtc_audit_append, migrations 0013 and 0015): the
 * database takes the chain's next seq and the hash before it, and hashes the content sent here
 * with that seq (the same hash as eventHash); the chain's head row stays locked until `trx` ends.
 * When another open transaction holds that head, the event does not wait for it: it is written
 * with the hash of its own content (contentHash) and linked within a second by the linker
 * (audit-linker.ts, decision 027).
 */
export async function recordAudit(trx: Tx, record: AuditRecord): Promise<void> {
  const { event } = eventOf(record, redact(record.changes ?? {}));
  const [beforeSeq, afterSeq] = canonicalJsonAround(event, ['seq']);
  await trx.executeQuery(
    CompiledQuery.raw(APPEND_SQL, [
      ...eventParameters(event),
      JSON.stringify(event.changes),
      event.ip,
      event.user_agent,
      event.request_id,
      beforeSeq,
      afterSeq,
      event.target_label_en ?? null,
    ]),
  );
}

/** The event's first thirteen parameters, in the order of both append functions. */
const eventParameters = (event: ChainedContent) => [
  event.id,
  event.chain,
  event.at,
  event.organization_id,
  event.actor_type,
  event.actor_id,
  event.actor_email,
  event.actor_role,
  event.action,
  event.outcome,
  event.target_type,
  event.target_id,
  event.target_label,
];

/** Prepared once per connection (PREPARED_STATEMENT): planning it cost more than running it. */
const APPEND_SQL = `SELECT vrtc_audit_append(${placeholders(1, 13)}, $14::jsonb, $15, $16, $17, $18, $19, $20) ${PREPARED_STATEMENT}`;

function placeholders(from: number, count: number): string {
  return Array.from({ length: count }, (_, index) => `$${from + index}`).join(', ');
}

/** An update of one row and its audit event, for updateAudited. */
export interface AuditedUpdate {
  table:
    'vr_users' | 'organizations' | 'accounts' | 'devices' | 'qualifications' | 'lms_package_keys';
  /** The row: its id, and the organisation it must belong to when the caller is scoped to one. */
  id: string;
  organizationId?: string;
  /**
   * The new values (undefined: left as it is). Text, numbers, booleans or null: values whose
   * JSON PostgreSQL writes as JavaScript does (the statement builds the change from them); or a
   * time (a timestamptz column), which the change shows as toISOString writes it.
   */
  set: Record<string, string | number | boolean | Date | null | undefined>;
  /** The event, without its changes: the database finds them. */
  record: Omit<AuditRecord, 'changes'>;
  /** Columns of the row as updated to answer with, so the caller need not read it again. */
  returning?: readonly string[];
}

/**
 * Updates one row and records its event with what changed (field → [before, after]) in one
 * statement, prepared once per connection (updateAuditedSql): the row is locked and read as it
 * was by the statement itself, which finds what changed and writes the event (vrtc_audit_append),
 * so the change needs no transaction and no read before it, and the event commits with it or not
 * at all. Inside a transaction it takes part in it. Answers the row as
 * updated (its `returning` columns), or undefined: no such row (nothing written).
 */
export async function updateAudited<Row extends object = object>(
  db: Db | Tx,
  update: AuditedUpdate,
): Promise<Row | undefined> {
  const fields = Object.keys(update.set)
    .filter((field) => update.set[field] !== undefined)
    .sort();
  const secret = fields.find((field) => SECRET_FIELD.test(field));
  if (secret) throw new Error(`updateAudited cannot redact ${secret}: use recordAudit`);
  const returning = update.returning ?? [];
  const unnamed = [...fields, ...returning].find((field) => !/^[a-z_]+$/.test(field));
  if (unnamed) throw new Error(`updateAudited: ${unnamed} is not a column name`);
  const { event } = eventOf(update.record, {});
  const [beforeChanges, beforeSeq, afterSeq] = canonicalJsonAround(event, ['changes', 'seq']);
  const scoped = update.organizationId !== undefined;
  const parameters: unknown[] = [update.id];
  if (scoped) parameters.push(update.organizationId);
  parameters.push(...fields.map((field) => update.set[field]), ...eventParameters(event));
  parameters.push(event.ip, event.user_agent, event.request_id, beforeChanges, beforeSeq, afterSeq);
  parameters.push(event.target_label_en ?? null);
  const { rows } = await db.executeQuery<Row>(
    CompiledQuery.raw(
      updateAuditedSql(update.table, fields, timesOf(update.set), returning, scoped),
      parameters,
    ),
  );
  return rows[0];
}

const updateAuditedTexts = new Map<string, string>();

/** The fields of `set` that are times. */
const timesOf = (set: AuditedUpdate['set']) =>
  new Set(Object.keys(set).filter((field) => set[field] instanceof Date));

/**
 * The statement of updateAudited for one table, set of fields, columns answered and scope, made
 * once: its parameters are the row's id, its organisation (when scoped), the fields' new values,
 * then the event's (vrtc_audit_append's order, its changes found here).
 */
function updateAuditedSql(
  table: string,
  fields: string[],
  times: ReadonlySet<string>,
  returning: readonly string[],
  scoped: boolean,
): string {
  const key = `${table}|${fields.join(',')}|${[...times].join(',')}|${returning.join(',')}|${scoped}`;
  let text = updateAuditedTexts.get(key);
  if (text) return text;
  let next = scoped ? 3 : 2;
  const sets = fields.map((field) => `${field} = $${next++}`).join(', ');
  const event = placeholders(next, 13);
  next += 13;
  // What changed, as changedFields finds it: the fields whose value differs, each [before,
  // after], as jsonb and as its canonical JSON (fields in sorted order, values as jsonb writes
  // them), for the event and its hash.
  // A time as toISOString writes it (recordAudit's changes): milliseconds, UTC, a Z.
  const value = (field: string, side: 'before' | 'after') =>
    times.has(field)
      ? `to_char(${side}_${field} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : `${side}_${field}`;
  const asJsonText = (column: string) => `COALESCE(to_jsonb(${column})::text, 'null')`;
  const differs = (field: string) => `before_${field} IS DISTINCT FROM after_${field}`;
  const changes = fields
    .map(
      (field) =>
        `CASE WHEN ${differs(field)} THEN jsonb_build_object('${field}', ` +
        `jsonb_build_array(${value(field, 'before')}, ${value(field, 'after')})) ELSE '{}'::jsonb END`,
    )
    .join(' || ');
  const canonical = fields
    .map(
      (field) =>
        `CASE WHEN ${differs(field)} THEN '${JSON.stringify(field)}:[' || ` +
        `${asJsonText(value(field, 'before'))} || ',' || ${asJsonText(value(field, 'after'))} || ']' END`,
    )
    .join(', ');
  const columns = (prefix: string, row: string, names: readonly string[]) =>
    names.map((name) => `, ${row}.${name} AS ${prefix}_${name}`).join('');
  text = `WITH before AS (
      SELECT id, ${fields.join(', ')} FROM ${table}
      WHERE id = $1 ${scoped ? 'AND organization_id = $2' : ''} FOR UPDATE
    ), changed AS (
      UPDATE ${table} AS now SET ${sets}
      FROM before WHERE now.id = before.id
      RETURNING now.id ${columns('before', 'before', fields)} ${columns('after', 'now', fields)}
        ${columns('answer', 'now', returning)}
    )
    SELECT vrtc_audit_append(${event}, ${changes}, $${next}, $${next + 1}, $${next + 2},
      $${next + 3} || '{' || concat_ws(',', ${canonical}) || '}' || $${next + 4}, $${next + 5},
      $${next + 6})
      AS appended ${returning.map((column) => `, answer_${column} AS ${column}`).join('')}
    FROM changed ${PREPARED_STATEMENT}`;
  updateAuditedTexts.set(key, text);
  return text;
}

/** The event's content, with its seq to come (the database gives it). */
function eventOf(record: Omit<AuditRecord, 'changes'>, changes: AuditChanges) {
  const source = toSource(record.by);
  const organizationId =
    record.organizationId === undefined ? source.organizationId : record.organizationId;
  const event: ChainedContent = {
    id: crypto.randomUUID(),
    chain: chainOf(organizationId),
    seq: SEQ_TO_COME,
    at: record.at.toISOString(),
    organization_id: organizationId,
    actor_type: source.actor.type,
    actor_id: source.actor.id,
    actor_email: source.actor.email,
    actor_role: source.actor.role,
    action: record.action,
    outcome: record.outcome ?? 'success',
    target_type: record.target.type,
    target_id: record.target.id ?? null,
    // A label can hold what a client sent (a path, an email tried): an event stays small.
    target_label: record.target.label?.slice(0, TARGET_LABEL_MAX_LENGTH) ?? null,
    // Only when there is one: an event without it hashes as every event before it did.
    target_label_en: record.target.labelEn?.trim()
      ? record.target.labelEn.slice(0, TARGET_LABEL_MAX_LENGTH)
      : undefined,
    changes,
    ip: source.request?.ip ?? null,
    user_agent: source.request?.userAgent ?? null,
    request_id: source.request?.requestId ?? null,
  };
  return { event };
}

/** The longest target label an event keeps. */
export const TARGET_LABEL_MAX_LENGTH = 512;

/** Stands for the seq the database will give the event. */
const SEQ_TO_COME = -1;

/**
 * The event's canonical JSON (canonicalJson) in pieces, cut where the values of `holes` go (keys
 * in sorted order): each piece but the last ends with a hole's `"key":`, and the database puts
 * the value it decides (the seq, the changes) there before hashing.
 */
function canonicalJsonAround(content: ChainedContent, holes: readonly string[]): string[] {
  const pieces: string[] = [];
  let piece = '{';
  const fields = content as unknown as Record<string, unknown>;
  Object.keys(fields)
    .filter((key) => fields[key] !== undefined)
    .sort()
    .forEach((key, index) => {
      piece += `${index === 0 ? '' : ','}${JSON.stringify(key)}:`;
      if (holes.includes(key)) {
        pieces.push(piece);
        piece = '';
      } else piece += canonicalJson(fields[key]);
    });
  pieces.push(`${piece}}`);
  return pieces;
}

/**
 * recordAudit in a transaction of its own: for what has no change to ride with (a refused
 * sign-in, a refused request), or whose change already committed.
 */
export function recordAuditAlone(db: Db, record: AuditRecord): Promise<void> {
  return db.transaction().execute((trx) => recordAudit(trx, record));
}

/** What an event's hash covers: every column but the hashes themselves. */
export interface ChainedContent {
  id: string;
  chain: string;
  /** null: written while its chain's head was held, and hashed as such (contentHash). */
  seq: number | null;
  at: string;
  organization_id: string | null;
  actor_type: string;
  actor_id: string | null;
  actor_email: string | null;
  actor_role: string | null;
  action: string;
  outcome: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  /**
   * The target's English name (migration 0032); absent, not null, when it has none, so an event
   * written before the column existed hashes as it did then.
   */
  target_label_en?: string;
  changes: AuditChanges;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
}

/** sha256 over the hash before it and the event's content as canonical JSON. */
export function eventHash(content: ChainedContent, prevHash: string): string {
  return crypto
    .createHash('sha256')
    .update(prevHash)
    .update('\n')
    .update(canonicalJson(content))
    .digest('hex');
}

/**
 * The hash of an event written while its chain's head was held (content_hash, migration 0015):
 * sha256 of its canonical JSON, seq null.
 */
export function contentHash(content: ChainedContent): string {
  return crypto
    .createHash('sha256')
    .update(canonicalJson({ ...content, seq: null }))
    .digest('hex');
}

/** The linker's link of such an event (vrtc_audit_link): over the hash before it and its seq. */
export function linkHash(prevHash: string, seq: number, eventContentHash: string): string {
  return crypto
    .createHash('sha256')
    .update(`${prevHash}\n${seq}\n${eventContentHash}`)
    .digest('hex');
}

/** Secrets replaced, and values as JSON stores them (a Date as its ISO text). */
function redact(changes: AuditChanges): AuditChanges {
  const out: AuditChanges = {};
  for (const [field, [before, after]] of Object.entries(changes)) {
    out[field] = SECRET_FIELD.test(field)
      ? [before == null ? null : AUDIT_REDACTED, after == null ? null : AUDIT_REDACTED]
      : [asJson(before), asJson(after)];
  }
  return out;
}

const asJson = (value: unknown): unknown =>
  value === undefined ? null : (JSON.parse(JSON.stringify(value ?? null)) as unknown);

type Fields = Record<string, unknown>;

/** The changes of a created thing: each field [null, value]. */
export function createdChanges(after: Fields): AuditChanges {
  return Object.fromEntries(Object.entries(after).map(([field, value]) => [field, [null, value]]));
}

/** The changes of a deleted thing: each field [value, null]. */
export function deletedChanges(before: Fields): AuditChanges {
  return Object.fromEntries(Object.entries(before).map(([field, value]) => [field, [value, null]]));
}

/** The fields of `after` whose value differs from `before`'s, each [before, after]. */
export function changedFields(before: Fields, after: Fields): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    if (canonicalJson(asJson(before[field])) !== canonicalJson(asJson(value))) {
      changes[field] = [before[field] ?? null, value];
    }
  }
  return changes;
}
