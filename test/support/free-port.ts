import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Ports below this are left to the servers a test machine runs (Kafka, PostgreSQL, ...). */
const LOWEST = 10_000;

/** The range the kernel gives outgoing connections their local port from (Linux), else IANA's. */
function ephemeralPortRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low > 0 && high >= low) return [low, high];
  } catch {
    // Not Linux.
  }
  return [49_152, 65_535];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function kernelChosenPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A loopback port free now, for a server whose address must be known before it starts. It is
 * taken below the ephemeral range: a port the kernel chose for listen(0) and that was then freed
 * can go to any outgoing connection (the Kafka or PostgreSQL clients of apps starting beside
 * it) before the server binds it, which then fails with EADDRINUSE; the kernel never gives a
 * connection a port outside that range.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralPortRange();
  const span = ephemeralLow - LOWEST;
  if (span < 1_000) return kernelChosenPort();
  for (let tries = 0; tries < 50; tries++) {
    const port = LOWEST + Math.floor(Math.random() * span);
    if (await canListen(port)) return port;
  }
  return kernelChosenPort();
}
