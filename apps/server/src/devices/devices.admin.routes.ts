import {
  AdminDeviceListQuery,
  BulkDeleteDevicesBody,
  BulkDeleteDevicesResponse,
  AdminDeviceList,
  ErrorBody,
  IdParams,
  OkBody,
} from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import type { ServiceContext } from '../platform/context.ts';
import * as devices from './devices.service.ts';

const tags = ['admin: devices'];

export function adminDevicesRoutes(app: AppInstance, ctx: ServiceContext) {
  app.get(
    '/v1/admin/devices/all',
    {
      schema: {
        tags,
        description:
          'Devices of every organisation, a page at a time, optionally filtered; `q` matches the ' +
          'device’s or its organisation’s name. `summary` counts them by status under the ' +
          'filters other than status and q.',
        querystring: AdminDeviceListQuery,
        response: { 200: AdminDeviceList },
      },
    },
    (request) => devices.listAllDevices(ctx, request.query),
  );

  app.delete(
    '/v1/admin/devices/:id',
    {
      schema: {
        tags,
        description: 'Refused with 409 device_in_session while the device has an active session.',
        params: IdParams,
        response: { 200: OkBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      await devices.deleteDevice(ctx, undefined, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/v1/admin/devices/bulk-delete',
    {
      schema: {
        tags,
        description:
          'Deletes the listed devices that exist and are not in a session; the others are ' +
          'answered in skipped with a reason, and do not fail the call.',
        body: BulkDeleteDevicesBody,
        response: { 200: BulkDeleteDevicesResponse },
      },
    },
    (request) => devices.bulkDeleteDevices(ctx, request.body.device_ids),
  );
}
