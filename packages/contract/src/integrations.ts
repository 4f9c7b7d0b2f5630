import { Type, type Static, type TSchema } from 'typebox';
import {
  DeviceType,
  EndedSessionStatus,
  NON_BLANK_TEXT_PATTERN,
  Nullable,
  Text,
  Timestamp,
  Uuid,
} from './common.ts';

/**
 * Results out (docs/integrations.md): an organisation's integrations receive its events, through a
 * transactional outbox and a dispatcher that delivers each event once per integration. A `webhook`
 * receives every event it subscribes to, signed by Standard Webhooks 1.0; an `xapi` integration is
 * a learning record store that receives xAPI 1.0.3 statements of every finished session.
 */
export const INTEGRATION_KINDS = ['webhook', 'xapi'] as const;
export const IntegrationKind = Type.Enum(INTEGRATION_KINDS);
export type IntegrationKind = Static<typeof IntegrationKind>;

/** The events an integration can receive; an xapi integration receives session.finished only. */
export const INTEGRATION_EVENTS = [
  'session.started',
  'session.finished',
  'device.enrolled',
  'device.removed',
  'license.expiring',
  'qualification.earned',
  'qualification.expiring',
  'qualification.expired',
  'qualification.revoked',
] as const;
export const IntegrationEvent = Type.Enum(INTEGRATION_EVENTS);
export type IntegrationEvent = Static<typeof IntegrationEvent>;

/** What a test send posts (POST /v1/integrations/:id/test); never written to the outbox. */
export const INTEGRATION_TEST_EVENT = 'integration.test';

/**
 * Why an integration stopped receiving: `by_user` (PATCH enabled: false), `gone` (the receiver
 * answered 410 Gone), `failing` (every attempt failed for three days). PATCH enabled: true clears it.
 */
export const INTEGRATION_DISABLED_REASONS = ['by_user', 'gone', 'failing'] as const;
export const IntegrationDisabledReason = Type.Enum(INTEGRATION_DISABLED_REASONS);
export type IntegrationDisabledReason = Static<typeof IntegrationDisabledReason>;

/**
 * A delivery is one event for one integration. `pending`: waiting for its first attempt or its
 * next retry (attempts > 0: the ones before failed); `delivered`: answered 2xx (xAPI: also 409, a
 * statement id the store already has); `failed`: the retry schedule ran out; `abandoned`: the
 * integration was disabled or deleted before it was delivered.
 */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'abandoned'] as const;
export const DeliveryStatus = Type.Enum(DELIVERY_STATUSES);
export type DeliveryStatus = Static<typeof DeliveryStatus>;

/**
 * Why an attempt got no answer: `timeout` (15 s), `connection_refused`, `address_refused` (the
 * address is loopback, private, link-local or metadata and OUTBOUND_ALLOW_PRIVATE does not list
 * it), `network_error` (DNS, TLS, a reset connection).
 */
export const DELIVERY_ERRORS = [
  'timeout',
  'connection_refused',
  'address_refused',
  'network_error',
] as const;
export const DeliveryError = Type.Enum(DELIVERY_ERRORS);
export type DeliveryError = Static<typeof DeliveryError>;

/** Seconds after a failed attempt before the next (attempt 1 failed → 5 s, …), ±10 % jitter. */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 86400] as const;
/** How long a previous signing secret still signs after a rotation. */
export const SECRET_ROTATION_OVERLAP_HOURS = 24;
/** An integration whose every attempt failed this long is disabled (`failing`). */
export const FAILING_DISABLE_AFTER_DAYS = 3;
/** Deliveries and their events are kept this long. */
export const DELIVERY_RETENTION_DAYS = 30;
/** How much of a receiver's answer is kept. */
export const DELIVERY_RESPONSE_MAX_BYTES = 1024;
/** Test sends of one integration per INTEGRATION_TEST_WINDOW_SECONDS; past them 429 rate_limited. */
export const INTEGRATION_TEST_MAX = 5;
export const INTEGRATION_TEST_WINDOW_SECONDS = 60;
/** A receiver must answer within this. */
export const DELIVERY_TIMEOUT_MS = 15_000;

