import { Type, type Static } from 'typebox';
import { IdParams, Nullable, Pagination, SessionStatus, Text, Timestamp, Uuid } from './common.ts';
import { defineRoute } from './route-map.ts';
import { routeTable } from './route-table.ts';
import { StartedSession } from './sessions.ts';

/**
 * Into any LMS (issue 41, docs/lms.md): staff export a SCORM package for a level or a
 * qualification; the LMS opens its launch page, which asks the console for a PIN
 * (`POST /v1/lms/launches`, cross-origin, the package key as credential); a headset of the
 * organisation claims the PIN and the session starts; the page follows the launch with its
 * launch token and writes the result into the LMS's SCORM data model.
 */

export const SCORM_VERSIONS = ['1.2', '2004'] as const;
export const ScormVersion = Type.Enum(SCORM_VERSIONS);
export type ScormVersion = Static<typeof ScormVersion>;

/** How long a launch's PIN waits for a headset. */
export const LMS_PIN_TTL_MS = 15 * 60 * 1000;

/** What to export: exactly one of level_id and qualification_id. */
export const LmsExportQuery = Type.Object(
  {
    level_id: Type.Optional(Uuid),
    qualification_id: Type.Optional(Uuid),
    scorm_version: ScormVersion,
  },
  { additionalProperties: false },
);
export type LmsExportQuery = Static<typeof LmsExportQuery>;

export const LmsPackageKey = Type.Object({
  id: Uuid,
  scorm_version: ScormVersion,
  /** The package's title as exported (the level's or qualification's name). */
  title: Type.String(),
  level_id: Nullable(Uuid),
  qualification_id: Nullable(Uuid),
  created_by_email: Nullable(Type.String()),
  created_at: Timestamp,
  revoked_at: Nullable(Timestamp),
  launch_count: Type.Integer(),
});
export type LmsPackageKey = Static<typeof LmsPackageKey>;

export const LmsPackageKeyQuery = Pagination;
export type LmsPackageKeyQuery = Static<typeof LmsPackageKeyQuery>;

