import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { latencies, recordProgressPosts, watchCompletedTasks } from './active-card';
import { DIALOG_SCOPE, expectAccessible } from './axe';
import { LANGUAGES, tr } from './i18n';
import {
  adminToken,
  grantedTenant,
  Headsets,
  startSession,
  waitForSessionStatus,
  type SeededTree,
  type Tenant,
} from './seed';
import {
  baseUrl,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  uniqueName,
  type Language,
} from './support';

/**
 * The console live (GET /v1/events): each task a simulated headset finishes shows on the Active
 * card once reported, without a refresh (how soon is `npm run bench:console-live`'s to measure);
 * a headset enrolling with the code is announced in the open "Add headset" dialog; and with the
 * stream cut, the header says so and the 5 s polling still brings the updates.
 */

/** Tasks watched one by one (the level has one more: its report comes with the session's end). */
const MEASURED_TASKS = 20;
/** The console's longest pause between two attempts to reconnect: 30 s, plus its 20 % jitter. */
const MAX_RECONNECT_PAUSE_MS = 36_000;
/** Well under the stream's silence limit (twice its 15 s keepalive, + 5 s). */
const RECONNECT_STEP_MS = 5_000;

let browser: Browser;
let tenant: Tenant;
let tree: SeededTree;
const headsets = new Headsets();
const pages: Page[] = [];

let progress: ReturnType<typeof recordProgressPosts>;

beforeAll(async () => {
  const admin = await adminToken();
  [browser, { tenant, tree }] = await Promise.all([
    launchBrowser(),
    grantedTenant(admin, 'Live Org', {
      scenario: uniqueName('Live drill'),
      module: 'Ladders',
      levels: [
        { name: 'Marathon', maxTasks: MEASURED_TASKS + 1 },
        { name: 'Short', maxTasks: 8 },
      ],
    }),
  ]);
  progress = recordProgressPosts();
});

afterAll(async () => {
  progress?.restore();
  await headsets.stopAll();
  await browser?.close();
});

async function signedInPage(
  language: Language,
  setup?: (page: Page) => Promise<unknown>,
  landing?: string,
) {
  const page = await newPage(browser, language);
  pages.push(page);
  await setup?.(page);
  await signIn(page, tenant.email, tenant.password, landing);
  return page;
}

const indicator = (page: Page) => page.getByTestId('live-indicator');

async function waitForMode(
  page: Page,
  language: Language,
  mode: 'live' | 'polling',
  timeout = 15_000,
) {
  const label = tr(language, `common:live.${mode}`);
  await page
    .locator(`[data-testid="live-indicator"][data-mode="${mode}"]`)
    .filter({ hasText: label })
    .waitFor({ timeout });
}

