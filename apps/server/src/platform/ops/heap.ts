import v8 from 'node:v8';

/**
 * The server's process turns off V8's allocation-site pretenuring (decision 036). V8 watches
 * where objects are allocated and, once most objects from one place outlive two young-generation
 * collections, allocates every later object from there straight into the old generation. A
 * headset's held push call (decision 028) is an ordinary request that lives for up to 30 s, and
 * it is allocated at the same places in Node and Fastify as every heartbeat: with a fleet holding
 * its calls, V8 judged those places long-lived and the heartbeats' short-lived request objects
 * filled the old generation, whose collections then took a fifth of a heartbeat's CPU
 * (`npm run bench:heartbeat-profile`; docs/benchmarks.md).
 *
 * V8 reads the flag when it weighs that feedback at each collection, so setting it once at start,
 * before the first request, is enough; objects already allocated are left as they are.
 */
export function keepRequestsYoung(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
