import { ConventionsTestModule } from './support/conventions-test.module';
import { shutdownApp } from '../src/bootstrap/create-app';
import { createTestApp } from './utils/test-app';

describe('graceful shutdown', () => {
  it('finishes in-flight requests, refuses new connections, and closes the database pool', async () => {
    const t = await createTestApp({ extraModules: [ConventionsTestModule] });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.getHttpServer().address() as { port: number };
    const base = `http://127.0.0.1:${address.port}`;
    const inFlight = fetch(`${base}/api/2.0/__test/slow`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = shutdownApp(t.app);
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    await closing;
    await expect(fetch(`${base}/health`)).rejects.toThrow();
    expect(t.dataSource.isInitialized).toBe(false);
  }, 15_000);
});
