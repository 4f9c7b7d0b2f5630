import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { ScormVersion } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadLmsPackage, lmsKeys, type LmsTarget } from '../api/lms';
import { useAuth } from '../auth/AuthProvider';
import { useFileExport } from '../lib/use-file-export';

export interface ExportForLmsDialogProps {
  opened: boolean;
  onClose: () => void;
  /** What the package trains: a level, or a qualification (its first level not yet passed). */
  target: LmsTarget;
  /** Its name, as the dialog's title says it. */
  name: string;
}

/**
 * "Export for LMS" (docs/lms.md): a SCORM 1.2 or 2004 package of a level or a qualification.
 * Each download carries a new package key, listed (and revocable) on the LMS packages screen.
 */
export function ExportForLmsDialog({ opened, onClose, target, name }: ExportForLmsDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [version, setVersion] = useState<ScormVersion>('1.2');
  const file = useFileExport({
    download: async () => {
      const zip = await downloadLmsPackage(target, version);
      // The download minted a key: the LMS packages screen lists it when next shown.
      void queryClient.invalidateQueries({ queryKey: lmsKeys.all });
      onClose();
      return zip;
    },
    doneText: () => t('lms:exported'),
    failedText: () => t('lms:exportFailed'),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('lms:exportTitle', { name })}>
      <Stack>
        <Text size="sm">{t('lms:exportHint')}</Text>
        <Radio.Group
          label={t('lms:version')}
          value={version}
          onChange={(value) => setVersion(value as ScormVersion)}
        >
          <Stack gap="xs" mt="xs">
            <Radio value="1.2" label="SCORM 1.2" />
            <Radio value="2004" label={t('lms:version2004')} />
          </Stack>
        </Radio.Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button loading={file.exporting} onClick={() => void file.start()}>
            {t('lms:download')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The "Export for LMS" button with its dialog, for a level card or a qualification's page:
 * `<ExportForLmsButton target={{ qualification_id: id }} name={name} />`. Auditors, who change
 * nothing, do not see it (an export mints a package key).
 */
export function ExportForLmsButton({ target, name }: { target: LmsTarget; name: string }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const staff = useAuth().state.user?.role !== 'auditor';
  if (!staff) return null;
  return (
    <>
      <Button
        size="compact-xs"
        variant="light"
        leftSection={<IconSchool size={14} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        {t('lms:exportButton')}
      </Button>
      <ExportForLmsDialog
        opened={opened}
        onClose={() => setOpened(false)}
        target={target}
        name={name}
      />
    </>
  );
}
