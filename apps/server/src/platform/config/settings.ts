import net from 'node:net';
import path from 'node:path';

/**
 * One environment variable, declared once: its name, what it means, its default and how its text
 * is read. `loadConfig` reads the environment through these declarations, README's environment
 * table is written from them (`npm run docs:config`), and the configuration test runs every one.
 */
export interface Setting<T> {
  readonly name: string;
  /** What it does, as README's table says it. */
  readonly meaning: string;
  /** The text read when the variable is unset or empty; undefined: the setting stays unset. */
  readonly default?: string;
  /** README's default column when the default's text alone would not say it. */
  readonly shownDefault?: string;
  /** A refused value is not repeated in the message (it would land in the log). */
  readonly secret?: boolean;
  /**
   * Reads the text, or throws a SettingProblem saying what it must be. `env` is the whole
   * environment being read, for a value allowed only beside another (PASSWORD_HASH_COST=test).
   */
  readonly parse: (text: string, env: NodeJS.ProcessEnv) => T;
}

/** Settings, grouped as the configuration object has them. */
export interface SettingTree {
  readonly [key: string]: Setting<unknown> | SettingTree;
}

/** The configuration a tree of settings reads into. */
export type ValueOf<S> =
  S extends Setting<infer T> ? T : { -readonly [K in keyof S]: ValueOf<S[K]> };

/** What a setting's text must be (thrown by a parser; the message gets the variable's name). */
export class SettingProblem extends Error {}

function isSetting(node: Setting<unknown> | SettingTree): node is Setting<unknown> {
  return typeof node.parse === 'function';
}

/** Every setting of a tree, in declaration order. */
export function settingsOf(tree: SettingTree): Setting<unknown>[] {
  return Object.values(tree).flatMap((node) => (isSetting(node) ? [node] : settingsOf(node)));
}

/**
 * The value of one setting in `env`: its default when the variable is unset or empty. (A setting
 * without a default is declared with undefined among its values.)
 */
export function readSetting<T>(setting: Setting<T>, env: NodeJS.ProcessEnv): T {
  const given = env[setting.name];
  const text = given === undefined || given === '' ? setting.default : given;
  return text === undefined ? (undefined as T) : setting.parse(text, env);
}

/**
 * Reads every setting of the tree from `env`. Bad values are all reported at once, one line each
 * naming its variable, so an operator fixes the environment in one go.
 */
export function readSettings<S extends SettingTree>(tree: S, env: NodeJS.ProcessEnv): ValueOf<S> {
  const problems: string[] = [];
  const read = (node: SettingTree): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(node).map(([key, child]) => {
        if (!isSetting(child)) return [key, read(child)];
        try {
          return [key, readSetting(child, env)];
        } catch (error) {
          if (!(error instanceof SettingProblem)) throw error;
          const shown = child.secret ? '' : `, got "${env[child.name]}"`;
          problems.push(`${child.name} ${error.message}${shown}`);
          return [key, undefined];
        }
      }),
    );
  const value = read(tree);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return value as ValueOf<S>;
}

interface Declared {
  name: string;
  meaning: string;
  shownDefault?: string;
  secret?: boolean;
}

/** A setting read by its own parser (which throws SettingProblem on a bad value). */
export function setting<T>(
  declared: Declared & { default?: string; parse: (text: string, env: NodeJS.ProcessEnv) => T },
) {
  return declared as Setting<T>;
}

/** A whole number within bounds (0 and up unless told). */
export function integer(
  declared: Declared & { default: number; min?: number; max?: number },
): Setting<number>;
export function integer(
  declared: Declared & { default?: undefined; min?: number; max?: number },
): Setting<number | undefined>;
export function integer({
  default: fallback,
  min = 0,
  max,
  ...declared
}: Declared & { default?: number; min?: number; max?: number }): Setting<number | undefined> {
  const range =
    max !== undefined
      ? `an integer from ${min} to ${max}`
      : min === 0
        ? 'a non-negative integer'
        : `an integer of at least ${min}`;
  return {
    ...declared,
    default: fallback === undefined ? undefined : String(fallback),
    parse: (text) => {
      const value = Number(text);
      if (!Number.isInteger(value) || value < min || (max !== undefined && value > max)) {
        throw new SettingProblem(`must be ${range}`);
      }
      return value;
    },
  };
}

/** Any characters a shell, a unit file and a log line agree on: refuses blanks and controls. */
function checkText(text: string): string {
  if (text.trim() === '') throw new SettingProblem('must not be blank');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\u0000-\u001f\u007f]/.test(text)) {
    throw new SettingProblem(
      'must not hold control characters (a line break or carriage return left in the file?)',
    );
  }
  return text;
}

/** Free text; `check` adds the setting's own rule (it returns a problem, or undefined). */
export function text(
  declared: Declared & { default: string; check?: (text: string) => string | undefined },
): Setting<string>;
export function text(
  declared: Declared & { default?: undefined; check?: (text: string) => string | undefined },
): Setting<string | undefined>;
export function text({
  check,
  ...declared
}: Declared & {
  default?: string;
  check?: (text: string) => string | undefined;
}): Setting<string | undefined> {
  return {
    ...declared,
    parse: (value) => {
      checkText(value);
      const problem = check?.(value);
      if (problem) throw new SettingProblem(problem);
      return value;
    },
  };
}

/** A directory, resolved against the working directory the server starts in. */
export function directory(declared: Declared & { default: string }): Setting<string> {
  return { ...declared, parse: (value) => path.resolve(checkText(value)) };
}

/** One of a fixed set of words. */
export function oneOf<const W extends string>(
  declared: Declared & { default: W; words: readonly W[] },
): Setting<W> {
  const { words, ...rest } = declared;
  return {
    ...rest,
    parse: (value) => {
      if (!(words as readonly string[]).includes(value)) {
        throw new SettingProblem(`must be one of ${words.join(', ')}`);
      }
      return value as W;
    },
  };
}

/** An absolute URL with one of the given schemes, kept as written. */
export function url(
  declared: Declared & { schemes: readonly string[] },
): Setting<string | undefined> {
  const { schemes, ...rest } = declared;
  const problem = `must be a URL starting with ${schemes.map((scheme) => `${scheme}://`).join(' or ')}`;
  return {
    ...rest,
    default: undefined,
    parse: (value) => {
      let parsed: URL;
      try {
        parsed = new URL(checkText(value));
      } catch (error) {
        if (error instanceof SettingProblem) throw error;
        throw new SettingProblem(problem);
      }
      if (!schemes.includes(parsed.protocol.slice(0, -1))) throw new SettingProblem(problem);
      return value;
    },
  };
}

/** The entries of a comma-separated list, trimmed, empty ones dropped. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** An IPv4 or IPv6 address, or a CIDR range of either (`10.0.0.0/8`, `fd00::/8`). */
export function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = net.isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
