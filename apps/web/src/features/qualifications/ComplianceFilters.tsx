import '@mantine/dates/styles.css';
import 'dayjs/locale/ru';
import { Box, Checkbox, Flex, Select, TextInput } from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { IconCalendar, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useQualificationList } from '../../api/qualifications';
import { QUALIFICATION_STATUSES } from '../../components/QualificationBadge';
import { ListFilters } from '../../components/ListFilters';
import { dateInputFormat } from '../../lib/format';
import type { ComplianceState } from './compliance-state';

/** Qualifications offered in the filter: an organisation defines a few dozen at most. */
const QUALIFICATION_OPTIONS = 500;

/**
 * The compliance view's filters: the trainee's name, status, qualification, overdue only, and the
 * day the statuses are derived at ("as of": who will have lapsed by the audit on that day).
 */
export function ComplianceFilters({ state }: { state: ComplianceState }) {
  const { t, i18n } = useTranslation('qualifications');
  const { list } = state;
  const { filters, setFilters } = list;
  const qualifications = useQualificationList({ limit: QUALIFICATION_OPTIONS, sort: 'name' });
  const active = Object.keys(filters).length + (list.q ? 1 : 0);
  return (
    <DatesProvider settings={{ locale: i18n.language === 'en' ? 'en' : 'ru', firstDayOfWeek: 1 }}>
      <ListFilters active={active}>
        <Flex wrap="wrap" gap="sm" mb="sm" align="flex-end" data-testid="compliance-filters">
          <Box style={{ flex: '2 1 200px' }}>
            <TextInput
              label={t('filter.search')}
              placeholder={t('filter.searchPlaceholder')}
              leftSection={<IconSearch size={16} />}
              value={list.search}
              onChange={(event) => list.setSearch(event.currentTarget.value)}
            />
          </Box>
          <Box style={{ flex: '1 1 170px' }}>
            <Select
              label={t('filter.status')}
              placeholder={t('filter.anyStatus')}
              data={QUALIFICATION_STATUSES.map((status) => ({
                value: status,
                label: t(`status.${status}`),
              }))}
              value={filters.status ?? null}
              onChange={(value) => setFilters({ status: value })}
              clearable
              clearButtonProps={{ 'aria-label': t('common:clear') }}
              comboboxProps={{ withinPortal: true }}
            />
          </Box>
          <Box style={{ flex: '1 1 200px' }}>
            <Select
              label={t('filter.qualification')}
              placeholder={t('filter.anyQualification')}
              data={(qualifications.data?.qualifications ?? []).map((qualification) => ({
                value: qualification.id,
                label: qualification.name,
              }))}
              value={filters.qualification_id ?? null}
              onChange={(value) => setFilters({ qualification_id: value })}
              searchable
              clearable
              clearButtonProps={{ 'aria-label': t('common:clear') }}
              nothingFoundMessage={t('filter.nothingFound')}
              comboboxProps={{ withinPortal: true }}
            />
          </Box>
          <Box style={{ flex: '1 1 170px' }}>
            <DatePickerInput
              label={t('filter.asOf')}
              placeholder={t('filter.today')}
              title={t('filter.asOfHint')}
              value={filters.as_of ?? null}
              onChange={(day) => setFilters({ as_of: day })}
              clearable
              clearButtonProps={{ 'aria-label': t('common:clear') }}
              valueFormat={dateInputFormat(i18n.language)}
              leftSection={<IconCalendar size={16} />}
              popoverProps={{ withinPortal: true }}
              data-testid="compliance-as-of"
            />
          </Box>
          <Box style={{ flex: '0 1 auto' }} pb={8}>
            <Checkbox
              label={t('filter.overdueOnly')}
              checked={Boolean(filters.overdue)}
              onChange={(event) =>
                setFilters({ overdue: event.currentTarget.checked ? 'true' : null })
              }
            />
          </Box>
        </Flex>
      </ListFilters>
    </DatesProvider>
  );
}
