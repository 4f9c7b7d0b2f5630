import type { HistorySession, TrainingRecord, TrainingResult } from '@vrtc/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useContentText } from '../../lib/content-text';
import {
  formatDate,
  formatDateRange,
  formatDateTime,
  formatDuration,
  formatTime,
  localTimeZone,
} from '../../lib/format';
import classes from './TrainingRecordPaper.module.css';
import { EmailWithBreak } from './TrainingRecordParts';

/** Text as a CSS string: margin boxes can only say what the style sheet says. */
const cssString = (text: string) => `"${text.replace(/[\\"]/g, '\\$&').replace(/[\r\n]+/g, ' ')}"`;

/** Margin boxes inherit nothing from the page's body: their type is set here. */
const MARGIN_TYPE = 'font-family: sans-serif; font-size: 7.5pt; color: #444;';

/**
 * The page's margin boxes (Chromium 131 and later print them): what the record is and whose, and
 * "page N of M" in the console's language, on every sheet.
 */
function pageRules(pageOf: string, footer: string) {
  const [before = '', between = '', after = ''] = pageOf.split(/\{page\}|\{pages\}/);
  const counter = `${cssString(before)} counter(page) ${cssString(between)} counter(pages) ${cssString(after)}`;
  return `@page {
  size: A4 portrait;
  margin: 15mm 15mm 18mm;
  @bottom-left { content: ${cssString(footer)}; ${MARGIN_TYPE} }
  @bottom-right { content: ${counter}; ${MARGIN_TYPE} }
}`;
}

/**
 * Adds the page's rules to the document while the paper is mounted. A constructed sheet rather
 * than a <style> element: it needs no place in the page's markup, and a browser without them
 * (jsdom's parser knows no margin boxes) just prints without the footer.
 */
function usePageRules(rules: string) {
  useEffect(() => {
    if (!('adoptedStyleSheets' in document) || typeof CSSStyleSheet === 'undefined') return;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(rules);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return () => {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((one) => one !== sheet);
    };
  }, [rules]);
}

/** Date above time: the pair fits a narrow column without breaking inside either. */
function DateTime({ value }: { value: string | null }) {
  const { i18n } = useTranslation();
  if (!value) return <>{formatDate(value, i18n.language)}</>;
  return (
    <>
      {formatDate(value, i18n.language)}
      <br />
      {formatTime(value, i18n.language)}
    </>
  );
}

function resultText(t: (key: string) => string, result: TrainingResult) {
  const verdict = result.success ? t('vrUsers:record.passed') : t('vrUsers:record.notPassed');
  return `${result.completed_tasks}/${result.max_tasks}, ${verdict}`;
}

