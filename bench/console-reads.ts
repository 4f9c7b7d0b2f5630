/** The console reads `npm run bench:console` measures (console.bench.ts), with their URLs. */

// ---------------------------------------------------------------------------------------------
// The console reads. URLs are built from the run: `offset(n)` is n at scale 1 and scales with the
// fill (the deep pages stay as deep into the biggest organisation's lists), `range(days)` is the
// last `days` UTC days ending today. `unpaged`: what the console reads today when the server
// refuses the paging parameters (measured only then, as information).
// ---------------------------------------------------------------------------------------------

export interface ReadContext {
  orgId: string;
  /** The scenario granted to the most organisations. */
  scenarioId: string;
  offset(atFullScale: number): number;
  range(days: number): string;
  q: string;
}
export type Token = 'client' | 'admin';
export interface ReadSpec {
  name: string;
  method: 'GET';
  url: (c: ReadContext) => string;
  token: Token;
  unpaged?: (c: ReadContext) => string;
}

export const READS: ReadSpec[] = [
  {
    name: 'VR users · first page',
    method: 'GET',
    token: 'client',
    url: () => '/v1/vr-users?limit=10',
  },
  {
    name: 'VR users · deep page',
    method: 'GET',
    token: 'client',
    url: (c) => `/v1/vr-users?limit=10&offset=${c.offset(4000)}`,
  },
  {
    name: 'VR users · search',
    method: 'GET',
    token: 'client',
    url: (c) => `/v1/vr-users?limit=10&q=${c.q}`,
  },
  {
    name: 'VR users · by session count',
    method: 'GET',
    token: 'client',
    url: () => '/v1/vr-users?limit=10&sort=session_count&order=desc',
  },
  {
    name: 'devices · first page',
    method: 'GET',
    token: 'client',
    url: () => '/v1/devices?limit=10',
    unpaged: () => '/v1/devices',
  },
  {
    name: 'admin devices · first page',
    method: 'GET',
    token: 'admin',
    url: () => '/v1/admin/devices/all?limit=10',
    unpaged: () => '/v1/admin/devices/all',
  },
  {
    name: 'admin devices · deep page',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/devices/all?limit=10&offset=${c.offset(15000)}`,
    unpaged: () => '/v1/admin/devices/all',
  },
  {
    name: 'history · first page',
    method: 'GET',
    token: 'client',
    url: () => '/v1/sessions?limit=10',
  },
  {
    name: 'history · deep page',
    method: 'GET',
    token: 'client',
    url: (c) => `/v1/sessions?limit=10&offset=${c.offset(90000)}`,
  },
  {
    name: 'history · completed',
    method: 'GET',
    token: 'client',
    url: () => '/v1/sessions?status=completed&limit=10',
  },
  {
    name: 'organisations with stats',
    method: 'GET',
    token: 'admin',
    url: () => '/v1/admin/organizations?include_stats=true&limit=10',
    unpaged: () => '/v1/admin/organizations?include_stats=true',
  },
  {
    name: 'organisation analytics · 30 days',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/organizations/${c.orgId}/analytics?days=30`,
  },
  { name: 'stats', method: 'GET', token: 'admin', url: () => '/v1/admin/stats' },
  {
    name: 'stats range · 7 days',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/stats/range?${c.range(7)}`,
  },
  {
    name: 'stats range · 30 days',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/stats/range?${c.range(30)}`,
  },
  {
    name: 'stats range · 90 days',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/stats/range?${c.range(90)}`,
  },
  {
    name: 'stats range · 365 days',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/stats/range?${c.range(365)}`,
  },
  {
    name: 'stats export · 365 days',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/stats/export?${c.range(365)}`,
  },
  // Staff's own statistics (issue #42): the biggest organisation's, over the same UTC days.
  {
    name: 'organisation stats · 30 days',
    method: 'GET',
    token: 'client',
    url: (c) => `/v1/stats?${c.range(30)}`,
  },
  {
    name: 'organisation stats · 365 days',
    method: 'GET',
    token: 'client',
    url: (c) => `/v1/stats?${c.range(365)}`,
  },
  {
    name: 'organisation stats export · 365 days',
    method: 'GET',
    token: 'client',
    url: (c) => `/v1/stats/export?${c.range(365)}`,
  },
  {
    name: 'admin users',
    method: 'GET',
    token: 'admin',
    url: () => '/v1/admin/users?limit=10',
    unpaged: () => '/v1/admin/users',
  },
  {
    name: 'admin scenarios',
    method: 'GET',
    token: 'admin',
    url: () => '/v1/admin/scenarios?limit=10',
    unpaged: () => '/v1/admin/scenarios',
  },
  {
    name: 'scenario access matrix',
    method: 'GET',
    token: 'admin',
    // The console's page: 10 scenarios, each with its first 10 grants and their counts.
    url: () => '/v1/admin/scenarios/access?limit=10',
    unpaged: () => '/v1/admin/scenarios/access',
  },
  {
    name: "scenario access · a scenario's 2nd page",
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/scenarios/${c.scenarioId}/access?limit=10&offset=10`,
  },
];
export const RANGE_7 = 'stats range · 7 days';
export const RANGE_365 = 'stats range · 365 days';
/** The history export: the History tab's query (no filter: every ended session), as CSV. */
export const HISTORY_EXPORT = '/v1/sessions/export';
