import { Readable } from 'node:stream';
import {
  APP_BUILD_CONTENT_TYPES,
  APP_BUILD_MAX_BYTES,
  AppBuild,
  AppBuildList,
  AppPlatformParams,
  DownloadFileQuery,
  DownloadLinks,
  ErrorBody,
} from '@vrtc/contract';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppInstance } from '../platform/app-types.ts';
import type { ServiceContext } from '../platform/context.ts';
import { AppError } from '../platform/errors.ts';
import { signingSecret } from '../platform/signing-secret.ts';
import * as downloads from './downloads.service.ts';

const tags = ['vr-app'];

/** Admin: upload a build (the raw APK as the body) and list the builds present. */
export function downloadsAdminRoutes(app: AppInstance, ctx: ServiceContext) {
  app.get(
    '/v1/admin/vr-app/builds',
    { schema: { tags, response: { 200: AppBuildList } } },
    async () => ({ builds: await downloads.listBuilds(ctx) }),
  );

  // The APK parser passes the request stream through untouched, and only in this scope.
  app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>();
    scope.addContentTypeParser([...APP_BUILD_CONTENT_TYPES], (_request, payload, done) => {
      done(null, payload);
    });
    scope.post(
      '/v1/admin/vr-app/builds/:platform',
      {
        bodyLimit: APP_BUILD_MAX_BYTES,
        schema: {
          tags,
          description:
            'The request body is the raw APK (content-type application/vnd.android.package-archive ' +
            'or application/octet-stream, at most 2 GiB). It replaces the platform’s build once ' +
            'fully received; an interrupted upload leaves the previous build in place.',
          params: AppPlatformParams,
          response: { 201: AppBuild, 400: ErrorBody, 413: ErrorBody, 415: ErrorBody },
        },
      },
      async (request, reply) => {
        if (!(request.body instanceof Readable)) {
          throw new AppError(
            'unsupported_media_type',
            `Send the APK file as the request body with content-type ${APP_BUILD_CONTENT_TYPES.join(' or ')}`,
          );
        }
        const length = request.headers['content-length'];
        const build = await downloads.saveBuild(
          ctx,
          request.params.platform,
          request.body,
          length === undefined ? undefined : Number(length),
        );
        reply.status(201);
        return build;
      },
    );
  });
}

/** Client: fresh signed links to the builds. */
export function downloadsClientRoutes(app: AppInstance, ctx: ServiceContext) {
  const secret = signingSecret(ctx.config);
  app.get(
    '/v1/vr-app/download',
    {
      schema: {
        tags,
        description:
          'Signed links valid for expires_in_seconds (3600); a platform without a build has a null ' +
          'URL. 404 when there is no build at all.',
        response: { 200: DownloadLinks, 404: ErrorBody },
      },
    },
    (request) => downloads.downloadLinks(ctx, secret, publicBase(ctx, request)),
  );
}

/** Public: the file behind a signed link (browsers and headsets follow it without a token). */
export function downloadFileRoutes(app: AppInstance, ctx: ServiceContext) {
  const secret = signingSecret(ctx.config);
  app.get(
    '/v1/vr-app/files/:platform',
    {
      schema: {
        tags,
        security: [],
        description:
          'Streams the APK as an attachment. Needs no token: the expiry and HMAC signature in the ' +
          'query are the authorisation. 403 download_link_invalid when the signature is wrong ' +
          'or the link has expired; 404 not_found when the build is gone.',
        params: AppPlatformParams,
        querystring: DownloadFileQuery,
      },
    },
    async (request, reply) => {
      const build = await downloads.openSignedBuild(
        ctx,
        secret,
        request.params.platform,
        request.query,
      );
      return reply
        .type(downloads.APK_CONTENT_TYPE)
        .header('content-length', build.size)
        .header('content-disposition', `attachment; filename="${build.fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(build.stream);
    },
  );
}

function publicBase(ctx: ServiceContext, request: FastifyRequest): string {
  return ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
}
