import { request } from 'node:http';
import { join } from 'node:path';
import { freePort, startService, tempDir, type ServiceProcess } from './spawn-service';

/** GET with a chosen Host header (fetch does not let one set it). */
function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

const docsLink = async (port: number, headers: Record<string, string>) => {
  const answer = await get(port, '/api/2.0', headers);
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { links: { docs: string } }).links.docs;
};

async function listeningOnEveryInterface(
  env: Record<string, string> = {},
): Promise<{ service: ServiceProcess; port: number }> {
  const port = await freePort();
  const dir = tempDir();
  const service = startService({ PORT: String(port), HOST: '0.0.0.0', DB_PATH: join(dir, 'app.sqlite'), ...env });
  await service.waitFor('Server listening', 60_000);
  return { service, port };
}

describe('HOST=0.0.0.0 without PUBLIC_URL: URLs follow the request', () => {
  it("uses each request's Host, ignores X-Forwarded-* from untrusted senders, and warns once at start", async () => {
    const { service, port } = await listeningOnEveryInterface();
    try {
      expect(await docsLink(port, { host: 'guides.example:8080' })).toBe('http://guides.example:8080/api/2.0/docs');
      expect(await docsLink(port, { host: '192.168.1.20:3000' })).toBe('http://192.168.1.20:3000/api/2.0/docs');
      expect(
        await docsLink(port, {
          host: 'guides.example',
          'x-forwarded-host': 'evil.example',
          'x-forwarded-proto': 'https',
        }),
      ).toBe('http://guides.example/api/2.0/docs');
      // No usable Host: the base it was built with (never 0.0.0.0).
      expect(await docsLink(port, { host: 'bad host/x' })).toBe(`http://127.0.0.1:${port}/api/2.0/docs`);
      expect(service.output()).not.toContain('0.0.0.0:');
      expect(service.output().match(/URLs in responses follow each request's Host header/g)).toHaveLength(1);
      // One log line per request (development's pretty format), not one when it arrives and one when answered.
      await service.waitFor(/(INFO: GET \/api\/2\.0 200 \d+ ms[^]*){4}/, 5_000);
      expect(service.output().match(/INFO: GET \/api\/2\.0 200 \d+ ms/g)).toHaveLength(4);
      expect(service.output()).not.toMatch(/incoming request|request completed/);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }, 90_000);

  it('follows X-Forwarded-Host and X-Forwarded-Proto from a proxy TRUST_PROXY trusts', async () => {
    const { service, port } = await listeningOnEveryInterface({ TRUST_PROXY: 'loopback' });
    try {
      expect(
        await docsLink(port, {
          host: '127.0.0.1:3000',
          'x-forwarded-host': 'guides.example.com',
          'x-forwarded-proto': 'https',
        }),
      ).toBe('https://guides.example.com/api/2.0/docs');
      expect(await docsLink(port, { host: 'lan-name:3000' })).toBe('http://lan-name:3000/api/2.0/docs');
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }, 90_000);

  it('keeps PUBLIC_URL whatever the Host when it is set', async () => {
    const { service, port } = await listeningOnEveryInterface({ PUBLIC_URL: 'https://guides.example.com/' });
    try {
      expect(await docsLink(port, { host: 'other.example' })).toBe('https://guides.example.com/api/2.0/docs');
      expect(service.output()).not.toContain("follow each request's Host");
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }, 90_000);
});