export const LmsPackageKeyList = Type.Object({
  package_keys: Type.Array(LmsPackageKey),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
export type LmsPackageKeyList = Static<typeof LmsPackageKeyList>;

/** What the launch page sends: its package's key and the learner as the LMS names them. */
export const LmsLaunchBody = Type.Object(
  {
    package_key: Text({ minLength: 1, maxLength: 200 }),
    learner_id: Text({ minLength: 1, maxLength: 255, nonBlank: true }),
    learner_name: Type.Optional(Text({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type LmsLaunchBody = Static<typeof LmsLaunchBody>;

export const LmsLaunchHeaders = Type.Object({
  'x-lms-launch-token': Text({ minLength: 1, maxLength: 200 }),
});
export type LmsLaunchHeaders = Static<typeof LmsLaunchHeaders>;

/**
 * waiting: the PIN waits for a headset; expired: nobody claimed it in time; running: the session
 * plays; ended: the session is over (result says how).
 */
export const LMS_LAUNCH_STATES = ['waiting', 'expired', 'running', 'ended'] as const;
export const LmsLaunchState = Type.Enum(LMS_LAUNCH_STATES);
export type LmsLaunchState = Static<typeof LmsLaunchState>;

/** A session's result as the LMS receives it. score: per cent of the level's tasks done. */
export const LmsResult = Type.Object({
  status: SessionStatus,
  success: Nullable(Type.Boolean()),
  completed_tasks: Type.Integer(),
  max_tasks: Type.Integer(),
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  duration_seconds: Nullable(Type.Integer()),
  ended_at: Nullable(Timestamp),
  late_result: Type.Boolean(),
});
export type LmsResult = Static<typeof LmsResult>;

/** A launch as its page sees it: nothing of other learners, nothing of the organisation's staff. */
export const LmsLaunch = Type.Object({
  launch_id: Uuid,
  state: LmsLaunchState,
  /** Six digits; null once claimed. */
  pin: Nullable(Type.String()),
  pin_expires_at: Timestamp,
  learner_name: Type.String(),
  level_name: Type.String(),
  level_name_en: Nullable(Type.String()),
  result: Nullable(LmsResult),
});
export type LmsLaunch = Static<typeof LmsLaunch>;

/** A new launch, with the token that follows it (shown once, kept only as a hash). */
export const LmsLaunchCreated = Type.Object({
  ...LmsLaunch.properties,
  launch_token: Type.String(),
});
export type LmsLaunchCreated = Static<typeof LmsLaunchCreated>;

export const ClaimLaunchBody = Type.Object(
  // Six digits; anything else is a PIN no launch waits with (launch_pin_invalid, counted).
  { pin: Text({ minLength: 1, maxLength: 6 }) },
  { additionalProperties: false },
);
export type ClaimLaunchBody = Static<typeof ClaimLaunchBody>;

export const lmsRoutes = {
  exportLmsPackage: defineRoute({
    ...routeTable.exportLmsPackage,
    access: 'user',
    tags: ['lms'],
    description:
      'A SCORM package (zip) of a level or a qualification of the organisation, for its LMS: ' +
      'imsmanifest.xml, the launch page and its script. Each export mints a new package key ' +
      '(bound to the organisation and the level or qualification) and is an audit event.',
    querystring: LmsExportQuery,
    success: { status: 200, file: 'application/zip' },
    errors: ['not_found'],
  }),
  listLmsPackageKeys: defineRoute({
    ...routeTable.listLmsPackageKeys,
    access: 'reader',
    tags: ['lms'],
    description: 'The organisation’s package keys, newest first, revoked ones included.',
    querystring: LmsPackageKeyQuery,
    success: { status: 200, body: LmsPackageKeyList },
    errors: [],
  }),
  revokeLmsPackageKey: defineRoute({
    ...routeTable.revokeLmsPackageKey,
    access: 'user',
    tags: ['lms'],
    description:
      'Revokes a package key: its package starts no launch from now on (launches already ' +
      'claimed keep their result). Revoking a revoked key changes nothing.',
    params: IdParams,
    success: { status: 200, body: LmsPackageKey },
    errors: ['not_found'],
  }),
  createLmsLaunch: defineRoute({
    ...routeTable.createLmsLaunch,
    access: 'public',
    tags: ['lms'],
    description:
      'Called cross-origin by a package’s launch page (CORS for any origin, without ' +
      'credentials): the learner gets a 6-digit PIN valid 15 minutes and a launch token. The ' +
      'learner is linked to a VR user by external_id (a new learner becomes a new VR user). ' +
      '403 lms_key_invalid for an unknown or revoked key; 429 past 60 launches per address ' +
      'in 15 minutes.',
    body: LmsLaunchBody,
    success: { status: 201, body: LmsLaunchCreated },
    errors: ['lms_key_invalid', 'rate_limited', 'quota_exceeded'],
  }),
  getLmsLaunch: defineRoute({
    ...routeTable.getLmsLaunch,
    access: 'public',
    tags: ['lms'],
    description:
      'The launch of the token in X-LMS-Launch-Token, polled by its page: waiting with its ' +
      'PIN, running, or ended with the result. 403 lms_key_invalid for an unknown token.',
    headers: LmsLaunchHeaders,
    success: { status: 200, body: LmsLaunch },
    errors: ['lms_key_invalid', 'rate_limited'],
  }),
  claimLmsLaunch: defineRoute({
    ...routeTable.claimLmsLaunch,
    access: 'device',
    tags: ['headset'],
    description:
      'A headset enters a launch’s PIN: the session starts for its learner on its level, as a ' +
      'start from the console does. 400 launch_pin_invalid for a wrong, expired or used PIN ' +
      'or one of another organisation; 429 past 10 wrong PINs per headset or 100 per ' +
      'organisation in 15 minutes. 409 device_busy while the headset runs a session.',
    body: ClaimLaunchBody,
    success: { status: 201, body: StartedSession },
    errors: ['launch_pin_invalid', 'rate_limited', 'device_busy', 'not_found'],
  }),
} as const;