export const INTEGRATION_URL_MAX_LENGTH = 2000;
const IntegrationUrl = Type.String({
  format: 'uri',
  maxLength: INTEGRATION_URL_MAX_LENGTH,
  pattern: NON_BLANK_TEXT_PATTERN,
  description: 'an http or https URL; xapi: the LRS endpoint, statements go to <url>/statements',
});
const Events = Type.Array(IntegrationEvent, { minItems: 1, maxItems: INTEGRATION_EVENTS.length });

// ---- event payloads (the body of a webhook: { type, timestamp, data }) ----

const NamedRef = Type.Object({
  id: Nullable(Uuid),
  /** The Russian name (the content's first language). */
  name: Type.String(),
  name_en: Nullable(Type.String()),
});

/** The trainee; `name` only when the integration includes names (include_names), else null. */
const VrUserRef = Type.Object({ id: Nullable(Uuid), name: Nullable(Type.String()) });
const DeviceRef = Type.Object({ id: Nullable(Uuid), name: Type.String(), type: Type.String() });

const sessionFields = {
  session_id: Uuid,
  organization_id: Uuid,
  vr_user: VrUserRef,
  device: DeviceRef,
  scenario: NamedRef,
  module: NamedRef,
  level: Type.Object({
    id: Nullable(Uuid),
    name: Type.String(),
    name_en: Nullable(Type.String()),
    number: Type.Integer(),
    revision: Type.Integer(),
  }),
  max_tasks: Type.Integer(),
  started_at: Timestamp,
};

export const SessionStartedData = Type.Object(sessionFields);
export type SessionStartedData = Static<typeof SessionStartedData>;

export const SessionFinishedData = Type.Object({
  ...sessionFields,
  /** completed, cancelled, disconnected or timeout; a late result is completed with late_result. */
  status: EndedSessionStatus,
  success: Type.Boolean(),
  completed_tasks: Type.Integer(),
  ended_at: Timestamp,
  duration_seconds: Type.Integer(),
  /** The headset's result arrived after the server had ended the session (ended_by_server_as). */
  late_result: Type.Boolean(),
  ended_by_server_as: Nullable(Type.Enum(['disconnected', 'timeout'])),
});
export type SessionFinishedData = Static<typeof SessionFinishedData>;

export const DeviceEnrolledData = Type.Object({
  device_id: Uuid,
  organization_id: Uuid,
  name: Type.String(),
  type: DeviceType,
  enrolled_at: Timestamp,
});
export type DeviceEnrolledData = Static<typeof DeviceEnrolledData>;

export const DeviceRemovedData = Type.Object({
  device_id: Uuid,
  organization_id: Uuid,
  name: Type.String(),
  type: DeviceType,
  removed_at: Timestamp,
});
export type DeviceRemovedData = Static<typeof DeviceRemovedData>;

/** Sent once per licence, 7 days before it ends. */
export const LicenseExpiringData = Type.Object({
  organization_id: Uuid,
  scenario: NamedRef,
  expires_at: Timestamp,
});
export type LicenseExpiringData = Static<typeof LicenseExpiringData>;

/**
 * A trainee's qualification changed state (docs/compliance.md): earned (an award), expiring,
 * expired, revoked. Each is sent once per award and state, whatever the number of servers.
 */
export const QualificationEventData = Type.Object({
  organization_id: Uuid,
  vr_user: Type.Object({ id: Uuid, name: Type.String() }),
  qualification: NamedRef,
  status: Type.String({ description: 'the status the event tells of (docs/compliance.md)' }),
  earned_at: Nullable(Timestamp),
  valid_until: Nullable(Timestamp),
  certificate_code: Nullable(Type.String()),
  /** revoked: why. */
  reason: Nullable(Type.String()),
});
export type QualificationEventData = Static<typeof QualificationEventData>;

