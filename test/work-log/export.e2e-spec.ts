import { DataSource } from 'typeorm';
import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import { WorkLogDataEntity } from '../../src/modules/work-log/entities/work-log-data.entity';
import { WorkLogEntryEntity } from '../../src/modules/work-log/entities/work-log-entry.entity';
import { csvField, EXPORT_PAGE } from '../../src/modules/work-log/work-log-export.service';
import { FakeClock } from '../../src/platform/clock/clock';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { formOf, guideWithForms } from '../factories/work-log.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;
const HEADER =
  'entryid,guideid,workorderid,userid,status,starttime,endtime,guide_revisionid,stepid,field_revisionid,field_guid,label,value,recorded_by,date';

describe('GET /work_log/export.csv', () => {
  let t: TestApp;
  const clock = new FakeClock(Date.UTC(2026, 6, 7, 7));
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let operator: CreatedUser;
  let guide: GuideDetailDto;

  const exportCsv = (token: string | undefined, query: string) =>
    t.as(token, { method: 'GET', url: api(`/work_log/export.csv?${query}`) });

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    operator = await createUser(t);
    await createCategory(t, admin.user, 'Kiln');
    guide = await guideWithForms(t, author.user, 'Kiln', [
      {
        fields: [
          { label: 'Batch, lot', field_type: 'Text Input' },
          { label: 'Ok', field_type: 'Checkbox' },
        ],
      },
    ]);
  });
  afterAll(() => t.close());

  it('401; 403 below Moderator; 422 without exactly one of entryid and guideid; 404 for an unknown entry or guide', async () => {
    const errors = [await exportCsv(undefined, `guideid=${guide.guideid}`)];
    expect(errors[0].statusCode).toBe(401);
    errors.push(await exportCsv(author.token, `guideid=${guide.guideid}`));
    expect(errors[1].statusCode).toBe(403);
    for (const query of ['', `guideid=${guide.guideid}&entryid=1`, 'guideid=x', `guideid=${guide.guideid}&since=-1`]) {
      const res = await exportCsv(moderator.token, query);
      expect({ query, status: res.statusCode }).toEqual({ query, status: 422 });
      errors.push(res);
    }
    errors.push(
      await exportCsv(moderator.token, 'entryid=99999999'),
      await exportCsv(moderator.token, 'guideid=99999999'),
    );
    expect(errors.slice(-2).map((res) => res.statusCode)).toEqual([404, 404]);
    // Errors are JSON, as the document says (it listed them as text/csv).
    const document = (await t.inject({ method: 'GET', url: api('/openapi.json') })).json<{
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }>;
    }>();
    const responses = document.paths[api('/work_log/export.csv')].get.responses;
    for (const res of errors) {
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json()).toMatchObject({ error: true, message: expect.any(String) });
      expect(Object.keys(responses[res.statusCode].content)).toEqual(['application/json']);
    }
    expect(Object.keys(responses['200'].content)).toEqual(['text/csv']);
  });

  it('one entry: a header and one row per recorded value (superseded ones too), quoted for spreadsheets', async () => {
    const entry = (
      await t.as(operator.token, {
        method: 'POST',
        url: api('/work_log'),
        payload: { guideid: guide.guideid, workorderid: 'K=1' },
      })
    ).json();
    const [batch, ok] = formOf(guide, 0).fields;
    const put = (fields: Record<string, unknown>) =>
      t.as(operator.token, { method: 'PUT', url: api(`/work_log/${entry.entryid}/stepData`), payload: { fields } });
    expect((await put({ [batch.field_revisionid]: 'A, "first"\nline', [ok.field_revisionid]: true })).statusCode).toBe(
      200,
    );
    clock.advance(2_000);
    expect((await put({ [batch.field_revisionid]: '=SUM(A1)' })).statusCode).toBe(200);
    const res = await exportCsv(moderator.token, `entryid=${entry.entryid}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const start = entry.starttime;
    const row = (field: typeof batch, value: string, date: number) =>
      [
        entry.entryid,
        guide.guideid,
        'K=1',
        operator.user.userid,
        'started',
        start,
        '',
        guide.revisionid,
        guide.steps[0].stepid,
        field.field_revisionid,
        field.field_guid,
        field.label,
        value,
        operator.user.userid,
        date,
      ]
        .map(csvField)
        .join(',');
    expect(res.body).toBe(
      [HEADER, row(batch, 'A, "first"\nline', start), row(ok, '1', start), row(batch, '=SUM(A1)', start + 2), ''].join(
        '\r\n',
      ),
    );
    expect(res.body).toContain('"A, ""first""\nline"');
    expect(res.body).toContain(",'=SUM(A1),");
    expect(csvField('-12.5')).toBe('-12.5');
  });

  it('a guide in a time range, across export pages, without deleted entries', async () => {
    const dataSource = t.app.get(DataSource);
    const field = formOf(guide, 0).fields[1];
    const count = EXPORT_PAGE + 30;
    const base = 1_900_000_000;
    const entries = Array.from({ length: count }, (_, i) => ({
      guideid: guide.guideid,
      userid: operator.user.userid,
      workorderid: `bulk-${i}`,
      status: 'complete',
      starttime: base + i,
      endtime: base + i + 10,
      guideRevisionid: guide.revisionid,
      maxFormRevisionid: 0,
      releaseid: null,
      releaseVersion: null,
      pausedSeconds: 0,
      pausedAt: null,
      currentStepid: null,
      timingid: null,
      writeCount: 0,
      deleted: i === 3,
    }));
    for (let i = 0; i < entries.length; i += 100) {
      await dataSource.getRepository(WorkLogEntryEntity).insert(entries.slice(i, i + 100));
    }
    const ids = (
      await dataSource
        .getRepository(WorkLogEntryEntity)
        .find({ where: { guideid: guide.guideid }, order: { entryid: 'ASC' } })
    ).filter((e) => e.workorderid.startsWith('bulk-'));
    const rows = ids.map((e) => ({
      entryid: e.entryid,
      fieldRevisionid: field.field_revisionid,
      fieldGuid: field.field_guid,
      stepid: guide.steps[0].stepid,
      label: field.label,
      value: e.workorderid.endsWith('7') ? '1' : '0',
      userid: operator.user.userid,
      date: e.starttime,
    }));
    for (let i = 0; i < rows.length; i += 100) {
      await dataSource.getRepository(WorkLogDataEntity).insert(rows.slice(i, i + 100));
    }
    const all = await exportCsv(admin.token, `guideid=${guide.guideid}&since=${base}&until=${base + count}`);
    expect(all.statusCode).toBe(200);
    const lines = all.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(HEADER);
    expect(lines).toHaveLength(1 + count - 1);
    expect(lines.some((l) => l.includes(',bulk-3,'))).toBe(false);
    expect(lines[lines.length - 1]).toContain(`,bulk-${count - 1},`);
    const window = await exportCsv(admin.token, `guideid=${guide.guideid}&since=${base + 10}&until=${base + 19}`);
    expect(
      window.body
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[2]),
    ).toEqual(Array.from({ length: 10 }, (_, i) => `bulk-${10 + i}`));
  });
});
