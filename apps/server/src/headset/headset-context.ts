import type { WithDeviceChanges } from '../devices/device-changes.ts';
import type { WithLive } from '../events/live-events.ts';
import type { ServiceContext } from '../platform/service/context.ts';

/** What the headset services are handed beside the infrastructure. */
export type HeadsetContext = ServiceContext & WithLive & WithDeviceChanges;
