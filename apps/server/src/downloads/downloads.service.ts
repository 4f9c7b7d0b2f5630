import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  APP_BUILD_MAX_BYTES,
  APP_PLATFORMS,
  DOWNLOAD_LINK_TTL_SECONDS,
  type AppBuild,
  type AppPlatform,
  type DownloadFileQuery,
  type DownloadLinks,
} from '@vrtc/contract';
import type { Config } from '../platform/config/config.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError } from '../platform/service/errors.ts';
import { iso } from '../platform/service/serialize.ts';
import type { Caller } from '../platform/http/caller.ts';
import { changedFields, recordAudit } from '../audit/audit.ts';

/**
 * VR app builds: one APK per platform at `${DATA_DIR}/builds/<platform>.apk` (a file copied there
 * by hand counts too), handed out through URLs signed with HMAC-SHA256 that expire after an hour.
 */

export const NO_DOWNLOAD_LINK = 'Download link is not available at the moment.';
export const INVALID_DOWNLOAD_LINK = 'Download link is invalid or has expired';
export const APK_CONTENT_TYPE = 'application/vnd.android.package-archive';
/** An APK is a ZIP archive, whose first local file header starts with these four bytes. */
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const notAnApk = () =>
  new AppError(
    'unsupported_media_type',
    'The file is not an Android app (APK): it does not begin as a ZIP archive does',
    { headers: { connection: 'close' } },
  );

export const buildsDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'builds');
const buildPath = (config: Pick<Config, 'dataDir'>, platform: AppPlatform) =>
  path.join(buildsDir(config), `${platform}.apk`);
/** What the admin said of the build (its version), beside the file: `<platform>.json`. */
const buildInfoPath = (config: Pick<Config, 'dataDir'>, platform: AppPlatform) =>
  path.join(buildsDir(config), `${platform}.json`);

async function readBuildVersion(config: Config, platform: AppPlatform): Promise<string | null> {
  try {
    const info = JSON.parse(await fs.promises.readFile(buildInfoPath(config, platform), 'utf8'));
    return typeof info?.version === 'string' ? info.version : null;
  } catch {
    return null; // no file (placed by hand, or uploaded before versions), or unreadable
  }
}
export const downloadFileName = (platform: AppPlatform) => `vr-training-${platform}.apk`;

