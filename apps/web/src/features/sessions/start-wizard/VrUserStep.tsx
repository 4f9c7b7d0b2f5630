import { SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { vrUserOptions } from '../../../api/vr-users';
import { ServerSelect } from '../../../components/ServerSelect';
import { errorText } from '../../../lib/error-text';
import type { WizardAction, WizardState } from '../wizard';

/**
 * Step 1: an existing VR user (searched on the server by name, notes or external id) or the name
 * of a new one.
 */
export function VrUserStep({
  state,
  dispatch,
}: {
  state: WizardState;
  dispatch: Dispatch<WizardAction>;
}) {
  const { t } = useTranslation();
  // The first VR users by name: the picker's own first answer (one request for both).
  const first = useQuery(vrUserOptions(''));
  return (
    <Stack gap="md" maw={480}>
      <SegmentedControl
        value={state.vrUserMode}
        onChange={(mode) =>
          dispatch({ type: 'setVrUserMode', mode: mode as WizardState['vrUserMode'] })
        }
        aria-label={t('sessions:wizard.vrUserMode')}
        data={[
          { value: 'existing', label: t('sessions:wizard.existingVrUser') },
          { value: 'new', label: t('sessions:wizard.newVrUser') },
        ]}
      />
      {state.vrUserMode === 'existing' ? (
        <>
          <ServerSelect
            label={t('sessions:wizard.vrUser')}
            placeholder={t('sessions:wizard.vrUserPlaceholder')}
            clearable
            required
            nothingFoundMessage={t('sessions:wizard.nothingFound')}
            options={vrUserOptions}
            value={state.vrUserId}
            valueLabel={state.vrUserId ? state.vrUserName : undefined}
            onChange={(_id, option) =>
              dispatch({
                type: 'selectVrUser',
                user: option ? { id: option.value, name: option.label } : null,
              })
            }
            error={first.error ? errorText(first.error, t('common:loadError')) : undefined}
          />
          {first.data?.length === 0 && !first.error ? (
            <Text size="sm" c="dimmed">
              {t('sessions:wizard.noVrUsers')}
            </Text>
          ) : null}
        </>
      ) : (
        <TextInput
          label={t('sessions:wizard.newVrUserName')}
          description={t('sessions:wizard.newVrUserHint')}
          required
          maxLength={200}
          value={state.newVrUserName}
          onChange={(event) =>
            dispatch({ type: 'setNewVrUserName', name: event.currentTarget.value })
          }
        />
      )}
    </Stack>
  );
}
