import { Readable } from 'node:stream';
import { APP_BUILD_CONTENT_TYPES, APP_BUILD_MAX_BYTES, routes } from '@vrtc/contract';
import type { FastifyRequest } from 'fastify';
import type { AppInstance } from '../platform/http/app-types.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError } from '../platform/service/errors.ts';
import { sendFile } from '../platform/http/file-answer.ts';
import { registerRoute } from '../platform/http/routes.ts';
import { callerOf } from '../platform/http/caller.ts';
import { signingSecret } from '../platform/config/signing-secret.ts';
import * as downloads from './downloads.service.ts';

/** Admin: upload a build (the raw APK as the body) and list the builds present. */
export function downloadsAdminRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.listBuilds, async () => ({ builds: await downloads.listBuilds(ctx) }));

  // The APK parser passes the request stream through untouched, and only in this scope.
  app.register(async (scope) => {
    scope.addContentTypeParser([...APP_BUILD_CONTENT_TYPES], (_request, payload, done) => {
      done(null, payload);
    });
    registerRoute(
      scope,
      routes.uploadBuild,
      async (request) => {
        if (!(request.body instanceof Readable)) {
          throw new AppError(
            'unsupported_media_type',
            `Send the APK file as the request body with content-type ${APP_BUILD_CONTENT_TYPES.join(' or ')}`,
          );
        }
        const length = request.headers['content-length'];
        return downloads.saveBuild(
          ctx,
          callerOf(request),
          request.params.platform,
          request.body,
          length === undefined ? undefined : Number(length),
          request.query.version,
        );
      },
      { bodyLimit: APP_BUILD_MAX_BYTES },
    );
  });
}

/** Client: fresh signed links to the builds. */
export function downloadsClientRoutes(app: AppInstance, ctx: ServiceContext) {
  const secret = signingSecret(ctx.config);
  registerRoute(app, routes.downloadLinks, (request) =>
    downloads.downloadLinks(ctx, secret, publicBase(ctx, request)),
  );
}

/** Public: the file behind a signed link (browsers and headsets follow it without a token). */
export function downloadFileRoutes(app: AppInstance, ctx: ServiceContext) {
  const secret = signingSecret(ctx.config);
  registerRoute(app, routes.downloadFile, async (request, reply) => {
    const build = await downloads.openSignedBuild(
      ctx,
      secret,
      request.params.platform,
      request.query,
    );
    reply.header('cache-control', 'private, no-store');
    return sendFile(reply, {
      fileName: build.fileName,
      contentType: downloads.APK_CONTENT_TYPE,
      body: build.stream,
      size: build.size,
    });
  });
}

function publicBase(ctx: ServiceContext, request: FastifyRequest): string {
  return ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
}
