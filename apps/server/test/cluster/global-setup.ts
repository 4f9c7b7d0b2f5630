import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { findNginx } from './cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    cluster: { serverUrl: string; nginx: string };
  }
}

/**
 * What the cluster suite needs, checked once: a PostgreSQL server it may create databases on
 * (TEST_DATABASE_URL) and an nginx binary (NGINX, /usr/sbin/nginx or PATH). Missing either fails
 * the run with a line saying which: scripts/test.mjs only starts this suite when both are there.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    throw new Error(
      'The cluster suite needs TEST_DATABASE_URL (a PostgreSQL server it may create databases on)',
    );
  }
  const client = new pg.Client({ connectionString: serverUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `The cluster suite cannot reach TEST_DATABASE_URL: ${(error as Error).message}`,
    );
  } finally {
    await client.end().catch(() => {});
  }
  const nginx = findNginx();
  if (!nginx) {
    throw new Error('The cluster suite needs nginx (Debian: apt-get install nginx; or set NGINX)');
  }
  project.provide('cluster', { serverUrl, nginx });
}