describe('the live console', () => {
  it.each(LANGUAGES)(
    '%s: announces a headset enrolling with the shown code in the open Add headset dialog',
    async (language) => {
      const page = await signedInPage(language, undefined, '/devices');
      await waitForMode(page, language, 'live');
      await page
        .getByRole('button', { name: tr(language, 'devices:add') })
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name: tr(language, 'devices:addTitle') });
      const code = (await dialog.getByTestId('enrollment-code').textContent())!.trim();
      const joined = dialog.getByTestId('joined-headsets');
      await joined.getByText(tr(language, 'devices:waitingForHeadset')).waitFor();

      const names = [uniqueName('Pico'), uniqueName('Pico')];
      for (const name of names) {
        const { headset } = headsets.create({ name, type: 'pico', code, paceMs: 500 });
        await headset.start();
        await joined
          .getByText(
            tr(language, 'devices:joined', {
              name,
              type: tr(language, 'common:deviceType.pico'),
            }),
          )
          // 15 s, as the suite's other live waits: on a loaded machine a simulated headset's
          // enrolment once took over 5 s to reach the open dialog.
          .waitFor({ timeout: 15_000 });
      }
      await joined.getByText(tr(language, 'devices:joinedTitle', { count: 2 })).waitFor();
      await expectAccessible(page, `${language} add-headset live`, DIALOG_SCOPE);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      // The devices screen behind it shows them too, without a refresh.
      for (const name of names) {
        await page.getByTestId('device-card').filter({ hasText: name }).waitFor({ timeout: 5_000 });
      }
    },
  );

  // This test and the next run at once: each waits on its headset's tasks (20 at 600 ms, 8 at
  // 1.5 s) with a page, a headset and a trainee of its own. Each takes the test's own `expect`,
  // as tests that run at once cannot share the global one's `poll`.
  it.concurrent(
    'shows each task a headset finishes on the Active card as it is reported',
    async ({ expect }) => {
      const page = await signedInPage('en');
      const { headset } = await headsets.enroll(tenant.token, {
        name: uniqueName('Quest'),
        type: 'quest',
        paceMs: 600,
        successRate: 1,
      });
      await page.goto(`${baseUrl()}/sessions?tab=active`);
      await waitForMode(page, 'en', 'live');
      await page.getByText(tr('en', 'common:live.liveNote')).waitFor();
      const vrUser = uniqueName('Anna');
      await watchCompletedTasks(page, vrUser);

      const session = await startSession(tenant.token, {
        device_id: headset.deviceId!,
        level_id: tree.levels[0]!.id,
        vr_user_name: vrUser,
      });
      const card = page.getByTestId('active-session').filter({ hasText: vrUser });
      await card.waitFor({ timeout: 5_000 });
      await expectAccessible(page, 'en active card with its task strip');
      await screenshot(page, 'en', 'sessions-active-live');
      await waitForSessionStatus(tenant.token, session.id, 'completed', 60_000);

      // Every task showed on the card while the session ran, none before it was reported.
      const measured = await latencies(page, progress.postedAt, session.id, MEASURED_TASKS);
      expect(Math.min(...measured)).toBeGreaterThan(0);

      // Its detail, from the History: every task, with its result and score.
      await page.getByRole('tab', { name: tr('en', 'sessions:tabs.history') }).click();
      const row = page.getByRole('row').filter({ hasText: vrUser });
      await row.getByRole('button', { name: tr('en', 'common:sessionDetail.open') }).click();
      const dialog = page.getByRole('dialog', {
        name: tr('en', 'common:sessionDetail.title', { name: vrUser }),
      });
      const timeline = dialog.getByTestId('task-timeline');
      await timeline.waitFor();
      expect(await timeline.locator('tbody tr').count()).toBe(MEASURED_TASKS + 1);
      expect(
        await timeline.getByText(tr('en', 'common:tasks.state.passed'), { exact: true }).count(),
      ).toBe(MEASURED_TASKS + 1);
      await expectAccessible(page, 'en session detail', DIALOG_SCOPE);
      await screenshot(page, 'en', 'dialog-session-detail');
    },
  );

  it.concurrent(
    'says "polling" when the stream is cut, and the 5 s polling still brings every task',
    async ({ expect }) => {
      const language: Language = 'ru';
      // The stream is refused at the network: the console falls back to polling.
      let cut = true;
      const page = await signedInPage(language, async (p) => {
        // The page's clock runs as a real one until the reconnection below (the laptop's lid).
        await p.clock.install();
        await p.route('**/v1/events', (route) =>
          cut ? route.abort('connectionreset') : route.fallback(),
        );
      });
      const { headset } = await headsets.enroll(tenant.token, {
        name: uniqueName('Quest'),
        type: 'quest',
        paceMs: 1500,
        successRate: 1,
      });
      await page.goto(`${baseUrl()}/sessions?tab=active`);
      await waitForMode(page, language, 'polling');
      await page.getByText(tr(language, 'common:autoRefreshNote')).waitFor();
      const vrUser = uniqueName('Boris');
      await watchCompletedTasks(page, vrUser);
      // When each refresh of the running sessions was sent and how long it took to answer: the
      // console's 5 s cadence and the moment a refresh takes, as this machine has them right now.
      const refreshes: Array<{ startedAt: number; tookMs: number }> = [];
      page.on('requestfinished', (request) => {
        if (!request.url().includes('/v1/sessions/active')) return;
        const { startTime, responseEnd } = request.timing();
        if (responseEnd >= 0) refreshes.push({ startedAt: startTime, tookMs: responseEnd });
      });

      const session = await startSession(tenant.token, {
        device_id: headset.deviceId!,
        level_id: tree.levels[1]!.id,
        vr_user_name: vrUser,
      });
      await waitForSessionStatus(tenant.token, session.id, 'completed', 60_000);
      // The first four: each is on screen for more than a refresh before the session ends.
      const measured = await latencies(page, progress.postedAt, session.id, 4);
      console.log(`Polling, progress POST → shown: ${measured.join(', ')} ms`);
      // Each task is shown by the refresh after it: within the longest gap between two refreshes,
      // the slowest refresh, and 1 s to draw it (a task a refresh missed waits 5 s more). Both are
      // measured: on a machine at a load of 10 a refresh and its drawing once took 1.2 s, past the
      // fixed 6 s this bound was. The cadence itself stays the 5 s one, not the stream's 30 s.
      const starts = refreshes.map((refresh) => refresh.startedAt).sort((a, b) => a - b);
      const longestGapMs = Math.max(...starts.slice(1).map((start, i) => start - starts[i]!));
      const slowestRefreshMs = Math.max(...refreshes.map((refresh) => refresh.tookMs));
      console.log(
        `Polling: ${refreshes.length} refreshes, longest gap ${Math.round(longestGapMs)} ms, ` +
          `slowest ${Math.round(slowestRefreshMs)} ms`,
      );
      expect(longestGapMs).toBeLessThan(10_000);
      expect(Math.max(...measured)).toBeLessThan(longestGapMs + slowestRefreshMs + 1_000);
      await indicator(page).waitFor();
      expect(await indicator(page).getAttribute('data-mode')).toBe('polling');
      await screenshot(page, language, 'sessions-active-polling');

      // The session's detail, in Russian.
      await page.getByRole('tab', { name: tr(language, 'sessions:tabs.history') }).click();
      await page
        .getByRole('row')
        .filter({ hasText: vrUser })
        .getByRole('button', { name: tr(language, 'common:sessionDetail.open') })
        .click();
      const detail = page.getByRole('dialog', {
        name: tr(language, 'common:sessionDetail.title', { name: vrUser }),
      });
      await detail.getByTestId('task-timeline').waitFor();
      await screenshot(page, language, 'dialog-session-detail');
      await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: tr(language, 'sessions:tabs.active') }).click();

      // The network is back: the console reconnects by itself. Its pauses grow to 30 s at most
      // (± 20 %): rather than sit out the one under way, time jumps past it, as after a laptop's lid
      // was closed for that long.
      cut = false;
      await page.clock.fastForward(MAX_RECONNECT_PAUSE_MS);
      // An attempt refused just before the network came back pauses again after the jump: time
      // jumps on, in steps shorter than the stream's silence limit, until the console is live.
      await expect
        .poll(
          async () => {
            const mode = await indicator(page).getAttribute('data-mode');
            if (mode !== 'live') await page.clock.fastForward(RECONNECT_STEP_MS);
            return mode;
          },
          { timeout: 30_000, interval: 1_000 },
        )
        .toBe('live');
      await waitForMode(page, language, 'live');
      await page.getByText(tr(language, 'common:live.liveNote')).waitFor();
    },
  );
});
