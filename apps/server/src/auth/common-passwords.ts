import { isCommonPassword } from '../platform/config/common-passwords.ts';
import { AppError } from '../platform/service/errors.ts';

export { isCommonPassword };

/** Refuses a new password on the list (400 password_too_common). */
export function refuseCommonPassword(password: string): void {
  if (isCommonPassword(password)) {
    throw new AppError(
      'password_too_common',
      'This password is one of the most common ones and is easily guessed: choose another',
    );
  }
}
