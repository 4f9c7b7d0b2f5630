import { Type, type Static } from 'typebox';
import { Description, Name, Nullable, Text, Timestamp, Uuid } from './common.ts';
import { listPageFields, listQueryFields } from './lists.ts';
import { csvReaderFields } from './csv-reader.ts';

/**
 * Qualifications (issue 37, docs/compliance.md): what an organisation requires of its trainees
 * (levels passed, perhaps a signed practical evaluation), for how long, and who holds it at any
 * moment. Every status is derived from the record (sessions, signed evaluations, revocations),
 * never stored by hand.
 */

/** A trainee's standing in a qualification at a moment. */
export const QUALIFICATION_STATUSES = [
  'qualified',
  'expiring',
  'expired',
  'pending_evaluation',
  'not_qualified',
  'revoked',
] as const;
export const QualificationStatus = Type.Enum(QUALIFICATION_STATUSES);
export type QualificationStatus = Static<typeof QualificationStatus>;

/** A certificate's (one award's) standing now: `superseded` when a later award replaced it. */
export const CERTIFICATE_STATUSES = [
  'valid',
  'expiring',
  'expired',
  'revoked',
  'superseded',
] as const;
export const CertificateStatus = Type.Enum(CERTIFICATE_STATUSES);
export type CertificateStatus = Static<typeof CertificateStatus>;

export const EVALUATION_RESULTS = ['pass', 'fail'] as const;
export const EvaluationResult = Type.Enum(EVALUATION_RESULTS);
export type EvaluationResult = Static<typeof EvaluationResult>;

export const VALIDITY_DAYS_MAX = 3650;
export const EXPIRING_WITHIN_DAYS_MAX = 365;
export const EXPIRING_WITHIN_DAYS_DEFAULT = 30;
export const QUALIFICATION_LEVELS_MAX = 100;

const ValidityDays = Nullable(
  Type.Integer({
    minimum: 1,
    maximum: VALIDITY_DAYS_MAX,
    description:
      'days a complete set of pieces stays valid, from its oldest piece; null: never lapses',
  }),
);
const ExpiringWithinDays = Type.Integer({ minimum: 0, maximum: EXPIRING_WITHIN_DAYS_MAX });
const LevelIds = Type.Array(Uuid, {
  minItems: 1,
  maxItems: QUALIFICATION_LEVELS_MAX,
  uniqueItems: true,
  description: 'levels of scenarios the organisation has access to; every one must be passed',
});

