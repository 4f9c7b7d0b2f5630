import type { DevicesContext } from './devices.service.ts';
import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { callerOf } from '../platform/http/caller.ts';
import { registerRoute } from '../platform/http/routes.ts';
import * as devices from './devices.service.ts';

export function adminDevicesRoutes(app: AppInstance, ctx: DevicesContext) {
  registerRoute(app, routes.listAllDevices, (request) =>
    devices.listAllDevices(ctx, request.query),
  );
  registerRoute(app, routes.adminDeleteDevice, async (request) => {
    await devices.deleteDevice(ctx, callerOf(request), undefined, request.params.id);
    return { ok: true as const };
  });
  registerRoute(app, routes.bulkDeleteDevices, (request) =>
    devices.bulkDeleteDevices(ctx, callerOf(request), request.body.device_ids),
  );
}
