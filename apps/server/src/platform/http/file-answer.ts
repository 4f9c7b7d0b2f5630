import type { Readable } from 'node:stream';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply } from 'fastify';

/** A file a route answers with, for the browser to save under `fileName`. */
export interface FileAnswer {
  fileName: string;
  contentType: string;
  body: string | Buffer | Readable;
  /** Its size in bytes, when known before it is sent (a stream's). */
  size?: number;
}

/**
 * Sends `file` as an attachment. The Content-Disposition header is built by `content-disposition`
 * (RFC 6266): a name with quotes or letters beyond ASCII is escaped, and given in UTF-8 beside an
 * ASCII fallback, never pasted into the header as it is.
 */
export function sendFile<Reply extends FastifyReply>(reply: Reply, file: FileAnswer): Reply {
  reply.type(file.contentType).header('content-disposition', attachment(file.fileName));
  if (file.size !== undefined) reply.header('content-length', file.size);
  return reply.send(file.body) as Reply;
}

/** Sends a CSV export (UTF-8 text) as an attachment named `fileName`. */
export function sendCsv<Reply extends FastifyReply>(
  reply: Reply,
  fileName: string,
  body: FileAnswer['body'],
): Reply {
  return sendFile(reply, { fileName, contentType: 'text/csv; charset=utf-8', body });
}

/** The header of an attachment named `fileName`; a plain name quoted too, as every file had it. */
function attachment(fileName: string): string {
  const header = contentDisposition(fileName);
  // content-disposition leaves a name of token characters (no quote, no semicolon) bare.
  const bare = /^attachment; filename=([^";]+)$/.exec(header);
  return bare ? `attachment; filename="${bare[1]}"` : header;
}
