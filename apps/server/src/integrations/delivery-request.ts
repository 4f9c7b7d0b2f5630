import crypto from 'node:crypto';
import {
  INTEGRATION_TEST_EVENT,
  type SessionFinishedData,
  type WebhookPayload,
} from '@vrtc/contract';
import type { ServiceContext } from '../platform/service/context.ts';
import type { OutboundAnswer, OutboundRequest } from './outbound.ts';
import { signatureHeader } from './signing.ts';
import { XAPI_VERSION, sessionStatements } from './xapi.ts';

/**
 * The one place a request to a receiver is built (decision 026): the dispatcher's deliveries and
 * the test send sign, authorise and address their requests here, so both sign with the same
 * secrets (the previous one while its overlap lasts) and reach an LRS at the same URL.
 */

/** What building a request needs of an integration (its row, or a claimed delivery). */
export interface Receiver {
  organization_id: string;
  kind: 'webhook' | 'xapi';
  url: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  xapi_key: string | null;
  xapi_secret: string | null;
  include_names: boolean;
}

/** One event of the outbox, for one receiver. */
export interface EventToSend {
  event_id: string;
  payload: unknown;
}

type RequestContext = Pick<ServiceContext, 'clock' | 'config'>;

/** A webhook's body as this integration gets it: the trainee's name only when asked for. */
export function payloadFor(payload: unknown, includeNames: boolean): WebhookPayload {
  const event = payload as WebhookPayload;
  if (includeNames) return event;
  if (event.type === 'session.started' || event.type === 'session.finished') {
    const data = { ...event.data, vr_user: { ...event.data.vr_user, name: null } };
    return { ...event, data } as WebhookPayload;
  }
  return event;
}

/** The secrets that sign now: the current one, and the previous one until its overlap ends. */
export function signingSecrets(receiver: Receiver, now: Date): string[] {
  const secrets = [receiver.secret ?? ''];
  if (
    receiver.previous_secret &&
    receiver.previous_secret_expires_at &&
    receiver.previous_secret_expires_at > now
  ) {
    secrets.push(receiver.previous_secret);
  }
  return secrets;
}

export const basicAuth = (key: string, secret: string) =>
  `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

/** The actor's homePage and the activities' base: PUBLIC_URL, else the local address. */
export const homePageOf = (config: ServiceContext['config']) =>
  config.publicUrl ?? `http://${config.host}:${config.port}`;

/**
 * `<base>/statements` of an LRS: with the URL API, so the base's path keeps its segments (a
 * trailing slash or not) and nothing in it can turn the appended path into a query or fragment.
 */
export function lrsStatementsUrl(base: string, query: Record<string, string> = {}): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/statements`;
  url.search = '';
  url.hash = '';
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** A signed webhook request of `body` with `eventId` as its webhook-id. */
function webhookRequest(
  receiver: Receiver,
  eventId: string,
  body: string,
  ctx: RequestContext,
  signal?: AbortSignal,
): OutboundRequest {
  const now = ctx.clock.now();
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    method: 'POST',
    url: receiver.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'vrtc-webhooks/1',
      'webhook-id': eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(signingSecrets(receiver, now), eventId, timestamp, body),
    },
    body,
    timeoutMs: ctx.config.deliveryTimeoutMs,
    signal,
  };
}

const xapiHeaders = (receiver: Receiver) => ({
  'x-experience-api-version': XAPI_VERSION,
  authorization: basicAuth(receiver.xapi_key ?? '', receiver.xapi_secret ?? ''),
});

/** The request one delivery makes, signed (webhook) or authorised (xAPI). */
export function requestFor(
  receiver: Receiver,
  event: EventToSend,
  ctx: RequestContext,
  signal?: AbortSignal,
): OutboundRequest {
  const payload = payloadFor(event.payload, receiver.include_names);
  if (receiver.kind === 'webhook') {
    return webhookRequest(receiver, event.event_id, JSON.stringify(payload), ctx, signal);
  }
  const statements = sessionStatements(payload.data as SessionFinishedData, {
    homePage: homePageOf(ctx.config),
    includeNames: receiver.include_names,
  });
  return {
    method: 'POST',
    url: lrsStatementsUrl(receiver.url),
    headers: { 'content-type': 'application/json', ...xapiHeaders(receiver) },
    body: JSON.stringify(statements),
    timeoutMs: ctx.config.deliveryTimeoutMs,
    signal,
  };
}

/**
 * The test send's request: a signed integration.test event to a webhook (a new webhook-id each
 * time), a read of one statement from an LRS (which checks the credentials and writes nothing).
 */
export function testRequestFor(
  receiver: Receiver & { id: string },
  ctx: RequestContext,
): OutboundRequest {
  if (receiver.kind === 'xapi') {
    return {
      method: 'GET',
      url: lrsStatementsUrl(receiver.url, { limit: '1' }),
      headers: xapiHeaders(receiver),
      timeoutMs: ctx.config.deliveryTimeoutMs,
    };
  }
  const body = JSON.stringify({
    type: INTEGRATION_TEST_EVENT,
    timestamp: ctx.clock.now().toISOString(),
    data: { integration_id: receiver.id, organization_id: receiver.organization_id },
  });
  return webhookRequest(receiver, crypto.randomUUID(), body, ctx);
}

/** Did the receiver take it? 2xx; for xAPI also 409 (the store already has these ids). */
export const accepted = (kind: 'webhook' | 'xapi', answer: OutboundAnswer) =>
  answer.statusCode !== null &&
  ((answer.statusCode >= 200 && answer.statusCode < 300) ||
    (kind === 'xapi' && answer.statusCode === 409));
