/**
 * The rule a new password meets, wherever one is set: at least 6 characters (specification,
 * section 9), at most 200. Kept apart from the schemas so the console can check it before sending
 * without bundling any schema code; the `Password` schema (common.ts) is built from it.
 */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 200;
