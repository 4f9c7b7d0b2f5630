import type { DevicesContext } from './devices.service.ts';
import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { callerOf } from '../platform/http/caller.ts';
import { registerRoute } from '../platform/http/routes.ts';
import * as devices from './devices.service.ts';

export function devicesRoutes(app: AppInstance, ctx: DevicesContext) {
  registerRoute(app, routes.listDevices, (request) =>
    devices.listDevices(ctx, callerOf(request), request.query),
  );
  registerRoute(app, routes.getDevice, (request) =>
    devices.getDevice(ctx, callerOf(request).organizationId, request.params.id),
  );
  registerRoute(app, routes.deleteDevice, async (request) => {
    const caller = callerOf(request);
    await devices.deleteDevice(ctx, caller, caller.organizationId, request.params.id);
    return { ok: true as const };
  });
  registerRoute(app, routes.setMovementType, (request) =>
    devices.setMovementType(ctx, callerOf(request), request.params.id, request.body.movement_type),
  );
}
