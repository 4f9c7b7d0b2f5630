/**
 * The notification every server process hears when someone's access may have changed: a sign-in
 * ended, an account's password, role, organisation or active flag changed or the account went,
 * an organisation was (de)activated or deleted. Database triggers send it (migration 0009), in
 * the transaction of the change, so no route can change access without it; on PostgreSQL it
 * reaches every process, on the embedded database this one.
 */
export const ACCESS_CHANNEL = 'vrtc_access';

export type AccessChange = { accountId: string } | { organizationId: string };

export function parseAccessChange(payload: string): AccessChange | undefined {
  const [kind, id] = payload.split(':', 2);
  if (!id) return undefined;
  if (kind === 'account') return { accountId: id };
  if (kind === 'organization') return { organizationId: id };
  return undefined;
}
