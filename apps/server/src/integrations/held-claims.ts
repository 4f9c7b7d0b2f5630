import { SLOW_AFTER_TIMEOUTS, type ClaimFairness, type ClaimedDelivery } from './delivery-store.ts';

/**
 * What one process's dispatcher holds (claimed, not yet recorded or released), by organisation
 * and by receiver host, so its next claim leaves alone those that hold all they may: their
 * deliveries would only wait for their own slots, and take the room of another organisation's.
 * Each may hold twice its send slots (a wave sending, the next one ready).
 */

type Held = Pick<
  ClaimedDelivery,
  'organization_id' | 'integration_id' | 'url' | 'consecutive_timeouts'
>;

export const organizationKey = (delivery: Pick<Held, 'organization_id'>) =>
  `org:${delivery.organization_id}`;

/** The receiver's host: its sends share the host's slots, whoever's integration it is. */
export function hostKey(delivery: Pick<Held, 'url'>): string {
  const hostname = URL.canParse(delivery.url) ? new URL(delivery.url).hostname : delivery.url;
  return `host:${hostname.toLowerCase()}`;
}

export class HeldClaims {
  total = 0;
  private readonly byKey = new Map<string, number>();
  /** Integrations held now: their host, and whether their receiver is slowed (one at a time). */
  private readonly integrations = new Map<string, { host: string; slow: boolean; count: number }>();
  /** Keys the last claim left out: one coming free wakes the loop. */
  private readonly leftOut = new Set<string>();

  constructor(private readonly caps: { organization: number; host: number }) {}

  add(delivery: Held): void {
    this.total += 1;
    for (const key of [organizationKey(delivery), hostKey(delivery)]) this.bump(key, 1);
    const integration = this.integrations.get(delivery.integration_id) ?? {
      host: hostKey(delivery),
      slow: false,
      count: 0,
    };
    integration.count += 1;
    integration.slow = delivery.consecutive_timeouts >= SLOW_AFTER_TIMEOUTS;
    this.integrations.set(delivery.integration_id, integration);
  }

  /** One is recorded or released; true when a claim left out something that now has room. */
  remove(delivery: Held): boolean {
    this.total -= 1;
    let freed = false;
    for (const key of [organizationKey(delivery), hostKey(delivery)]) {
      const count = this.bump(key, -1);
      if (this.leftOut.has(key) && count <= this.capOf(key) / 2) {
        this.leftOut.delete(key);
        freed = true;
      }
    }
    const integration = this.integrations.get(delivery.integration_id);
    if (integration && --integration.count === 0) {
      this.integrations.delete(delivery.integration_id);
    }
    return freed;
  }

  /** What the next claim leaves alone. */
  fairness(): ClaimFairness {
    const fullOrganizations: string[] = [];
    for (const [key, count] of this.byKey) {
      if (key.startsWith('org:') && count >= this.caps.organization) {
        fullOrganizations.push(key.slice('org:'.length));
        this.leftOut.add(key);
      }
    }
    const fullIntegrations: string[] = [];
    for (const [id, integration] of this.integrations) {
      const hostFull = (this.byKey.get(integration.host) ?? 0) >= this.caps.host;
      if (hostFull) this.leftOut.add(integration.host);
      if (hostFull || integration.slow) fullIntegrations.push(id);
    }
    return { fullOrganizations, fullIntegrations, perOrganization: this.caps.organization };
  }

  private capOf(key: string): number {
    return key.startsWith('org:') ? this.caps.organization : this.caps.host;
  }

  private bump(key: string, by: 1 | -1): number {
    const count = (this.byKey.get(key) ?? 0) + by;
    if (count === 0) this.byKey.delete(key);
    else this.byKey.set(key, count);
    return count;
  }
}
