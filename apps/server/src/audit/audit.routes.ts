import { routes } from '@vrtc/contract';
import { callerOf } from '../platform/http/caller.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { sendCsv } from '../platform/http/file-answer.ts';
import { registerRoute } from '../platform/http/routes.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import * as audit from './audit.service.ts';

export function auditRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.listAuditEvents, (request) =>
    audit.listAuditEvents(ctx, callerOf(request), request.query),
  );
  registerRoute(app, routes.exportAuditEvents, (request, reply) => {
    const { fileName, stream } = audit.exportAuditEvents(ctx, callerOf(request), request.query);
    return sendCsv(reply, fileName, stream);
  });
  registerRoute(app, routes.verifyAudit, () => audit.verifyAudit(ctx));
}
