import { dictionary } from '@zxcvbn-ts/language-common';
import { AppError } from '../platform/service/errors.ts';

/**
 * The common and breached passwords no new password may be (ASVS 5.0, V6.2.4), checked without
 * regard to case. The list is zxcvbn-ts's (`@zxcvbn-ts/language-common`, MIT): about 49,000
 * passwords most often found in published breaches, shipped inside the package, so the check
 * needs no network and sends no password anywhere. Built on first use (a few milliseconds), then
 * a set lookup.
 */
let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return common.has(password.toLowerCase());
}

/** Refuses a new password on the list (400 password_too_common). */
export function refuseCommonPassword(password: string): void {
  if (isCommonPassword(password)) {
    throw new AppError(
      'password_too_common',
      'This password is one of the most common ones and is easily guessed: choose another',
    );
  }
}
