import type { Server, Socket } from 'node:net';

/**
 * Says what would keep jest from exiting once every test file ran (--runInBand runs the files
 * in this process): an app a test did not stop, a client still reconnecting. jest itself only
 * says that something is left; this names the sockets and timers, so a hang in CI is diagnosable
 * from its log.
 */
export async function reportOpenHandles(graceMs = 2_000): Promise<void> {
  // A referenced timer: with nothing else left, an unreferenced one would let the process end
  // here, in the middle of jest's teardown, with status 0 whatever the tests' results.
  await new Promise((resolve) => setTimeout(resolve, graceMs));
  const open = openHandles();
  if (open.length === 0) return;
  process.stderr.write(`still open after the test files ended:\n  ${open.join('\n  ')}\n`);
}

function openHandles(): string[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles.flatMap((handle): string[] => {
    const name = (handle as object | null)?.constructor?.name ?? typeof handle;
    if (name === 'Socket' || name === 'TLSSocket') {
      const socket = handle as Socket;
      // The process's own standard streams.
      if (socket.remotePort === undefined && socket.localPort === undefined) return [];
      return [`socket ${socket.localPort ?? '?'} -> ${socket.remoteAddress}:${socket.remotePort}`];
    }
    if (name === 'Timeout') {
      const timer = handle as { _idleTimeout: number; _onTimeout: unknown; hasRef(): boolean };
      if (!timer.hasRef()) return [];
      const source = String(timer._onTimeout).replace(/\s+/g, ' ').slice(0, 200);
      return [`timer every ${timer._idleTimeout} ms: ${source}`];
    }
    if (name === 'Server') {
      return [`server ${JSON.stringify((handle as Server).address())}`];
    }
    return [name];
  });
}
