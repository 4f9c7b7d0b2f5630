import { useAuth } from './AuthProvider';

/**
 * Whether the signed-in account may change its organisation's data: everyone but an `auditor`,
 * who reads what staff read and changes nothing (every mutating route answers it 403). Screens
 * show an auditor no action it cannot take; while the account is not known yet, none is shown.
 */
export function useCanChange(): boolean {
  const { user } = useAuth().state;
  return user !== undefined && user.role !== 'auditor';
}
