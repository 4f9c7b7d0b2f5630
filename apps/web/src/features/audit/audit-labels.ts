import {
  AUDIT_ACTIONS,
  AUDIT_REDACTED,
  type AuditAction,
  type AuditActor,
  type AuditEvent,
  inLanguage,
} from '@vrtc/contract';
import type { TFunction } from 'i18next';

/**
 * The words of the audit log: each action, outcome and target type in the console's language,
 * and the action filter's choices. Every action of the contract has a label in both dictionaries
 * (audit.test.tsx holds them to it), so a new action is named before it is shown.
 */

/** The thing an action is about: `session` of `session.started`. */
export type AuditActionGroup = AuditAction extends `${infer Group}.${string}` ? Group : never;

const groupOf = (action: AuditAction) => action.slice(0, action.indexOf('.')) as AuditActionGroup;

/** The action groups in the contract's order (sign-in first, the log itself last). */
export const AUDIT_ACTION_GROUPS: readonly AuditActionGroup[] = [
  ...new Set(AUDIT_ACTIONS.map(groupOf)),
];

/**
 * What the action filter sends: a group as its dotted prefix (`level.`, which `level_option.*`
 * does not match), or one action exactly.
 */
export const groupFilter = (group: AuditActionGroup) => `${group}.`;

const FILTER_VALUES: ReadonlySet<string> = new Set<string>([
  ...AUDIT_ACTION_GROUPS.map(groupFilter),
  ...AUDIT_ACTIONS,
]);

/** Whether a URL's `action` is one of the filter's choices (others are ignored). */
export const isActionFilter = (value: string) => FILTER_VALUES.has(value);

/** "Session started"; an action the console does not know yet shows its code. */
export function actionLabel(t: TFunction, action: string): string {
  return t(`audit:action.${action}`, { defaultValue: action });
}

/** The action filter's choices: per group, "all of the group" first, then each action. */
export function actionFilterData(t: TFunction) {
  return AUDIT_ACTION_GROUPS.map((group) => ({
    group: t(`audit:group.${group}`),
    items: [
      {
        value: groupFilter(group),
        label: t('audit:filter.allOfGroup', { group: t(`audit:group.${group}`) }),
      },
      ...AUDIT_ACTIONS.filter((action) => groupOf(action) === group).map((action) => ({
        value: action,
        label: actionLabel(t, action),
      })),
    ],
  }));
}

/**
 * Who acted: an account's email and its role then, or "Headset", or "System", or a SCIM token
 * by its name ("SCIM token «Entra ID»"; the name is kept in the actor's email field).
 */
export function actorParts(t: TFunction, actor: AuditActor): { who: string; role?: string } {
  if (actor.type === 'scim_token' && actor.email) {
    return { who: `${t('audit:actorType.scim_token')} «${actor.email}»` };
  }
  if (actor.type !== 'account') return { who: t(`audit:actorType.${actor.type}`) };
  return {
    who: actor.email ?? t('audit:actorType.account'),
    ...(actor.role ? { role: t(`common:role.${actor.role}`) } : {}),
  };
}

/** Who acted, in one line: "anna@org.ru (Client)", "Headset", "System". */
export function actorText(t: TFunction, actor: AuditActor): string {
  const { who, role } = actorParts(t, actor);
  return role ? `${who} (${role})` : who;
}

/**
 * What the event is about: its type in words and its label (else its id). The English console
 * shows the English name the event kept beside the Russian one; an event without one (written
 * before, or about something named in one language) shows the label it has.
 */
export function targetText(t: TFunction, target: AuditEvent['target'], language: string) {
  const label = target.label === null ? null : inLanguage(language, target.label, target.label_en);
  return {
    type: t(`audit:targetType.${target.type}`, { defaultValue: target.type }),
    label: label || target.id || t('common:none'),
  };
}

/** A value before or after a change, as text: null is a dash, secrets stay hidden. */
export function changeValueText(t: TFunction, value: unknown): string {
  if (value === null || value === undefined) return t('common:none');
  if (value === AUDIT_REDACTED) return t('audit:detail.redacted');
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? t('common:yes') : t('common:no');
  return JSON.stringify(value);
}
