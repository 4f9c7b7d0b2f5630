import { routes } from '@vrtc/contract';
import { callerOf } from '../platform/http/caller.ts';
import { csvReaderOf } from '../platform/http/request-facts.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { sendCsv } from '../platform/http/file-answer.ts';
import { registerRoute } from '../platform/http/routes.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { certificateByCode } from './certificates.ts';
import * as compliance from './compliance.ts';
import * as evaluations from './evaluations.ts';
import * as qualifications from './qualifications.service.ts';

/** Qualifications, their assignments, evaluations and revocations, compliance, certificates. */
export function qualificationsRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.listQualifications, (request) =>
    qualifications.listQualifications(ctx, callerOf(request), request.query),
  );
  registerRoute(app, routes.createQualification, (request) =>
    qualifications.createQualification(ctx, callerOf(request), request.body),
  );
  registerRoute(app, routes.getQualification, (request) =>
    qualifications.getQualification(ctx.db, callerOf(request), request.params.id),
  );
  registerRoute(app, routes.updateQualification, (request) =>
    qualifications.updateQualification(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.deleteQualification, async (request) => {
    await qualifications.archiveQualification(ctx, callerOf(request), request.params.id);
    return { ok: true as const };
  });
  registerRoute(app, routes.assignQualification, (request) =>
    qualifications.assign(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.unassignQualification, async (request) => {
    const { id, vrUserId } = request.params;
    await qualifications.unassign(ctx, callerOf(request), id, vrUserId);
    return { ok: true as const };
  });
  registerRoute(app, routes.signEvaluation, (request) =>
    evaluations.signEvaluation(ctx, callerOf(request), request.params.id, request.body, request.ip),
  );
  registerRoute(app, routes.revokeQualification, (request) => {
    const { id, qualificationId } = request.params;
    return evaluations.revoke(ctx, callerOf(request), id, qualificationId, request.body);
  });
  registerRoute(app, routes.listCompliance, (request) =>
    compliance.listCompliance(ctx, callerOf(request), request.query),
  );
  registerRoute(app, routes.exportCompliance, async (request, reply) => {
    const { fileName, stream } = await compliance.exportCompliance(
      ctx,
      callerOf(request),
      request.query,
      csvReaderOf(request, request.query),
    );
    return sendCsv(reply, fileName, stream);
  });
  registerRoute(app, routes.getCertificate, (request) =>
    certificateByCode(ctx, request.params.code, request.ip),
  );
}
