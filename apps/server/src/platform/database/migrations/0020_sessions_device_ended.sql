-- The heartbeat tells a headset why its session ended: the device's most recently ended session,
-- read with the device on a device-cache miss. Without this index that read scans every session.
CREATE INDEX sessions_device_ended_idx ON sessions (device_id, ended_at DESC) WHERE status <> 'active';
