import type { Organization } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useDeleteOrganization, useSaveOrganization } from '../../api/organizations';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { holdingsText } from '../../lib/error-text';

/** What the organisation holds ("1 account, 2 headsets"), or undefined when nothing. */
function organizationHoldings(organization: Organization): string | undefined {
  const stats = organization.stats;
  if (!stats) return undefined;
  const holdings = {
    accounts: stats.total_users,
    vr_users: stats.total_vr_users,
    devices: stats.total_devices,
    sessions: stats.total_sessions,
  };
  return Object.values(holdings).some((count) => count > 0) ? holdingsText(holdings) : undefined;
}

/**
 * Deleting an organisation after a yes; one that still holds something is offered to be
 * deactivated instead. 409 organization_in_use names what it holds now (data may have come
 * meanwhile).
 */
export function useRemoveOrganization() {
  const { t } = useTranslation('adminOrganizations');
  const deleteOrganization = useConfirmedAction(useDeleteOrganization(), {
    success: t('deleted'),
    error: t('deleteFailed'),
  });
  const deactivateOrganization = useConfirmedAction(useSaveOrganization(), {
    success: t('deactivated'),
    error: t('updateFailed'),
  });

  async function remove(organization: Organization) {
    const holdings = organizationHoldings(organization);
    if (holdings) {
      await refuseDeletion(organization, holdings);
      return;
    }
    await deleteOrganization(organization.id, {
      title: t('deleteTitle'),
      message: t('deleteConfirm', { name: organization.name }),
      confirmLabel: t('common:delete'),
      danger: true,
    });
  }

  /**
   * An organisation that holds accounts, VR users, headsets or sessions cannot be deleted (the
   * server refuses): the dialog says what it holds and offers to deactivate it instead, or, when
   * it is inactive already, to try anyway (its figures may be a moment old).
   */
  async function refuseDeletion(organization: Organization, holdings: string) {
    const holds = t('deleteHolds', { name: organization.name, holdings });
    if (organization.active) {
      await deactivateOrganization(
        { id: organization.id, name: organization.name, active: false },
        {
          title: t('deleteHoldsTitle'),
          message: `${holds} ${t('deactivateInstead')}`,
          confirmLabel: t('deactivate'),
          danger: true,
        },
      );
      return;
    }
    await deleteOrganization(organization.id, {
      title: t('deleteHoldsTitle'),
      message: `${holds} ${t('alreadyInactive')}`,
      confirmLabel: t('deleteAnyway'),
      danger: true,
    });
  }

  return remove;
}