/** The data of each event. */
export const INTEGRATION_EVENT_DATA = {
  'session.started': SessionStartedData,
  'session.finished': SessionFinishedData,
  'device.enrolled': DeviceEnrolledData,
  'device.removed': DeviceRemovedData,
  'license.expiring': LicenseExpiringData,
  'qualification.earned': QualificationEventData,
  'qualification.expiring': QualificationEventData,
  'qualification.expired': QualificationEventData,
  'qualification.revoked': QualificationEventData,
} as const;
export interface IntegrationEventData {
  'session.started': SessionStartedData;
  'session.finished': SessionFinishedData;
  'device.enrolled': DeviceEnrolledData;
  'device.removed': DeviceRemovedData;
  'license.expiring': LicenseExpiringData;
  'qualification.earned': QualificationEventData;
  'qualification.expiring': QualificationEventData;
  'qualification.expired': QualificationEventData;
  'qualification.revoked': QualificationEventData;
}

/**
 * A webhook's body. `webhook-id` (the event id, the same on every retry), `webhook-timestamp` and
 * `webhook-signature` ride in the headers (Standard Webhooks 1.0).
 */
export const WebhookPayload = Type.Union(
  INTEGRATION_EVENTS.map((type) =>
    Type.Object({
      type: Type.Literal(type),
      /** When the event happened (the change's commit time as the server's clock said). */
      timestamp: Timestamp,
      data: INTEGRATION_EVENT_DATA[type],
    }),
  ),
);
/**
 * The body of each event as a named schema (`SessionFinishedEvent`, …), for the OpenAPI document's
 * components: receivers read the payloads there beside docs/integrations.md.
 */
export const WEBHOOK_EVENT_SCHEMAS: Record<string, TSchema> = Object.fromEntries(
  INTEGRATION_EVENTS.map((type) => [
    `${type
      .split(/[._]/)
      .map((part) => part[0]!.toUpperCase() + part.slice(1))
      .join('')}Event`,
    Type.Object(
      {
        type: Type.Literal(type),
        timestamp: Timestamp,
        data: INTEGRATION_EVENT_DATA[type],
      },
      {
        description:
          `The body of a \`${type}\` webhook (headers webhook-id, webhook-timestamp, ` +
          'webhook-signature: Standard Webhooks 1.0; docs/integrations.md).',
      },
    ),
  ]),
);

export type WebhookPayload = {
  [K in IntegrationEvent]: { type: K; timestamp: string; data: IntegrationEventData[K] };
}[IntegrationEvent];

// ---- integrations ----

