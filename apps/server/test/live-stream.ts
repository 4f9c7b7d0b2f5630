import { EventSourceParserStream } from 'eventsource-parser/stream';
import { expect, vi } from 'vitest';
import { BACKGROUND } from './harness.ts';

export interface Stream {
  events: Array<{ event: string; data: unknown }>;
  /** Resolves with the first event (from the start) that matches. */
  next(match: (event: { event: string; data: unknown }) => boolean): Promise<unknown>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Reads GET /v1/events as the console does: fetch with the bearer token, parsed as SSE. */
export async function openStream(origin: string, headers: Record<string, string>): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${origin}/v1/events`, { headers, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const events: Stream['events'] = [];
  const ended = (async () => {
    const reader = response
      .body!.pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
      .getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        events.push({ event: value.event ?? 'message', data: JSON.parse(value.data) });
      }
    } catch {
      // closed by the test
    }
  })();
  const stream: Stream = {
    events,
    next: (match) =>
      vi.waitFor(() => {
        const found = events.find(match);
        expect(found, `an event among ${JSON.stringify(events)}`).toBeDefined();
        return found!.data;
      }, BACKGROUND),
    ended,
    close: () => controller.abort(),
  };
  await stream.next((e) => e.event === 'ready');
  return stream;
}
