/**
 * The limits of personal API tokens, without any schema: the console imports them at run time
 * (no TypeBox reaches the browser; api-tokens.ts holds the schemas).
 */
export const API_TOKEN_NAME_MAX_LENGTH = 100;
/** How many tokens an account may hold at once (409 quota_exceeded past it). */
export const API_TOKENS_PER_ACCOUNT = 20;
