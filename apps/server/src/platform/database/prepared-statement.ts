import crypto from 'node:crypto';

/**
 * Ends the text of a statement that the database should parse and plan once per connection and
 * keep (a named prepared statement), for the few hot statements whose planning costs more than
 * their work: the audit log's writers (audit.ts), whose text is fixed and whose plan does not
 * depend on the values. Only those carry it: a kept generic plan would serve a statement whose
 * best plan depends on its values (the console's lists) worse. On PostgreSQL pg prepares it
 * (db.ts), on PGlite its thread (pglite-worker.ts).
 */
export const PREPARED_STATEMENT = '/* prepared */';

export const isPrepared = (text: string) => text.endsWith(PREPARED_STATEMENT);

/** The name a prepared statement goes by on each connection: its text's digest. */
const preparedNames = new Map<string, string>();
export function preparedName(text: string): string {
  let name = preparedNames.get(text);
  if (!name) {
    name = `vrtc_${crypto.createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    preparedNames.set(text, name);
  }
  return name;
}