/** The record's levels, as on screen, in plain type sized to the page. */
function LevelsTable({ record }: { record: TrainingRecord }) {
  const { t } = useTranslation();
  const content = useContentText();
  const widths = [18, 11, 12, 12, 13, 12, 12, 10];
  return (
    <table className={classes.table} data-testid="paper-levels">
      <colgroup>
        {widths.map((width, index) => (
          <col key={index} style={{ width: `${width}%` }} />
        ))}
      </colgroup>
      <thead>
        <tr>
          <th>{t('vrUsers:record.col.content')}</th>
          <th>{t('vrUsers:record.col.attempts')}</th>
          <th>{t('vrUsers:record.col.completions')}</th>
          <th>{t('vrUsers:record.col.best')}</th>
          <th>{t('vrUsers:record.col.last')}</th>
          <th>{t('vrUsers:record.col.firstCompleted')}</th>
          <th>{t('vrUsers:record.col.lastCompleted')}</th>
          <th>{t('vrUsers:record.col.time')}</th>
        </tr>
      </thead>
      <tbody>
        {record.levels.map((level) => (
          <tr key={`${level.level_id}:${level.last.session_id}`}>
            <td>
              {content.text(level.scenario_name, level.scenario_name_en)}
              <div className={classes.dimmed}>
                {content.text(level.module_name, level.module_name_en)} —{' '}
                {content.text(level.level_name, level.level_name_en)},{' '}
                {level.revisions.length === 1
                  ? t('common:levelRevision', {
                      number: level.level_number,
                      revision: level.revisions[0],
                    })
                  : t('vrUsers:record.levelRevisions', {
                      number: level.level_number,
                      revisions: level.revisions.join(', '),
                    })}
              </div>
            </td>
            <td>{level.attempts}</td>
            <td>{level.completions}</td>
            <td>{resultText(t, level.best)}</td>
            <td>
              {resultText(t, level.last)}
              <div className={classes.dimmed}>
                <DateTime value={level.last.started_at} />
              </div>
            </td>
            <td>
              <DateTime value={level.first_completed_at} />
            </td>
            <td>
              <DateTime value={level.last_completed_at} />
            </td>
            <td>{formatDuration(t, level.training_seconds)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Every session the record counts, oldest first: when, what, on which headset, how, and by whom. */
function SessionsTable({ sessions }: { sessions: HistorySession[] }) {
  const { t } = useTranslation();
  const content = useContentText();
  const widths = [5, 13, 23, 12, 14, 15, 18];
  return (
    <table className={classes.table} data-testid="paper-sessions">
      <colgroup>
        {widths.map((width, index) => (
          <col key={index} style={{ width: `${width}%` }} />
        ))}
      </colgroup>
      <thead>
        <tr>
          <th>{t('vrUsers:col.no')}</th>
          <th>{t('vrUsers:record.paper.startedAt')}</th>
          <th>{t('vrUsers:record.col.content')}</th>
          <th>{t('vrUsers:record.paper.headset')}</th>
          <th>{t('vrUsers:record.paper.result')}</th>
          <th>{t('vrUsers:col.duration')}</th>
          <th>{t('vrUsers:record.paper.startedBy')}</th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((s, index) => (
          <tr key={s.id}>
            <td>{index + 1}</td>
            <td>
              <DateTime value={s.started_at} />
            </td>
            <td>
              {content.text(s.scenario_name, s.scenario_name_en)}
              <div className={classes.dimmed}>
                {content.text(s.module_name, s.module_name_en)} —{' '}
                {content.text(s.level_name, s.level_name_en)},{' '}
                {t('common:levelRevision', { number: s.level_number, revision: s.level_revision })}
              </div>
            </td>
            <td>{s.device_name}</td>
            <td>
              {s.completed_tasks}/{s.total_tasks},{' '}
              {s.success ? t('vrUsers:record.passed') : t('vrUsers:record.notPassed')}
              <div className={classes.dimmed}>{t(`common:status.${s.status}`)}</div>
            </td>
            <td>{formatDuration(t, s.duration_seconds)}</td>
            <td>
              {s.started_by_email ? (
                <EmailWithBreak email={s.started_by_email} />
              ) : (
                t('common:none')
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The moment the record is put on paper: now, and again when the browser starts printing. */
function usePrintTime() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const update = () => setNow(new Date());
    window.addEventListener('beforeprint', update);
    return () => window.removeEventListener('beforeprint', update);
  }, []);
  return now;
}

/**
 * The trainee's record as an inspector files it (printed to A4 portrait; hidden on screen): the
 * organisation, the trainee, the period its sessions cover and when it was generated; the levels;
 * every session with who started it; signature lines with dates; page numbers on every sheet.
 */
export function TrainingRecordPaper({
  record,
  sessions,
}: {
  record: TrainingRecord;
  sessions: HistorySession[];
}) {
  const { t, i18n } = useTranslation();
  const now = usePrintTime();
  const language = i18n.language;
  const { totals } = record;
  const first = sessions[0];
  const last = sessions[sessions.length - 1];
  const period =
    first && last
      ? formatDateRange(first.started_at, last.ended_at ?? last.started_at, language)
      : t('vrUsers:record.paper.noPeriod');
  const zone = localTimeZone();
  const pageOf = t('vrUsers:record.paper.pageOf', { page: '{page}', pages: '{pages}' });
  const footer = `${t('vrUsers:record.title')} · ${record.vr_user.name} · ${record.organization_name}`;
  usePageRules(pageRules(pageOf, footer));
  return (
    <div className={classes.paper} data-testid="record-paper">
      <div data-testid="print-header">
        <h1 className={classes.title}>{t('vrUsers:record.title')}</h1>
        {/* The spaces between a term and its value keep "Organization: X" whole when copied. */}
        <dl className={classes.facts}>
          <dt>{t('vrUsers:record.organization')}:</dt> <dd>{record.organization_name}</dd>
          <dt>{t('vrUsers:record.trainee')}:</dt> <dd>{record.vr_user.name}</dd>
          <dt>{t('vrUsers:record.paper.period')}:</dt> <dd data-testid="record-period">{period}</dd>
          <dt>{t('vrUsers:record.paper.generated')}:</dt>{' '}
          <dd>
            {formatDateTime(now, language)} ({zone})
          </dd>
        </dl>
        <p className={classes.totals}>
          {t('vrUsers:record.totals.attempts')}: {totals.attempts} ·{' '}
          {t('vrUsers:record.totals.completions')}: {totals.completions} ·{' '}
          {t('vrUsers:record.totals.levelsAttempted')}: {totals.levels_attempted} ·{' '}
          {t('vrUsers:record.totals.levelsCompleted')}: {totals.levels_completed} ·{' '}
          {t('vrUsers:record.totals.time')}: {formatDuration(t, totals.training_seconds)}
        </p>
      </div>
      <h2 className={classes.heading}>{t('vrUsers:record.paper.levels')}</h2>
      {record.levels.length === 0 ? (
        <p>{t('vrUsers:record.empty')}</p>
      ) : (
        <LevelsTable record={record} />
      )}
      <h2 className={classes.heading}>
        {t('vrUsers:record.sessions')} ({sessions.length})
      </h2>
      {sessions.length === 0 ? (
        <p>{t('vrUsers:noSessions')}</p>
      ) : (
        <SessionsTable sessions={sessions} />
      )}
      <div className={classes.signatures}>
        {(['trainee', 'instructor', 'inspector'] as const).map((who) => (
          <div key={who}>
            <strong>{t(`vrUsers:record.signature.${who}`)}</strong>
            <div className={classes.signatureLine}>{t('vrUsers:record.signature.line')}</div>
            <div className={classes.signatureLine}>{t('vrUsers:record.signature.date')}</div>
          </div>
        ))}
      </div>
    </div>
  );
}
