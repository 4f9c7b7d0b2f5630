import crypto from 'node:crypto';
import type { AuditCheckpointTrust } from '@vrtc/contract';
import { auditKey } from '../platform/config/signing-secret.ts';
import type { Config } from '../platform/config/config.ts';

/**
 * The audit log's checkpoints are signed with a key the database never sees (AUDIT_KEY or
 * DATA_DIR/audit-key; decision 032): a session of the database can move a checkpoint only by
 * breaking its signature, which verify refuses.
 */
export interface Checkpoint {
  chain: string;
  seq: number;
  hash: string;
  purgedAt: Date;
}

/** HMAC-SHA256 over what the checkpoint says, one field a line (hex). */
export function checkpointSignature(
  config: Pick<Config, 'auditKey' | 'dataDir'>,
  checkpoint: Checkpoint,
): string {
  return crypto
    .createHmac('sha256', auditKey(config))
    .update(
      [
        'vrtc audit checkpoint v1',
        checkpoint.chain,
        String(checkpoint.seq),
        checkpoint.hash,
        checkpoint.purgedAt.toISOString(),
      ].join('\n'),
    )
    .digest('hex');
}

/**
 * Whether verify may start a chain from this checkpoint: `key_matched` (signed with this
 * server's key: trusted), `unsigned` (no signature: written by hand, or before checkpoints were
 * signed) or `signature_mismatch` (signed with another key, or altered since): both refused.
 */
export function checkpointTrust(
  config: Pick<Config, 'auditKey' | 'dataDir'>,
  checkpoint: Checkpoint,
  signature: string | null,
): AuditCheckpointTrust {
  if (!signature) return 'unsigned';
  const expected = Buffer.from(checkpointSignature(config, checkpoint), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected)
    ? 'key_matched'
    : 'signature_mismatch';
}
