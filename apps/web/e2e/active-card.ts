import type { Page } from 'playwright-core';

/**
 * When each task of a session shows on the console's Active card, against when the simulated
 * headset reported it: the live browser test (each task shows) and `npm run bench:console-live`
 * (how soon) read the same figures. Plain Playwright and Node, no test runner.
 */

/**
 * Records when each progress report of the simulated headsets left for the server, and when its
 * answer came, by `session:task count`: the simulator runs in this process, so its requests go
 * through this process's fetch. `restore()` puts the original fetch back.
 */
export function recordProgressPosts() {
  const postedAt = new Map<string, number>();
  const answeredAt = new Map<string, number>();
  const original = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const match = /\/v1\/headset\/sessions\/([\w-]+)\/progress$/.exec(String(input));
    if (!match || !init?.body) return original(input, init);
    const { completed_tasks } = JSON.parse(String(init.body)) as { completed_tasks: number };
    const key = `${match[1]}:${completed_tasks}`;
    postedAt.set(key, Date.now());
    const answer = await original(input, init);
    answeredAt.set(key, Date.now());
    return answer;
  }) as typeof fetch;
  return {
    postedAt,
    answeredAt,
    restore() {
      globalThis.fetch = original;
    },
  };
}

/**
 * Records in the page, for the Active card of the session of `vrUserName`, when each task count
 * first shows: the moment the DOM changes, read by a MutationObserver.
 */
export async function watchCompletedTasks(page: Page, vrUserName: string) {
  // Run through tsx (the benchmark), the function below names its closures with esbuild's
  // __name helper, which the page does not have.
  await page.evaluate('globalThis.__name ??= (f) => f');
  await page.evaluate((name) => {
    const seen: Record<number, number> = {};
    (window as unknown as { __tasksSeenAt: Record<number, number> }).__tasksSeenAt = seen;
    const check = () => {
      const card = [...document.querySelectorAll('[data-testid="active-session"]')].find((each) =>
        each.textContent?.includes(name),
      );
      const text = card?.querySelector('[data-testid="completed-tasks"]')?.textContent;
      const done = Number(text?.split('/')[0]);
      if (!Number.isInteger(done)) return;
      for (let task = 1; task <= done; task += 1) seen[task] ??= Date.now();
    };
    new MutationObserver(check).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    check();
  }, vrUserName);
}

/**
 * Milliseconds from each progress report to the card showing it, tasks 1..count; throws naming
 * the first task that was not reported or never shown.
 */
export async function latencies(
  page: Page,
  postedAt: Map<string, number>,
  sessionId: string,
  count: number,
): Promise<number[]> {
  const seen = await page.evaluate(
    () => (window as unknown as { __tasksSeenAt: Record<number, number> }).__tasksSeenAt,
  );
  return Array.from({ length: count }, (_, index) => {
    const task = index + 1;
    const posted = postedAt.get(`${sessionId}:${task}`);
    const shown = seen[task];
    if (posted === undefined || shown === undefined)
      throw new Error(`task ${task}: reported at ${posted}, shown at ${shown}`);
    return shown - posted;
  });
}
