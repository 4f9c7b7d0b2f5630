import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import type { ScormVersion } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadLmsPackage } from '../api/lms';
import { useFileExport } from '../lib/use-file-export';

export interface ExportForLmsDialogProps {
  opened: boolean;
  onClose: () => void;
  /** What the package trains: a level, or a qualification (its first level not yet passed). */
  target: { level_id: string } | { qualification_id: string };
  /** Its name, as the dialog's title says it. */
  name: string;
}

/**
 * "Export for LMS" (docs/lms.md): a SCORM 1.2 or 2004 package of a level or a qualification.
 * Each download carries a new package key, listed (and revocable) on the LMS packages screen.
 */
export function ExportForLmsDialog({ opened, onClose, target, name }: ExportForLmsDialogProps) {
  const { t } = useTranslation();
  const [version, setVersion] = useState<ScormVersion>('1.2');
  const file = useFileExport({
    download: () => downloadLmsPackage(target, version),
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
