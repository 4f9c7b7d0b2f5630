import { dataDirSecret } from '../platform/config/signing-secret.ts';
import { openWith, sealWith } from '../platform/service/sealed.ts';

/**
 * The identity providers' client secrets, sealed (platform/service/sealed.ts) under a key kept in
 * the data directory (`DATA_DIR/sso-key`), never in the database: a stolen backup of the database
 * alone does not sign anyone in.
 */
export function sealSecret(dataDir: string, secret: string): string {
  return sealWith(dataDirSecret(dataDir, 'sso-key'), secret);
}

/** Throws when the key is not the one the secret was sealed with (a data directory lost). */
export function openSecret(dataDir: string, sealed: string): string {
  return openWith(dataDirSecret(dataDir, 'sso-key'), sealed);
}
