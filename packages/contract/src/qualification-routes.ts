import { IdParams, OkBody } from './common.ts';
import {
  AssignmentBody,
  AssignmentParams,
  AssignmentResult,
  Certificate,
  CertificateParams,
  ComplianceExportQuery,
  CompliancePage,
  ComplianceQuery,
  Evaluation,
  EvaluationBody,
  Qualification,
  QualificationBody,
  QualificationList,
  QualificationListQuery,
  QualificationUpdateBody,
  RevokeBody,
  Revocation,
  VrUserQualificationParams,
} from './qualifications.ts';
import { defineRoute } from './route-map.ts';
import { routeTable } from './route-table.ts';

/**
 * The routes of qualifications and compliance (issue 37, docs/compliance.md), part of `routes`.
 * Staff define and assign qualifications, sign evaluations and revoke; the auditor reads the
 * compliance view; anyone holding a certificate's code may check it.
 */
export const qualificationRoutes = {
  listQualifications: defineRoute({
    ...routeTable.listQualifications,
    access: 'reader',
    tags: ['qualifications'],
    description:
      'The organisation’s qualifications (archived ones left out); `q` matches the name.',
    querystring: QualificationListQuery,
    success: { status: 200, body: QualificationList },
    errors: [],
  }),
  createQualification: defineRoute({
    ...routeTable.createQualification,
    access: 'user',
    tags: ['qualifications'],
    description:
      'Defines a qualification. Every level must belong to a scenario the organisation has ' +
      'access to (else level_not_available).',
    body: QualificationBody,
    success: { status: 201, body: Qualification },
    errors: ['level_not_available'],
  }),
  getQualification: defineRoute({
    ...routeTable.getQualification,
    access: 'reader',
    tags: ['qualifications'],
    params: IdParams,
    success: { status: 200, body: Qualification },
    errors: ['not_found'],
  }),
  updateQualification: defineRoute({
    ...routeTable.updateQualification,
    access: 'user',
    tags: ['qualifications'],
    description:
      'Changes the fields given. Statuses are derived from the record, so a new validity or ' +
      'set of levels applies to every trainee at once.',
    params: IdParams,
    body: QualificationUpdateBody,
    success: { status: 200, body: Qualification },
    errors: ['not_found', 'level_not_available'],
  }),
  deleteQualification: defineRoute({
    ...routeTable.deleteQualification,
    access: 'user',
    tags: ['qualifications'],
    description:
      'Archives the qualification: it leaves the lists and the compliance view; every record ' +
      'that showed it still does.',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found'],
  }),
  assignQualification: defineRoute({
    ...routeTable.assignQualification,
    access: 'user',
    tags: ['qualifications'],
    description:
      'Assigns the qualification to VR users of the organisation, with an optional due date ' +
      '(a repeat changes the due date).',
    params: IdParams,
    body: AssignmentBody,
    success: { status: 200, body: AssignmentResult },
    errors: ['not_found'],
  }),
  unassignQualification: defineRoute({
    ...routeTable.unassignQualification,
    access: 'user',
    tags: ['qualifications'],
    params: AssignmentParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found'],
  }),
  signEvaluation: defineRoute({
    ...routeTable.signEvaluation,
    access: 'user',
    tags: ['qualifications'],
    description:
      'Signs a practical evaluation. The signing account re-enters its own password: a wrong ' +
      'one answers signature_rejected, stores nothing and counts as a failed sign-in. The ' +
      'signature (signer_name, signer_email, signed_at, meaning, result) is kept as signed.',
    params: IdParams,
    body: EvaluationBody,
    success: { status: 201, body: Evaluation },
    errors: ['not_found', 'signature_rejected', 'rate_limited'],
  }),
  revokeQualification: defineRoute({
    ...routeTable.revokeQualification,
    access: 'user',
    tags: ['qualifications'],
    description:
      'Takes the qualification away (an incident, a failed check on the job): its status is ' +
      'revoked until new pieces are done.',
    params: VrUserQualificationParams,
    body: RevokeBody,
    success: { status: 201, body: Revocation },
    errors: ['not_found'],
  }),
  listCompliance: defineRoute({
    ...routeTable.listCompliance,
    access: 'reader',
    tags: ['qualifications'],
    description:
      'Every assignment of a qualification with its status at as_of (default now), a page at ' +
      'a time, with the totals by status; `q` matches the trainee’s name.',
    querystring: ComplianceQuery,
    success: { status: 200, body: CompliancePage },
    errors: [],
  }),
  exportCompliance: defineRoute({
    ...routeTable.exportCompliance,
    access: 'reader',
    tags: ['qualifications'],
    description:
      'The compliance view as CSV (UTF-8 with a byte-order mark, formula-safe cells), every row ' +
      'matching the filters, streamed. A reader naming a language (lang, else an ' +
      'Accept-Language naming ru or en) gets headers, statuses and yes/no for overdue in it, ' +
      'dates at utc_offset (minutes east of UTC, named in the headers; UTC without it), and in ' +
      'Russian `;` between cells. A client naming no language gets the file as it always was ' +
      '(Russian headers and statuses, UTC ISO times, commas).',
    querystring: ComplianceExportQuery,
    success: { status: 200, file: 'text/csv' },
    errors: [],
  }),
  getCertificate: defineRoute({
    ...routeTable.getCertificate,
    access: 'public',
    tags: ['qualifications'],
    description:
      'A certificate by its code, for anyone holding it (the QR on the printed certificate): ' +
      'no sign-in, rate limited per address.',
    params: CertificateParams,
    success: { status: 200, body: Certificate },
    errors: ['not_found', 'rate_limited'],
  }),
} as const;
