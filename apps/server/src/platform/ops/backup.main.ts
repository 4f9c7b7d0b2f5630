// `npm run backup -- FILE` and `npm run restore -- FILE [--force]`: the embedded database, builds
// and signing secret of DATA_DIR (backup.ts; docs/operations.md). Reads the same environment as
// the server (DATA_DIR, DATABASE_URL). Exit codes: 0 done, 1 refused or failed (one line says why),
// 2 wrong usage.
import { loadConfig, type Config } from '../config/config.ts';
import { BackupError } from './backup-socket.ts';
import { createBackup, restoreBackup } from './backup.ts';

const USAGE =
  'usage: npm run backup -- FILE            back up DATA_DIR (the server may be running)\n' +
  '       npm run restore -- FILE [--force]  restore into DATA_DIR (the server must be stopped)';

const say = (line: string) => process.stdout.write(`${line}\n`);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const describe = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([name, count]) => `${count} ${name.replace(/_/g, ' ')}`)
    .join(', ');

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const force = rest.includes('--force');
  const files = rest.filter((arg) => arg !== '--force');
  if ((command !== 'backup' && command !== 'restore') || files.length !== 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const file = files[0]!;
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`${command} refused: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    if (command === 'backup') {
      if (force) throw new BackupError('--force applies to restore only');
      const result = await createBackup(config, file);
      say(`Backup written: ${result.file} (${mib(result.bytes)})`);
      say(`  from ${config.dataDir}, ${result.manifest.taken_from}`);
      say(`  ${describe(result.manifest.counts)}`);
      say(`  files: ${result.manifest.files.join(', ') || 'none besides the database'}`);
      if (config.signingSecret) {
        say(
          '  SIGNING_SECRET is set in the environment: keep it with this backup (not in DATA_DIR)',
        );
      }
    } else {
      const result = await restoreBackup(config, file, { force });
      say(`Restored ${file} into ${config.dataDir}`);
      say(`  backup of ${result.manifest.created_at}, ${result.manifest.taken_from}`);
      say(`  ${describe(result.counts)}`);
      if (result.replacedInto) say(`  what was there before is in ${result.replacedInto}`);
      say('  Start the server; it applies any migration the backup predates.');
    }
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      process.stderr.write(`${command} refused: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`${command} failed: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}

process.exit(await main(process.argv.slice(2)));
