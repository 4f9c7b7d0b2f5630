export type TestDatabaseTemplate =
  | {
      kind: 'pglite';
      snapshotPath: string;
      /**
       * The same migrated database as a PGlite data directory on disk (`<dataDirPath>/pglite`,
       * closed): copied, it is a DATA_DIR a server starts on without creating and migrating a
       * database (test/harness.ts, migratedDataDir).
       */
      dataDirPath?: string;
    }
  | { kind: 'postgres'; serverUrl: string; template: string; runId: string };

export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
