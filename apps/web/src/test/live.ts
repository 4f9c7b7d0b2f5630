import type { LiveEvent } from '@vrtc/contract';

/**
 * A fake GET /v1/events for the tests' fake servers: each `connect()` answers one stream that the
 * test writes to (`ready`, events) and may close (the server going away); `refuse` answers the
 * next connections with an error status instead.
 */
export function fakeLiveServer() {
  const encoder = new TextEncoder();
  let current: ReadableStreamDefaultController<Uint8Array> | undefined;
  const server = {
    /** Connections asked for so far. */
    connections: 0,
    /** While set, connections are refused with this status (e.g. 503, 429). */
    refuse: undefined as number | undefined,
    connect(): Response {
      server.connections += 1;
      if (server.refuse !== undefined) {
        return new Response(JSON.stringify({ error: 'unavailable', message: 'refused' }), {
          status: server.refuse,
          headers: { 'content-type': 'application/json' },
        });
      }
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          current = controller;
        },
      });
      return new Response(body, {
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8' },
      });
    },
    get open() {
      return current !== undefined;
    },
    write(text: string) {
      current?.enqueue(encoder.encode(text));
    },
    ready() {
      server.write(`retry: 2000\n\nid: 1\nevent: ready\ndata: {"keepalive_seconds":15}\n\n`);
    },
    send(event: LiveEvent) {
      server.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    },
    /** The server ends the stream. */
    close() {
      current?.close();
      current = undefined;
    },
  };
  return server;
}

export type FakeLiveServer = ReturnType<typeof fakeLiveServer>;
