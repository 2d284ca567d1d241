import { runCli } from '../../apps/cli/src/cli';
import { startApi } from '../../apps/api/src/start-api';
import { startWeb } from '../../apps/web/src/start-web';
import { request } from '../support/http-client';

jest.setTimeout(60_000);

async function migrate(env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await runCli(['migrate'], {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stdout += t) },
    env,
  });
  return { code, stdout };
}

/**
 * A deployment runs `vigil migrate` (a Kubernetes Job, a compose one-shot service) before the
 * apps roll out, and the apps run the same steps at start-up: either order works.
 */
describe('vigil migrate before a roll-out', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, API_PORT: '0', WEB_PORT: '0' };

  it('prepares the database and read models the apps then start on, and finds them done after', async () => {
    expect(await migrate(env)).toMatchObject({ code: 0 });

    const api = await startApi(env);
    const web = await startWeb(env);
    try {
      // Ready: their database and read models answer (the ops listener's /readyz).
      expect((await request('GET', `${api.opsUrl}/readyz`)).status).toBe(200);
      expect((await request('GET', `${web.opsUrl}/readyz`)).status).toBe(200);
    } finally {
      await web.stop();
      await api.stop();
    }

    const again = await migrate(env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('control plane: schema already up to date.');
    expect(again.stdout).toContain(
      'Elasticsearch read models: index templates and indices in place.',
    );
  });
});
