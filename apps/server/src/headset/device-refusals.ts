import type { FastifyRequest } from 'fastify';
import { recordAuditAlone, headsetSource, type AuditSource } from '../audit/audit.ts';
import { requestFacts } from '../platform/http/request-facts.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError } from '../platform/service/errors.ts';

/** One event per refused headset (or address) and route in this window, per node. */
export const DEVICE_REFUSAL_WINDOW_MS = 60 * 60 * 1000;
/** Keys remembered at most: beyond it the oldest go first (a flood of made-up tokens). */
export const DEVICE_REFUSAL_MAX_KEYS = 10_000;

/**
 * A headset's token refused for a device this server knows: the organisation is deactivated.
 * The refusal names the device, so the audit log can put it on its organisation's chain.
 */
export class DeviceRefused extends AppError {
  constructor(
    message: string,
    readonly device: { id: string; organizationId: string },
  ) {
    super('unauthorized', message);
  }
}

/**
 * Refused headset calls (401) in the audit log (`auth.access_denied`), in a bounded form: a
 * removed headset keeps calling every few seconds until someone switches it off, so each headset
 * (or, for a token nobody knows, each address) and route is recorded once per hour per node, the
 * first refusal of the window. Only the guard's failure path calls this: the heartbeat that gets
 * in pays for nothing.
 */
export class DeviceRefusals {
  /** Key → when its window started; a Map keeps insertion order, the oldest first. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly ctx: ServiceContext) {}

  record(request: FastifyRequest, error: unknown): void {
    if (!(error instanceof AppError) || error.status !== 401) return;
    const device = error instanceof DeviceRefused ? error.device : undefined;
    const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
    const key = `${device ? `device:${device.id}` : `ip:${request.ip}`} ${route}`;
    const now = this.ctx.clock.now();
    const since = this.seen.get(key);
    if (since !== undefined && now.getTime() - since < DEVICE_REFUSAL_WINDOW_MS) return;
    this.remember(key, now.getTime());
    const facts = requestFacts(request);
    const by: AuditSource = device
      ? headsetSource(device, facts)
      : {
          actor: { type: 'headset', id: null, email: null, role: null },
          organizationId: null,
          request: facts,
        };
    recordAuditAlone(this.ctx.db, {
      by,
      at: now,
      action: 'auth.access_denied',
      outcome: 'denied',
      target: { type: 'route', id: route, label: request.url.split('?')[0] ?? null },
      changes: { status: [null, error.status], reason: [null, error.message] },
    }).catch((failure: unknown) => {
      this.ctx.log.error(
        { err: failure },
        'recording a refused headset call in the audit log failed',
      );
    });
  }

  private remember(key: string, at: number) {
    this.seen.delete(key);
    this.seen.set(key, at);
    if (this.seen.size > DEVICE_REFUSAL_MAX_KEYS) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }
}
