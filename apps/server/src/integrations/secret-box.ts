import type { Config } from '../platform/config/config.ts';
import { integrationSecretsKey } from '../platform/config/signing-secret.ts';
import { isSealed, openWith, sealWith } from '../platform/service/sealed.ts';

/**
 * Webhook signing secrets and LRS passwords at rest (issue 40), sealed (platform/service/sealed.ts)
 * under INTEGRATION_SECRETS_KEY or its file in DATA_DIR. A value written before encryption is read
 * as it is until encryptStoredSecrets (upkeep.ts) rewrites it.
 */

type KeyConfig = Pick<Config, 'integrationSecretsKey' | 'dataDir'>;

export { isSealed };

/** Encrypts a secret for the database. */
export function sealSecret(config: KeyConfig, secret: string): string;
export function sealSecret(config: KeyConfig, secret: string | null): string | null;
export function sealSecret(config: KeyConfig, secret: string | null): string | null {
  return secret === null ? null : sealWith(integrationSecretsKey(config), secret);
}

/** The secret a stored value holds; throws when it was sealed under another key. */
export function openSecret(config: KeyConfig, stored: string | null): string | null {
  return stored === null ? null : openWith(integrationSecretsKey(config), stored);
}

/** An integration's secrets as the request builder needs them. */
export function openSecrets<
  T extends { secret: string | null; previous_secret: string | null; xapi_secret: string | null },
>(config: KeyConfig, row: T): T {
  return {
    ...row,
    secret: openSecret(config, row.secret),
    previous_secret: openSecret(config, row.previous_secret),
    xapi_secret: openSecret(config, row.xapi_secret),
  };
}
