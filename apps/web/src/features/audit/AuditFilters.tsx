import '@mantine/dates/styles.css';
import 'dayjs/locale/ru';
import { Box, Flex, Select, TextInput } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { organizationOptions, useOrganization } from '../../api/organizations';
import { ServerSelect } from '../../components/ServerSelect';
import { isUuid, SEARCH_DEBOUNCE_MS } from '../../lib/list-state';
import { actionFilterData } from './audit-labels';
import type { AuditListState } from './audit-list-state';
import { DayRangeFilter } from '../../components/DayRangeFilter';
import { ListFilters } from '../../components/ListFilters';

/**
 * A typed filter (an actor's or a target's id) that reaches the URL 300 ms after the last
 * keystroke, as the lists' search does, and only when `accepts` it; a value set elsewhere (the
 * event dialog's "events by this actor", a link) shows in the box.
 */
function TypedFilter({
  label,
  placeholder,
  hint,
  value,
  onCommit,
  accepts = () => true,
  invalidText,
}: {
  label: string;
  placeholder: string;
  /** How to come by a value (the box is narrow; shown on hover and read by screen readers). */
  hint: string;
  value: string | undefined;
  onCommit: (value: string | null) => void;
  accepts?: (value: string) => boolean;
  invalidText?: string;
}) {
  const [text, setText] = useState(value ?? '');
  const committed = useRef(value ?? '');
  useEffect(() => {
    if ((value ?? '') !== committed.current) {
      committed.current = value ?? '';
      setText(value ?? '');
    }
  }, [value]);
  // The screen's newest callback, without restarting the wait when the screen renders again.
  const commit = useRef(onCommit);
  commit.current = onCommit;
  const trimmed = text.trim();
  const valid = trimmed === '' || accepts(trimmed);
  useEffect(() => {
    if (!valid || trimmed === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = trimmed;
      commit.current(trimmed || null);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [trimmed, valid]);
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      value={text}
      onChange={(event) => setText(event.currentTarget.value)}
      title={hint}
      error={valid ? undefined : invalidText}
      spellCheck={false}
      autoComplete="off"
    />
  );
}

/**
 * The audit log's filters: organisation (admins), action (a whole group or one action), actor,
 * target and days (UTC). Each as wide as its words need, one row on a laptop, one under the other
 * on a phone.
 */
export function AuditFilters({ list, admin }: { list: AuditListState; admin: boolean }) {
  const { t, i18n } = useTranslation();
  const { filters, setFilters } = list;
  const filterOrganization = useOrganization(admin ? filters.organization_id : undefined);
  const actions = useMemo(() => actionFilterData(t), [t]);
  return (
    <DatesProvider settings={{ locale: i18n.language === 'en' ? 'en' : 'ru', firstDayOfWeek: 1 }}>
      <ListFilters active={Object.keys(filters).length}>
        <Flex wrap="wrap" gap="sm" mb="sm" data-testid="audit-filters">
          {admin ? (
            <Box style={{ flex: '1 1 170px' }}>
              <ServerSelect
                label={t('audit:filter.organization')}
                placeholder={t('audit:filter.allOrganizations')}
                options={organizationOptions}
                value={filters.organization_id ?? null}
                valueLabel={filterOrganization.data?.name}
                onChange={(id) => setFilters({ organization_id: id })}
                clearable
                clearButtonProps={{ 'aria-label': t('common:clear') }}
                nothingFoundMessage={t('audit:filter.nothingFound')}
              />
            </Box>
          ) : null}
          <Box style={{ flex: '1 1 200px' }}>
            <Select
              label={t('audit:filter.action')}
              placeholder={t('audit:filter.allActions')}
              data={actions}
              value={filters.action ?? null}
              onChange={(value) => setFilters({ action: value })}
              searchable
              clearable
              clearButtonProps={{ 'aria-label': t('common:clear') }}
              nothingFoundMessage={t('audit:filter.nothingFound')}
              maxDropdownHeight={360}
              comboboxProps={{ withinPortal: true }}
            />
          </Box>
          <Box style={{ flex: '1 1 150px' }}>
            <TypedFilter
              label={t('audit:filter.actor')}
              placeholder={t('audit:filter.anyActor')}
              hint={t('audit:filter.actorHint')}
              value={filters.actor_id}
              accepts={isUuid}
              invalidText={t('audit:filter.notAnId')}
              onCommit={(id) => setFilters({ actor_id: id })}
            />
          </Box>
          <Box style={{ flex: '1 1 150px' }}>
            <TypedFilter
              label={t('audit:filter.target')}
              placeholder={t('audit:filter.anyTarget')}
              hint={t('audit:filter.targetHint')}
              value={filters.target_id}
              onCommit={(id) => setFilters({ target_id: id })}
            />
          </Box>
          <Box style={{ flex: '1 1 200px' }}>
            <DayRangeFilter
              label={t('audit:filter.days')}
              placeholder={t('audit:filter.anyDay')}
              hint={t('audit:filter.daysHint')}
              from={filters.from}
              to={filters.to}
              onChange={setFilters}
            />
          </Box>
        </Flex>
      </ListFilters>
    </DatesProvider>
  );
}