export const Integration = Type.Object({
  id: Uuid,
  organization_id: Uuid,
  kind: IntegrationKind,
  url: Type.String(),
  /** What it receives; xapi: always ['session.finished']. */
  events: Type.Array(IntegrationEvent),
  /** Trainee names in payloads and statements; without it only their ids. */
  include_names: Type.Boolean(),
  enabled: Type.Boolean(),
  disabled_reason: Nullable(IntegrationDisabledReason),
  disabled_at: Nullable(Timestamp),
  /** xapi: the Basic auth key (its secret is never answered); webhook: null. */
  xapi_key: Nullable(Type.String()),
  /** webhook: until then the secret before the last rotation still signs too; else null. */
  previous_secret_expires_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Integration = Static<typeof Integration>;

/** Create and rotate answer the signing secret once (webhook; null for xapi). */
export const IntegrationWithSecret = Type.Object({
  integration: Integration,
  secret: Nullable(Type.String({ description: 'whsec_ + base64 of 32 random bytes; shown once' })),
});
export type IntegrationWithSecret = Static<typeof IntegrationWithSecret>;

export const IntegrationList = Type.Object({ integrations: Type.Array(Integration) });
export type IntegrationList = Static<typeof IntegrationList>;

export const IntegrationListQuery = Type.Object(
  { organization_id: Type.Optional(Uuid) },
  { additionalProperties: false },
);
export type IntegrationListQuery = Static<typeof IntegrationListQuery>;

const XapiKey = Text({ maxLength: 500, nonBlank: true });
const XapiSecret = Text({ maxLength: 500, nonBlank: true });

/**
 * kind webhook: url and events; kind xapi: url, key and secret (events is session.finished).
 * Admins may name the organisation (organization_id; default their own); staff create in theirs.
 */
export const IntegrationCreateBody = Type.Object(
  {
    kind: IntegrationKind,
    url: IntegrationUrl,
    events: Type.Optional(Events),
    key: Type.Optional(XapiKey),
    secret: Type.Optional(XapiSecret),
    include_names: Type.Optional(Type.Boolean({ default: false })),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    organization_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type IntegrationCreateBody = Static<typeof IntegrationCreateBody>;

/** Any of the fields; enabled: true re-enables a disabled integration and clears its reason. */
export const IntegrationUpdateBody = Type.Object(
  {
    url: Type.Optional(IntegrationUrl),
    events: Type.Optional(Events),
    key: Type.Optional(XapiKey),
    secret: Type.Optional(XapiSecret),
    include_names: Type.Optional(Type.Boolean()),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type IntegrationUpdateBody = Static<typeof IntegrationUpdateBody>;

/** What a test send got back: the receiver's status and the first 1 KB of its answer. */
export const IntegrationTestResult = Type.Object({
  ok: Type.Boolean(),
  status_code: Nullable(Type.Integer()),
  /** The answer's headers (30 at most, values cut at 256 characters); {} when none came. */
  response_headers: Type.Record(Type.String(), Type.String()),
  /**
   * The first 1 KB of the answer; null when none came, and when the receiver is at a loopback,
   * private or link-local address (allowed by OUTBOUND_ALLOW_PRIVATE): an internal page is not
   * shown to the organisation.
   */
  response_body: Nullable(Type.String()),
  duration_ms: Type.Integer(),
  error: Nullable(DeliveryError),
});
export type IntegrationTestResult = Static<typeof IntegrationTestResult>;

// ---- deliveries ----

export const Delivery = Type.Object({
  id: Uuid,
  integration_id: Uuid,
  /** The event's id: webhook-id, the same on every attempt. */
  event_id: Uuid,
  event_type: IntegrationEvent,
  status: DeliveryStatus,
  attempts: Type.Integer(),
  created_at: Timestamp,
  next_attempt_at: Nullable(Timestamp),
  last_attempt_at: Nullable(Timestamp),
  last_status_code: Nullable(Type.Integer()),
  last_duration_ms: Nullable(Type.Integer()),
  /** The first 1 KB of the last answer. */
  last_response: Nullable(Type.String()),
  last_error: Nullable(DeliveryError),
  delivered_at: Nullable(Timestamp),
});
export type Delivery = Static<typeof Delivery>;

export const DELIVERY_LIST_DEFAULT_LIMIT = 50;
export const DELIVERY_LIST_MAX_LIMIT = 200;

/** Newest first, by cursor (next_cursor of the page before). */
export const DeliveryListQuery = Type.Object(
  {
    event: Type.Optional(IntegrationEvent),
    status: Type.Optional(DeliveryStatus),
    cursor: Type.Optional(Text({ maxLength: 200, description: 'next_cursor of the page before' })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: DELIVERY_LIST_MAX_LIMIT,
        default: DELIVERY_LIST_DEFAULT_LIMIT,
      }),
    ),
  },
  { additionalProperties: false },
);
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;

export const DeliveryPage = Type.Object({
  deliveries: Type.Array(Delivery),
  next_cursor: Nullable(Type.String()),
  limit: Type.Integer(),
});
export type DeliveryPage = Static<typeof DeliveryPage>;

export const DeliveryParams = Type.Object(
  { id: Uuid, deliveryId: Uuid },
  { additionalProperties: false },
);
export type DeliveryParams = Static<typeof DeliveryParams>;
