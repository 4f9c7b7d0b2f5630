import type { DeviceType } from '@vrtc/contract';
import type { HeadsetCredentials } from './events.ts';
import type { RetryPolicy } from './retry.ts';

/** How a simulated headset is set up: its server, its name, its pace and its luck. */
export interface SimulatedHeadsetOptions {
  /** Base URL of the server, e.g. http://127.0.0.1:8080. */
  server: string;
  /** Device name shown in the console; also the prefix of every event line. */
  name: string;
  type?: DeviceType;
  /** Enrolment code from the console; needed unless `credentials` are given (and still valid). */
  code?: string;
  /** A token saved from an earlier enrolment. When refused and a code is given, enrols again. */
  credentials?: HeadsetCredentials;
  /** Milliseconds per task while playing a session. Default 2000. */
  paceMs?: number;
  /** Share of sessions finished with success, 0..1. Default 0.8. */
  successRate?: number;
  /** Overrides the server's heartbeat_interval_ms. */
  heartbeatIntervalMs?: number;
  /** Battery level reported at start; drains by one point every 60 heartbeats. Default 100. */
  batteryPercent?: number;
  appVersion?: string;
  /** Random source in [0, 1) deciding outcomes; pass a fixed one for deterministic runs. */
  random?: () => number;
  /** Per-request time limit. Default 10000 ms. */
  requestTimeoutMs?: number;
  /**
   * Folder for the outbox (`outbox-<device_id>.jsonl`), kept across runs. Without it the outbox
   * lives in memory and what is unsent when the headset stops is gone.
   */
  stateDir?: string;
  /** Backoff between attempts at a report (Retry-After from the server wins). */
  retry?: Partial<RetryPolicy>;
  /**
   * Seconds the server may hold each call of the push channel (GET /v1/headset/events), which
   * brings a start or a cancel within a second. Default 25; 0 turns it off (heartbeats only).
   */
  pushWaitSeconds?: number;
}

/** A random source from a seed (mulberry32), for reproducible simulated outcomes. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
