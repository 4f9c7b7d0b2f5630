import { DIGEST_KINDS, type DigestEntry, type DigestKind } from './digest.ts';

/** The digest's mail in the recipient's language (Russian unless the account chose English). */

export type MailLanguage = 'ru' | 'en';

const WORDS = {
  ru: {
    subject: (count: number, day: string) => `Квалификации: изменений — ${count} (${day})`,
    intro: (organization: string) =>
      `Организация «${organization}»: со времени прошлой сводки у этих обучаемых изменился статус квалификации.`,
    heading: {
      expiring: 'Скоро истекает',
      expired: 'Истекла',
      overdue: 'Не получена к сроку',
    } satisfies Record<DigestKind, string>,
    until: 'действует до',
    due: 'срок',
    open: 'Открыть соответствие требованиям:',
    optOut: 'Сводку можно отключить в меню учётной записи консоли.',
  },
  en: {
    subject: (count: number, day: string) => `Qualifications: ${count} changes (${day})`,
    intro: (organization: string) =>
      `${organization}: since the last digest, these trainees' qualification status changed.`,
    heading: {
      expiring: 'Expiring soon',
      expired: 'Expired',
      overdue: 'Overdue',
    } satisfies Record<DigestKind, string>,
    until: 'valid until',
    due: 'due',
    open: 'Open the compliance view:',
    optOut: "You can turn this digest off in the console's account menu.",
  },
};

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

export function digestMail(
  language: MailLanguage,
  organizationName: string,
  entries: readonly DigestEntry[],
  day: string,
  publicUrl: string | undefined,
): { subject: string; text: string } {
  const words = WORDS[language];
  const lines = [words.intro(organizationName), ''];
  for (const kind of DIGEST_KINDS) {
    const ofKind = entries.filter((entry) => entry.kind === kind);
    if (ofKind.length === 0) continue;
    lines.push(`${words.heading[kind]} (${ofKind.length}):`);
    for (const entry of ofKind) {
      const name =
        language === 'en'
          ? (entry.qualificationNameEn ?? entry.qualificationName)
          : entry.qualificationName;
      const when = kind === 'overdue' ? words.due : words.until;
      lines.push(`- ${entry.vrUserName} — ${name}, ${when} ${dayOf(entry.at)}`);
    }
    lines.push('');
  }
  if (publicUrl) lines.push(words.open, `${publicUrl.replace(/\/$/, '')}/compliance`, '');
  lines.push(words.optOut);
  return { subject: words.subject(entries.length, day), text: `${lines.join('\n')}\n` };
}