async function statBuild(config: Config, platform: AppPlatform): Promise<AppBuild | null> {
  try {
    const stat = await fs.promises.stat(buildPath(config, platform));
    if (!stat.isFile()) return null;
    const version = await readBuildVersion(config, platform);
    return { platform, version, size_bytes: stat.size, uploaded_at: iso(stat.mtime) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

export async function listBuilds(ctx: ServiceContext): Promise<AppBuild[]> {
  const builds = await Promise.all(APP_PLATFORMS.map((p) => statBuild(ctx.config, p)));
  return builds.filter((b): b is AppBuild => b !== null);
}

/**
 * Streams an uploaded APK to a temporary file beside the build, then renames it into place, so a
 * download never sees a half-written build and a failed upload leaves the previous one.
 */
export async function saveBuild(
  ctx: ServiceContext,
  caller: Caller,
  platform: AppPlatform,
  body: Readable,
  declaredLength: number | undefined,
  version?: string,
): Promise<AppBuild> {
  const tooLarge = () =>
    new AppError('payload_too_large', 'The build is larger than 2 GiB', {
      headers: { connection: 'close' },
    });
  if (declaredLength !== undefined && declaredLength > APP_BUILD_MAX_BYTES) throw tooLarge();

  const dir = buildsDir(ctx.config);
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${platform}.${crypto.randomBytes(6).toString('hex')}.upload`);
  const counter = apkGate(tooLarge);
  // Opened before streaming, so the cleanup below never races the file's creation.
  const out = (await fs.promises.open(temp, 'wx', 0o600)).createWriteStream();
  try {
    await pipeline(body, counter.stream, out);
    const size = counter.size();
    if (size === 0) throw new AppError('bad_request', 'The build file is empty');
    const uploadedAt = ctx.clock.now();
    await fs.promises.utimes(temp, uploadedAt, uploadedAt);
    const cleanVersion = version?.trim() || null;
    // The version first, then the file: a reader never pairs a new file with an old version.
    const info = `${temp}.json`;
    await fs.promises.writeFile(info, JSON.stringify({ version: cleanVersion }));
    const before = await statBuild(ctx.config, platform);
    const build = {
      platform,
      version: cleanVersion,
      size_bytes: size,
      uploaded_at: iso(uploadedAt),
    };
    // The build is files, not rows: its event commits only once the files are in place, so a
    // failed replacement leaves none (a commit failing after the renames would leave the build
    // without its event, the one way round this cannot rule out).
    await ctx.db.transaction().execute(async (trx) => {
      await recordAudit(trx, {
        by: caller,
        at: uploadedAt,
        action: 'app_build.uploaded',
        organizationId: null,
        target: { type: 'app_build', id: platform, label: cleanVersion },
        changes: changedFields(
          { version: before?.version ?? null, size_bytes: before?.size_bytes ?? null },
          { version: cleanVersion, size_bytes: size },
        ),
      });
      await fs.promises.rename(info, buildInfoPath(ctx.config, platform));
      await fs.promises.rename(temp, buildPath(ctx.config, platform));
    });
    return build;
  } catch (error) {
    out.destroy();
    await fs.promises.rm(temp, { force: true });
    await fs.promises.rm(`${temp}.json`, { force: true });
    throw uploadFailure(error);
  }
}

/**
 * Passes an upload through while counting it: past the size limit, or when its first bytes are not
 * a zip's (an APK is one), the stream fails at once instead of filling the disk.
 */
function apkGate(tooLarge: () => AppError): { stream: Transform; size: () => number } {
  let size = 0;
  let head = Buffer.alloc(0);
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > APP_BUILD_MAX_BYTES) return callback(tooLarge());
      if (head.length < ZIP_SIGNATURE.length) {
        head = Buffer.concat([head, chunk.subarray(0, ZIP_SIGNATURE.length - head.length)]);
        if (head.length === ZIP_SIGNATURE.length && !head.equals(ZIP_SIGNATURE)) {
          return callback(notAnApk());
        }
      }
      callback(null, chunk);
    },
    flush(callback) {
      callback(size > 0 && head.length < ZIP_SIGNATURE.length ? notAnApk() : null);
    },
  });
  return { stream, size: () => size };
}

/** A failed upload as the uploader should hear it: a cut connection is their 400, not our 500. */
function uploadFailure(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return new AppError('bad_request', 'The upload was interrupted', {
      headers: { connection: 'close' },
    });
  }
  return error;
}

const sign = (secret: string, platform: AppPlatform, expires: number) =>
  crypto.createHmac('sha256', secret).update(`${platform}:${expires}`).digest('hex');

/**
 * Signed links to the current builds; `baseUrl` is PUBLIC_URL or the request's own origin. No
 * build yet is an answer, not an error: both links are null, so the console says "no build yet"
 * without a failed request in the browser's console.
 */
export async function downloadLinks(
  ctx: ServiceContext,
  secret: string,
  baseUrl: string,
): Promise<DownloadLinks> {
  const now = ctx.clock.now();
  const expires = Math.floor(now.getTime() / 1000) + DOWNLOAD_LINK_TTL_SECONDS;
  const base = baseUrl.replace(/\/+$/, '');
  const [oculus, pico] = await Promise.all(APP_PLATFORMS.map((p) => statBuild(ctx.config, p)));
  const url = (platform: AppPlatform) =>
    `${base}/v1/vr-app/files/${platform}?expires=${expires}&signature=${sign(secret, platform, expires)}`;
  return {
    oculus_url: oculus ? url('oculus') : null,
    pico_url: pico ? url('pico') : null,
    builds: [oculus, pico].filter((build): build is AppBuild => build !== null),
    generated_at: iso(now),
    expires_in_seconds: DOWNLOAD_LINK_TTL_SECONDS,
  };
}

export interface OpenedBuild {
  stream: Readable;
  size: number;
  fileName: string;
}

/** Checks a signed link and opens the build it points at (403 when invalid or expired). */
export async function openSignedBuild(
  ctx: ServiceContext,
  secret: string,
  platform: AppPlatform,
  query: DownloadFileQuery,
): Promise<OpenedBuild> {
  const expected = Buffer.from(sign(secret, platform, query.expires));
  const given = Buffer.from(query.signature);
  const valid = given.length === expected.length && crypto.timingSafeEqual(given, expected);
  if (!valid || query.expires * 1000 <= ctx.clock.now().getTime()) {
    throw new AppError('download_link_invalid', INVALID_DOWNLOAD_LINK);
  }
  let handle: fs.promises.FileHandle;
  try {
    // The open file survives a new upload renamed over it mid-download.
    handle = await fs.promises.open(buildPath(ctx.config, platform), 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new AppError('not_found', NO_DOWNLOAD_LINK);
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new AppError('not_found', NO_DOWNLOAD_LINK);
    return {
      stream: handle.createReadStream(),
      size: stat.size,
      fileName: downloadFileName(platform),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
