export type TestDatabaseTemplate =
  | { kind: 'pglite'; snapshotPath: string }
  | { kind: 'postgres'; serverUrl: string; template: string; runId: string };

export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
