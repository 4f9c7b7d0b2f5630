import {
  DeviceList,
  DeviceListQuery,
  Device,
  ErrorBody,
  IdParams,
  MovementTypeBody,
  OkBody,
} from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import { callerOf, type ServiceContext } from '../platform/context.ts';
import * as devices from './devices.service.ts';

const tags = ['devices'];

export function devicesRoutes(app: AppInstance, ctx: ServiceContext) {
  app.get(
    '/v1/devices',
    {
      schema: {
        tags,
        description:
          "The caller's organisation's devices, a page at a time (by name unless sorted); " +
          'status is derived now; `q` matches the name.',
        querystring: DeviceListQuery,
        response: { 200: DeviceList },
      },
    },
    (request) => devices.listDevices(ctx, callerOf(request), request.query),
  );

  app.delete(
    '/v1/devices/:id',
    {
      schema: {
        tags,
        description: 'Refused with 409 device_in_session while the device has an active session.',
        params: IdParams,
        response: { 200: OkBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      await devices.deleteDevice(ctx, callerOf(request).organizationId, request.params.id);
      return { ok: true as const };
    },
  );

  app.put(
    '/v1/devices/:id/movement-type',
    {
      schema: {
        tags,
        params: IdParams,
        body: MovementTypeBody,
        response: { 200: Device, 404: ErrorBody },
      },
    },
    (request) =>
      devices.setMovementType(
        ctx,
        callerOf(request),
        request.params.id,
        request.body.movement_type,
      ),
  );
}
