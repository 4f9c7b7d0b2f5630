/** Minimum password length (specification section 9): the contract's rule, which the server checks. */
export {
  PASSWORD_MIN_LENGTH as MIN_PASSWORD_LENGTH,
  PASSWORD_RECOMMENDED_LENGTH,
} from '@vrtc/contract';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}
