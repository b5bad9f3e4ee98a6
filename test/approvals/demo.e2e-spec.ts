import { AuthTokenService } from '../../src/modules/auth/auth-token.service';
import { UserEntity } from '../../src/modules/users/entities/user.entity';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API } from './approvals-test-helpers';

describe('approvals demo content', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  const tokenOf = async (email: string) => {
    const user = await t.dataSource.getRepository(UserEntity).findOneByOrFail({ email });
    return { user, token: await t.app.get(AuthTokenService).issue(user.userid) };
  };

  it('the demo Moderator has one pending request to sign: a two-stage process on a wiki page', async () => {
    const moderator = await tokenOf('moderator@demo.example');
    const admin = await tokenOf('admin@demo.example');
    const author = await tokenOf('author@demo.example');
    const res = await t.as(moderator.token, { method: 'GET', url: `${API}/approvals/requests?eligibility=eligible` });
    expect(res.statusCode).toBe(200);
    const [request, ...rest] = res.json<
      {
        status: string;
        doctype: string;
        document_title: string;
        eligible: boolean;
        current_stage: number;
        requested_by: { userid: number };
        process: { name: string };
        stages: { user: { userid: number } }[];
        release: { status: string };
      }[]
    >();
    expect(rest).toEqual([]);
    expect(request).toMatchObject({
      status: 'pending',
      doctype: 'WIKI',
      document_title: 'Spudger',
      eligible: true,
      current_stage: 1,
      requested_by: { userid: author.user.userid },
      process: { name: 'Demo document control' },
      release: { status: 'pending' },
    });
    expect(request.stages.map((s) => s.user.userid)).toEqual([moderator.user.userid, admin.user.userid]);
    const processes = await t.as(admin.token, { method: 'GET', url: `${API}/approvals/processes` });
    expect(processes.json<{ name: string; documents_count: number }[]>()).toEqual([
      expect.objectContaining({ name: 'Demo document control', documents_count: 1 }),
      expect.objectContaining({ name: 'Demo final check', documents_count: 1 }),
    ]);
  });

  it('the demo Admin has one request to sign: the demo Author’s release of the Tweezers page', async () => {
    const admin = await tokenOf('admin@demo.example');
    const author = await tokenOf('author@demo.example');
    const res = await t.as(admin.token, { method: 'GET', url: `${API}/approvals/requests?eligibility=eligible` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      expect.objectContaining({
        status: 'pending',
        doctype: 'WIKI',
        document_title: 'Tweezers',
        eligible: true,
        requested_by: expect.objectContaining({ userid: author.user.userid }),
        process: expect.objectContaining({ name: 'Demo final check' }),
      }),
    ]);
  });
});
