import {
  Alert,
  Modal,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  Input,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconSignature } from '@tabler/icons-react';
import type { EvaluationResult, RecordQualification } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useSignEvaluation } from '../../api/qualifications';
import { useCurrentUser } from '../../auth/AuthProvider';
import { FormFooter } from '../../components/FormFooter';
import { useNow } from '../../lib/useNow';
import { errorCodeOf, errorText } from '../../lib/error-text';
import { formatDateTime } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useContentText } from '../../lib/content-text';
import { useResetOnOpen } from '../../lib/use-reset-on-open';

export interface SignEvaluationModalProps {
  opened: boolean;
  vrUserId: string;
  vrUserName: string;
  /** The qualifications offered (the trainee's, archived ones left out). */
  qualifications: RecordQualification[];
  /** The one to start with (the line the dialog was opened from). */
  qualificationId?: string;
  onClose: () => void;
}

interface Values {
  qualification_id: string | null;
  result: EvaluationResult;
  meaning: string;
  notes: string;
  password: string;
}

/**
 * Signs a practical evaluation (21 CFR 11.50 / 11.200): the qualification, the result, what the
 * signature means and notes; the signer re-enters their own password. Before it is given, the
 * dialog shows the signature exactly as the record will keep it (the signer's name and email, the
 * moment, its meaning). A wrong password is told in the form: nothing was signed.
 */
export function SignEvaluationModal(props: SignEvaluationModalProps) {
  const { opened, vrUserId, vrUserName, qualifications, qualificationId, onClose } = props;
  const { t, i18n } = useTranslation('qualifications');
  const text = useContentText();
  const me = useCurrentUser();
  const now = useNow(15_000);
  const sign = useSignEvaluation();
  const defaultMeaning = (result: EvaluationResult) => t(`sign.defaultMeaning.${result}`);
  const form = useForm<Values>({
    initialValues: {
      qualification_id: null,
      result: 'pass',
      meaning: '',
      notes: '',
      password: '',
    },
    validate: {
      qualification_id: (value) => (value ? null : t('sign.qualificationRequired')),
      meaning: (value) => (value.trim() ? null : t('sign.meaningRequired')),
      password: (value) => (value ? null : t('sign.passwordRequired')),
    },
  });
  useResetOnOpen(opened, qualificationId, () => {
    form.setValues({
      qualification_id: qualificationId ?? qualifications[0]?.qualification_id ?? null,
      result: 'pass',
      meaning: defaultMeaning('pass'),
      notes: '',
      password: '',
    });
    form.clearErrors();
  });

  const submit = form.onSubmit(async (values) => {
    try {
      await sign.mutateAsync({
        vrUserId,
        body: {
          qualification_id: values.qualification_id!,
          result: values.result,
          meaning: values.meaning.trim(),
          notes: values.notes.trim() || null,
          password: values.password,
        },
      });
      notifySuccess(t('sign.done'));
      onClose();
    } catch (error) {
      if (errorCodeOf(error, ['signature_rejected'])) {
        // Emptied first: changing a field clears its error, so the refusal is set after.
        form.setFieldValue('password', '');
        form.setFieldError('password', errorText(error, t('common:error')));
        return;
      }
      notifyError(errorText(error, t('common:error')));
    }
  });

  const chosen = qualifications.find((q) => q.qualification_id === form.values.qualification_id);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={t('sign.title', { name: vrUserName })}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select
            label={t('sign.qualification')}
            required
            data={qualifications.map((q) => ({ value: q.qualification_id, label: text.name(q) }))}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('qualification_id')}
          />
          <Input.Wrapper label={t('sign.result')} required>
            <SegmentedControl
              fullWidth
              aria-label={t('sign.result')}
              data={[
                { value: 'pass', label: t('result.pass') },
                { value: 'fail', label: t('result.fail') },
              ]}
              value={form.values.result}
              onChange={(value) => {
                const result = value as EvaluationResult;
                // The suggested meaning follows the result, unless it was written by hand.
                if (form.values.meaning === defaultMeaning(form.values.result))
                  form.setFieldValue('meaning', defaultMeaning(result));
                form.setFieldValue('result', result);
              }}
            />
          </Input.Wrapper>
          <Textarea
            label={t('sign.meaning')}
            description={t('sign.meaningHint')}
            required
            autosize
            minRows={2}
            maxLength={500}
            {...form.getInputProps('meaning')}
          />
          <Textarea
            label={t('sign.notes')}
            autosize
            minRows={2}
            maxLength={5000}
            {...form.getInputProps('notes')}
          />
          <Alert
            color="blue"
            variant="light"
            icon={<IconSignature />}
            title={t('sign.previewTitle')}
            data-testid="signature-preview"
          >
            <Text size="sm">
              {t('sign.preview', {
                name: me.email,
                email: me.email,
                at: formatDateTime(now, i18n.language),
                qualification: chosen ? text.name(chosen) : '—',
                trainee: vrUserName,
                result: t(`result.${form.values.result}`),
                meaning: form.values.meaning.trim() || '—',
              })}
            </Text>
          </Alert>
          <PasswordInput
            label={t('sign.password')}
            description={t('sign.passwordHint')}
            required
            autoComplete="current-password"
            {...form.getInputProps('password')}
          />
          <FormFooter submitLabel={t('sign.submit')} pending={sign.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
