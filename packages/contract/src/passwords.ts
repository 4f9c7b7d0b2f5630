/**
 * The rule a new password meets, wherever one is set (OWASP ASVS 5.0, V6.2): at least 8
 * characters, 15 or more recommended (the console's hint says so), at most 200 (well above the
 * 64 every password manager's output fits in), any characters, no composition rule; and, checked
 * by the server, not one of the common or breached passwords it ships a list of
 * (`password_too_common`). Kept apart from the schemas so the console can check the length before
 * sending without bundling any schema code; the `Password` schema (common.ts) is built from it.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_RECOMMENDED_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 200;
