import { runSweep } from '../src/headset/sweeper.ts';
import { contextOf, type TestApp } from './harness.ts';

/**
 * Runs the headset sweeper once now, for a domain's tests that need a session ended by the server
 * (a domain may not import another's internals; the tests' own helpers may).
 */
export const sweepNow = (t: TestApp) => runSweep(contextOf(t));
