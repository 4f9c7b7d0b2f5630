import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.ts';
import type { Config } from '../config/config.ts';
import type { Db } from '../database/db.ts';

/**
 * What every service receives: the infrastructure, passed in (never imported globals). A domain
 * that needs more (the live events, the device changes, shared figures) says so in its own
 * context type (e.g. `ServiceContext & WithLive`); app.ts hands every route module one object
 * that holds it all.
 */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
}
