import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The common and breached passwords no new password may be (ASVS 5.0, V6.2.4), checked without
 * regard to case. The list is zxcvbn-ts's (`@zxcvbn-ts/language-common`, MIT): about 49,000
 * passwords most often found in published breaches, shipped inside the package, so the check
 * needs no network and sends no password anywhere. Built on first use (a few milliseconds), then
 * a set lookup. Here, below every domain, because the configuration checks ADMIN_PASSWORD with it
 * too (auth/common-passwords.ts refuses a new password with it).
 */
let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return common.has(password.toLowerCase());
}
