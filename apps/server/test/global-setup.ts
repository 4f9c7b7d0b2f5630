import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/platform/database/db.ts';
import { migrate } from '../src/platform/database/migrate.ts';
import { databaseUrlFor, type TestDatabaseTemplate } from './template.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: TestDatabaseTemplate;
  }
}

/**
 * Migrates once per run: a PGlite snapshot, or a PostgreSQL template database when
 * TEST_DB_KIND=postgres (with TEST_DATABASE_URL). Each test file then starts from a copy.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DB_KIND === 'postgres') {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) throw new Error('TEST_DB_KIND=postgres needs TEST_DATABASE_URL');
    const runId = `vrtc_${crypto.randomBytes(4).toString('hex')}`;
    const template = `${runId}_template`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${template}`);
    await admin.end();
    const database = await openDatabase({ databaseUrl: databaseUrlFor(serverUrl, template) });
    await migrate(database.db);
    await database.close();
    project.provide('dbTemplate', { kind: 'postgres', serverUrl, template, runId });
    return async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      const { rows } = await cleanup.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE $1`,
        [`${runId}%`],
      );
      for (const row of rows)
        await cleanup.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
      await cleanup.end();
    };
  }

  // Migrated on disk (as long as in memory), so the directory itself is a DATA_DIR to copy for
  // server processes, and dumped for the in-memory copies each test file opens.
  const run = `vrtc-snapshot-${process.pid}-${Date.now()}`;
  const dataDirPath = path.join(os.tmpdir(), run);
  const database = await openDatabase({ pgliteDir: dataDirPath });
  await migrate(database.db);
  const snapshotPath = path.join(os.tmpdir(), `${run}.tar`);
  fs.writeFileSync(snapshotPath, await database.dumpPglite!());
  await database.close();
  project.provide('dbTemplate', { kind: 'pglite', snapshotPath, dataDirPath });
  return () => {
    fs.rmSync(snapshotPath, { force: true });
    fs.rmSync(dataDirPath, { recursive: true, force: true });
  };
}
