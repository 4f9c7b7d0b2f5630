// `node e2e/migrate-template.mjs DIR`: creates the embedded database in DIR (a DATA_DIR) with the
// compiled server's own code and applies every migration, then closes it. The browser suite's
// servers start on copies of it (global-setup.ts, own-server.ts). A file, not `node --eval`: the
// database runs in a worker thread, which takes the process's flags and refuses `--input-type`.
import path from 'node:path';

const dist = path.resolve(import.meta.dirname, '../../server/dist/platform/database');
const { openDatabase } = await import(path.join(dist, 'db.js'));
const { migrate } = await import(path.join(dist, 'migrate.js'));
const database = await openDatabase({ pgliteDir: path.resolve(process.argv[2]) });
await migrate(database.db);
await database.close();
// The embedded database's thread may keep the event loop alive after closing.
process.exit(0);
