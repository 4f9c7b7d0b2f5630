import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';

/**
 * The secret that signs expiring URLs (app downloads; any other signed link may reuse it).
 *
 * SIGNING_SECRET wins when set. Otherwise `${DATA_DIR}/signing-secret` is read, or created with 32
 * random bytes (hex, mode 0600) the first time, so links keep working across restarts. Several
 * server processes sharing one DATA_DIR agree on the file (it is created by an atomic link, never
 * half-written); processes with separate data directories need SIGNING_SECRET to agree.
 */
export function signingSecret(config: Pick<Config, 'signingSecret' | 'dataDir'>): string {
  return keptSecret(config.dataDir, 'signing-secret', config.signingSecret);
}

/**
 * The key that encrypts webhook and LRS secrets in the database (integrations/secret-box.ts):
 * INTEGRATION_SECRETS_KEY, else `${DATA_DIR}/integration-secrets-key`, made as the signing secret
 * is. It lives outside the database, so a copy of the database alone holds no usable secret.
 */
export function integrationSecretsKey(
  config: Pick<Config, 'integrationSecretsKey' | 'dataDir'>,
): string {
  return keptSecret(config.dataDir, 'integration-secrets-key', config.integrationSecretsKey);
}

/**
 * The key that signs the audit log's checkpoints (audit/audit-key.ts): AUDIT_KEY, else
 * `${DATA_DIR}/audit-key`, made as the signing secret is. It never reaches the database, so a
 * database session cannot sign a checkpoint of its own (decision 032).
 */
export function auditKey(config: Pick<Config, 'auditKey' | 'dataDir'>): string {
  return keptSecret(config.dataDir, 'audit-key', config.auditKey);
}

/** A key kept in the data directory only, with no variable to set it (the single sign-on key). */
export function dataDirSecret(dataDir: string, name: string): string {
  return keptSecret(dataDir, name, undefined);
}

/** `given` when set; else the file `name` in `dataDir`, created the first time. */
function keptSecret(dataDir: string, name: string, given: string | undefined): string {
  if (given) return given;
  const file = path.join(dataDir, name);
  const cached = cache.get(file);
  if (cached) return cached;
  const secret = readSecret(file) ?? createSecret(file);
  cache.set(file, secret);
  return secret;
}

const cache = new Map<string, string>();

function readSecret(file: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!text) throw new Error(`The secret file ${file} is empty; delete it to have a new one made`);
  return text;
}

function createSecret(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, crypto.randomBytes(32).toString('hex') + '\n', { mode: 0o600 });
  try {
    // link() fails if another process got there first; then its secret is the one to use.
    fs.linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  const secret = readSecret(file);
  if (!secret) throw new Error(`Could not create the secret file ${file}`);
  return secret;
}