export const Qualification = Type.Object({
  id: Uuid,
  name: Type.String(),
  name_en: Nullable(Type.String()),
  description: Nullable(Type.String()),
  level_ids: Type.Array(Uuid),
  validity_days: Nullable(Type.Integer()),
  expiring_within_days: Type.Integer(),
  evaluation_required: Type.Boolean(),
  /** VR users it is assigned to. */
  assigned_count: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Qualification = Static<typeof Qualification>;

export const QUALIFICATION_SORT_FIELDS = ['name', 'validity_days', 'created_at'] as const;
export const QualificationListQuery = Type.Object(listQueryFields(QUALIFICATION_SORT_FIELDS), {
  additionalProperties: false,
});
export type QualificationListQuery = Static<typeof QualificationListQuery>;

export const QualificationList = Type.Object({
  qualifications: Type.Array(Qualification),
  ...listPageFields,
});
export type QualificationList = Static<typeof QualificationList>;

export const QualificationBody = Type.Object(
  {
    name: Name,
    name_en: Type.Optional(Nullable(Name)),
    description: Type.Optional(Nullable(Description)),
    level_ids: LevelIds,
    validity_days: Type.Optional(ValidityDays),
    expiring_within_days: Type.Optional(ExpiringWithinDays),
    evaluation_required: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type QualificationBody = Static<typeof QualificationBody>;

/** PUT: the fields given change, the others stay. */
export const QualificationUpdateBody = Type.Partial(QualificationBody, {
  additionalProperties: false,
});
export type QualificationUpdateBody = Static<typeof QualificationUpdateBody>;

export const ASSIGN_MAX_VR_USERS = 1000;
export const AssignmentBody = Type.Object(
  {
    vr_user_ids: Type.Array(Uuid, {
      minItems: 1,
      maxItems: ASSIGN_MAX_VR_USERS,
      uniqueItems: true,
    }),
    due_at: Type.Optional(Nullable(Timestamp)),
  },
  { additionalProperties: false },
);
export type AssignmentBody = Static<typeof AssignmentBody>;

export const AssignmentResult = Type.Object({
  qualification_id: Uuid,
  /** The VR users now assigned by this call (a repeat updates the due date). */
  vr_user_ids: Type.Array(Uuid),
  due_at: Nullable(Timestamp),
});
export type AssignmentResult = Static<typeof AssignmentResult>;

export const AssignmentParams = Type.Object(
  { id: Uuid, vrUserId: Uuid },
  { additionalProperties: false },
);
export type AssignmentParams = Static<typeof AssignmentParams>;

export const VrUserQualificationParams = Type.Object(
  { id: Uuid, qualificationId: Uuid },
  { additionalProperties: false },
);
export type VrUserQualificationParams = Static<typeof VrUserQualificationParams>;

/** The signing account re-enters its own password (21 CFR 11.200): checked, never stored. */
export const EvaluationBody = Type.Object(
  {
    qualification_id: Uuid,
    result: EvaluationResult,
    meaning: Text({
      maxLength: 500,
      nonBlank: true,
      description: 'what the signature means, e.g. "Practical evaluation performed and passed"',
    }),
    notes: Type.Optional(Nullable(Text({ maxLength: 5000 }))),
    // The signer's own password as it is (an older one may be shorter than today's minimum).
    // Left out by an account of single sign-on that has just re-authenticated at its provider
    // (GET /v1/auth/sso/reauth): that proof is taken instead, once.
    password: Type.Optional(Text({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type EvaluationBody = Static<typeof EvaluationBody>;

/** A signed evaluation: the signature's fields as they were when signed. */
export const Evaluation = Type.Object({
  id: Uuid,
  vr_user_id: Uuid,
  qualification_id: Uuid,
  result: EvaluationResult,
  meaning: Type.String(),
  notes: Nullable(Type.String()),
  signer_name: Type.String(),
  signer_email: Type.String(),
  signed_at: Timestamp,
});
export type Evaluation = Static<typeof Evaluation>;

export const RevokeBody = Type.Object(
  { reason: Text({ maxLength: 2000, nonBlank: true }) },
  { additionalProperties: false },
);
export type RevokeBody = Static<typeof RevokeBody>;

export const Revocation = Type.Object({
  id: Uuid,
  vr_user_id: Uuid,
  qualification_id: Uuid,
  reason: Type.String(),
  revoked_at: Timestamp,
  revoked_by_email: Nullable(Type.String()),
});
export type Revocation = Static<typeof Revocation>;

/** One line of a qualification's history in a trainee's record. */
export const QualificationHistoryEntry = Type.Object({
  kind: Type.Enum(['award', 'evaluation', 'revocation']),
  at: Timestamp,
  /** award: its certificate and until when it was valid as awarded. */
  certificate_code: Nullable(Type.String()),
  valid_until: Nullable(Timestamp),
  /** evaluation: the signature as signed. */
  result: Nullable(EvaluationResult),
  meaning: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  signer_name: Nullable(Type.String()),
  signer_email: Nullable(Type.String()),
  /** revocation: why, and who. */
  reason: Nullable(Type.String()),
  by_email: Nullable(Type.String()),
});
export type QualificationHistoryEntry = Static<typeof QualificationHistoryEntry>;

/** A qualification in a trainee's record: assigned or ever earned, archived ones included. */
export const RecordQualification = Type.Object({
  qualification_id: Uuid,
  name: Type.String(),
  name_en: Nullable(Type.String()),
  archived: Type.Boolean(),
  assigned: Type.Boolean(),
  due_at: Nullable(Timestamp),
  status: QualificationStatus,
  earned_at: Nullable(Timestamp),
  valid_until: Nullable(Timestamp),
  certificate_code: Nullable(Type.String()),
  history: Type.Array(QualificationHistoryEntry),
});
export type RecordQualification = Static<typeof RecordQualification>;

const complianceFilters = {
  as_of: Type.Optional(Timestamp),
  status: Type.Optional(QualificationStatus),
  qualification_id: Type.Optional(Uuid),
  vr_user_id: Type.Optional(Uuid),
  overdue: Type.Optional(Type.Boolean()),
};

export const COMPLIANCE_SORT_FIELDS = [
  'vr_user_name',
  'qualification_name',
  'status',
  'valid_until',
  'due_at',
] as const;

/** `q` matches the trainee's name. Default order: by trainee, then qualification. */
export const ComplianceQuery = Type.Object(
  { ...listQueryFields(COMPLIANCE_SORT_FIELDS), ...complianceFilters },
  { additionalProperties: false },
);
export type ComplianceQuery = Static<typeof ComplianceQuery>;

export const ComplianceRow = Type.Object({
  vr_user_id: Uuid,
  vr_user_name: Type.String(),
  qualification_id: Uuid,
  qualification_name: Type.String(),
  status: QualificationStatus,
  earned_at: Nullable(Timestamp),
  valid_until: Nullable(Timestamp),
  due_at: Nullable(Timestamp),
  overdue: Type.Boolean(),
  certificate_code: Nullable(Type.String()),
});
export type ComplianceRow = Static<typeof ComplianceRow>;

/** Rows by status, and overdue, among those matching every filter but status and overdue. */
export const ComplianceTotals = Type.Object({
  qualified: Type.Integer(),
  expiring: Type.Integer(),
  expired: Type.Integer(),
  pending_evaluation: Type.Integer(),
  not_qualified: Type.Integer(),
  revoked: Type.Integer(),
  overdue: Type.Integer(),
});
export type ComplianceTotals = Static<typeof ComplianceTotals>;

export const CompliancePage = Type.Object({
  rows: Type.Array(ComplianceRow),
  totals: ComplianceTotals,
  /** The moment the statuses are derived at (as_of, default now). */
  as_of: Timestamp,
  ...listPageFields,
});
export type CompliancePage = Static<typeof CompliancePage>;

export const ComplianceExportQuery = Type.Object(
  {
    ...complianceFilters,
    q: listQueryFields(COMPLIANCE_SORT_FIELDS).q,
    sort: listQueryFields(COMPLIANCE_SORT_FIELDS).sort,
    order: listQueryFields(COMPLIANCE_SORT_FIELDS).order,
    /** The reader's language and clock (csv-reader.ts); none: Russian headings, ISO UTC, `,`. */
    ...csvReaderFields,
  },
  { additionalProperties: false },
);
export type ComplianceExportQuery = Static<typeof ComplianceExportQuery>;

/** Codes are 32 bytes of randomness, base64url: 43 characters; any other text is simply unknown (404). */
export const CertificateParams = Type.Object(
  { code: Text({ maxLength: 64 }) },
  { additionalProperties: false },
);
export type CertificateParams = Static<typeof CertificateParams>;

/** GET /v1/certificates/:code: what a site supervisor checks from the QR, with no sign-in. */
export const Certificate = Type.Object({
  holder_name: Type.String(),
  qualification_name: Type.String(),
  qualification_name_en: Nullable(Type.String()),
  organization_name: Type.String(),
  valid_from: Timestamp,
  valid_until: Nullable(Timestamp),
  status: CertificateStatus,
});
export type Certificate = Static<typeof Certificate>;

/** The compliance CSV's columns, in each language. */
export const COMPLIANCE_CSV_COLUMNS = {
  en: [
    'Trainee',
    'Qualification',
    'Status',
    'Earned At',
    'Valid Until',
    'Due At',
    'Overdue',
    'Certificate',
  ],
  ru: [
    'Обучаемый',
    'Квалификация',
    'Статус',
    'Получена',
    'Действует до',
    'Срок',
    'Просрочено',
    'Сертификат',
  ],
} as const;

export const QUALIFICATION_STATUS_LABELS: Record<
  'ru' | 'en',
  Record<QualificationStatus, string>
> = {
  en: {
    qualified: 'Qualified',
    expiring: 'Expiring',
    expired: 'Expired',
    pending_evaluation: 'Pending evaluation',
    not_qualified: 'Not qualified',
    revoked: 'Revoked',
  },
  ru: {
    qualified: 'Допущен',
    expiring: 'Истекает',
    expired: 'Истекла',
    pending_evaluation: 'Ожидает оценки',
    not_qualified: 'Не допущен',
    revoked: 'Отозвана',
  },
};
