import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Lets `app.close()` end once the requests in flight are answered. Node's `server.close()` waits
 * for every connection but closes only those idle at the moment it is called, so without this:
 * - a connection busy then (a headset's held push call, a heartbeat) stays open after its answer
 *   for its keep-alive timeout (72 s), as the client keeps it for the same time;
 * - a connection on which no request was ever sent (a browser's preconnect, a client that gave
 *   up a call while still connecting) is never idle in Node's eyes and stays until the client
 *   drops it, which a pooling client may never do.
 * From `closing()` on, both are closed every 100 ms until `closed()`. A connection on which a
 * request is arriving or being answered is left to finish, and so is a new one for 100 ms, long
 * enough for the request its client sent at once (nginx does) to be read.
 */
export class ConnectionCloser {
  private readonly connections = new Set<Socket>();
  private timer: NodeJS.Timeout | undefined;
  /** Connections that had sent nothing at the last check. */
  private readonly silent = new WeakSet<Socket>();

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.connections.add(socket);
      socket.once('close', () => this.connections.delete(socket));
    });
  }

  closing(): void {
    this.timer ??= setInterval(() => this.closeIdle(), 100);
    this.closeIdle();
  }

  closed(): void {
    clearInterval(this.timer);
  }

  private closeIdle(): void {
    this.server.closeIdleConnections();
    for (const socket of this.connections) {
      if (socket.bytesRead > 0) continue;
      // Silent at two checks 100 ms apart: a request just sent on a new connection is read first.
      if (this.silent.has(socket)) socket.destroy();
      else this.silent.add(socket);
    }
  }
}
