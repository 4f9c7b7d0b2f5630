import { Type, type Static } from 'typebox';
import { Nullable, Text, Timestamp } from './common.ts';

/** VR app builds (APK per headset platform) and their signed, expiring download links. */

export const DOWNLOAD_LINK_TTL_SECONDS = 3600;
export const APP_BUILD_MAX_BYTES = 2 * 1024 * 1024 * 1024;
export const APP_BUILD_CONTENT_TYPES = [
  'application/vnd.android.package-archive',
  'application/octet-stream',
] as const;

export const AppPlatform = Type.Union([Type.Literal('oculus'), Type.Literal('pico')]);
export type AppPlatform = Static<typeof AppPlatform>;
export const APP_PLATFORMS = ['oculus', 'pico'] as const satisfies readonly AppPlatform[];

export const AppPlatformParams = Type.Object(
  { platform: AppPlatform },
  { additionalProperties: false },
);
export type AppPlatformParams = Static<typeof AppPlatformParams>;

export const AppBuild = Type.Object({
  platform: AppPlatform,
  /** As the admin gave it when uploading; null for a file placed by hand. */
  version: Nullable(Type.String()),
  size_bytes: Type.Integer(),
  uploaded_at: Timestamp,
});

/** POST /v1/admin/vr-app/builds/:platform?version=1.4.2 */
export const AppBuildUploadQuery = Type.Object(
  { version: Type.Optional(Text({ maxLength: 64, nonBlank: true })) },
  { additionalProperties: false },
);
export type AppBuildUploadQuery = Static<typeof AppBuildUploadQuery>;
export type AppBuild = Static<typeof AppBuild>;

export const AppBuildList = Type.Object({ builds: Type.Array(AppBuild) });
export type AppBuildList = Static<typeof AppBuildList>;

/** A platform without a build has a null URL; both are null before the first upload. */
export const DownloadLinks = Type.Object({
  oculus_url: Nullable(Type.String()),
  pico_url: Nullable(Type.String()),
  /** The builds behind the links, with their version and size (what staff install). */
  builds: Type.Array(AppBuild),
  generated_at: Timestamp,
  expires_in_seconds: Type.Integer(),
});
export type DownloadLinks = Static<typeof DownloadLinks>;

/** The query of a signed file URL: unix-seconds expiry and hex HMAC-SHA256 of "platform:expires". */
export const DownloadFileQuery = Type.Object(
  {
    expires: Type.Integer({ minimum: 0, maximum: 99_999_999_999 }),
    signature: Text({ minLength: 1, maxLength: 128 }),
  },
  { additionalProperties: false },
);
export type DownloadFileQuery = Static<typeof DownloadFileQuery>;
