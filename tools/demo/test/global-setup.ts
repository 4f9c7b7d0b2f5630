// The server suite's global setup: one migrated database per run, a copy of it per test file
// (createTestApp in the server's test harness). By path: Vitest loads global setups without the
// `vrtc-source` condition that resolves `@vrtc/server/test/…` everywhere else.
export { default } from '../../../apps/server/test/global-setup.ts';
