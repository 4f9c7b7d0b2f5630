// `npm run docs:config`: writes README's environment table from the configuration's declarations
// (apps/server/src/platform/config/config.ts), so the two never disagree; `--check` only says
// whether README is current (the repo suite checks it too: scripts/checks/config-docs.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import prettier from 'prettier';
import { CONFIG_SETTINGS } from '../apps/server/src/platform/config/config.ts';
import { settingsOf } from '../apps/server/src/platform/config/settings.ts';

export const README = path.resolve(import.meta.dirname, '../README.md');
const BEGIN = '<!-- environment: begin (npm run docs:config writes this table) -->';
const END = '<!-- environment: end -->';

/** The table, formatted as Prettier formats README. */
export async function environmentTable(): Promise<string> {
  const rows = settingsOf(CONFIG_SETTINGS).map((setting) => {
    const shown =
      setting.shownDefault ?? (setting.default === undefined ? 'unset' : `\`${setting.default}\``);
    return `| \`${setting.name}\` | ${shown} | ${setting.meaning.replaceAll('|', '\\|')} |`;
  });
  const table = ['| variable | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
  const options = await prettier.resolveConfig(README);
  return (await prettier.format(table, { ...options, parser: 'markdown' })).trimEnd();
}

/** README with its environment table replaced by the one the declarations make. */
export async function withCurrentTable(readme: string): Promise<string> {
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (begin < 0 || end < begin) {
    throw new Error(
      `README.md has lost the markers around its environment table: ${BEGIN} … ${END}`,
    );
  }
  return `${readme.slice(0, begin + BEGIN.length)}\n\n${await environmentTable()}\n\n${readme.slice(end)}`;
}

if (process.argv[1] === import.meta.filename) {
  const readme = fs.readFileSync(README, 'utf8');
  const current = await withCurrentTable(readme);
  if (process.argv.includes('--check')) {
    if (current !== readme) {
      console.error('README.md: the environment table is out of date; run npm run docs:config');
      process.exit(1);
    }
  } else if (current !== readme) {
    fs.writeFileSync(README, current);
    console.log('README.md: environment table written');
  } else {
    console.log('README.md: environment table already current');
  }
}
