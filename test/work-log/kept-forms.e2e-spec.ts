import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type { WorkLogEntryDto } from '../../src/modules/work-log/dto/work-log-response.dto';
import { FakeClock } from '../../src/platform/clock/clock';
import { ContentVersions } from '../../src/platform/versions/content-versions';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { formOf, guideWithForms } from '../factories/work-log.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { withoutVersionToken } from '../utils/version-tokens';

const api = (path: string) => `/api/2.0${path}`;

/**
 * The forms an entry pinned (guide, max_form_revisionid) are kept per instance under the `step-forms` version
 * token: a cached answer costs one token read instead of the forms and fields statements, and must be exactly
 * what the rows give, before and after form edits, and when rows change under the service.
 */
describe('work log: the forms an entry pinned, kept under the step-forms token', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  let operator: CreatedUser;
  let guide: GuideDetailDto;

  const get = (entryid: number) => t.as(operator.token, { method: 'GET', url: api(`/work_log/${entryid}`) });
  const start = async (workorderid: string): Promise<WorkLogEntryDto> => {
    const res = await t.as(operator.token, {
      method: 'POST',
      url: api('/work_log'),
      payload: { guideid: guide.guideid, workorderid },
    });
    expect(res.statusCode).toBe(201);
    return res.json();
  };
  const labels = (entry: WorkLogEntryDto) => (entry.forms ?? []).map((f) => f.fields.map((x) => x.label));
  const relabel = async (stepIndex: number, labelsOfStep: string[]) => {
    const current = (await t.as(author.token, { method: 'GET', url: api(`/guides/${guide.guideid}`) })).json();
    const step = current.steps[stepIndex];
    const res = await t.as(author.token, {
      method: 'PATCH',
      url: api(`/guides/${guide.guideid}/steps/${step.stepid}?revisionid=${step.revisionid}`),
      payload: { form: { fields: labelsOfStep.map((label) => ({ label, field_type: 'Text Input' })) } },
    });
    expect(res.statusCode).toBe(200);
  };
  /** What the rows give: the same GET with nothing kept (no token row), then the token back. */
  const fromRows = async (entryid: number): Promise<string> =>
    withoutVersionToken(t, 'step-forms', async () => (await get(entryid)).body);

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock: new FakeClock(Date.UTC(2026, 5, 1)) } });
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    operator = await createUser(t);
    await createCategory(t, admin.user, 'Press');
    guide = await guideWithForms(t, author.user, 'Press', [
      {
        fields: [
          { label: 'Serial', field_type: 'Text Input' },
          { label: 'Depth', field_type: 'Numeric Input' },
        ],
      },
      null,
      { fields: [{ label: 'Signed', field_type: 'Checkbox' }] },
    ]);
    await get(0); // the token's last-used write happens once
  });
  afterAll(() => t.close());

  it('a cached answer reads the token only: 2 statements fewer than one built from the rows, the same bytes', async () => {
    const entry = await start('WO-kept');
    const kept = await get(entry.entryid);
    expect(kept.statusCode).toBe(200);
    expect(labels(kept.json())).toEqual([['Serial', 'Depth'], ['Signed']]);
    await t.dataSource.query("DELETE FROM content_versions WHERE name = 'step-forms'");
    const built = await get(entry.entryid);
    expect(built.body).toBe(kept.body);
    expect(sqlCount(built) - sqlCount(kept)).toBe(2);
    expect(sqlCount(await get(entry.entryid))).toBe(sqlCount(built)); // no token: nothing is kept
    await relabel(1, ['Torque']); // a form write brings the row back
    expect(await t.app.get(ContentVersions).read('step-forms')).not.toBeNull();
    await get(entry.entryid);
    expect(sqlCount(await get(entry.entryid))).toBe(sqlCount(kept));
  });

  it('step data reads the token with the fields it checks: a cached answer costs no statement for its forms', async () => {
    const entry = await start('WO-step-data');
    const field = formOf(guide, 0).fields[0].field_revisionid;
    const record = (value: string) =>
      t.as(operator.token, {
        method: 'PUT',
        url: api(`/work_log/${entry.entryid}/stepData`),
        payload: { fields: { [field]: value } },
      });
    const kept = await record('one');
    expect(kept.statusCode).toBe(200);
    await t.dataSource.query("DELETE FROM content_versions WHERE name = 'step-forms'");
    const built = await record('two');
    expect(built.statusCode).toBe(200);
    expect(sqlCount(built) - sqlCount(kept)).toBe(3); // the token check, the forms, their fields
    expect(built.json().forms).toEqual(kept.json().forms);
    await t.app.get(ContentVersions).bump('step-forms');
  });

  it('after form edits an old entry keeps showing its pinned forms and a new one the new forms, kept or built', async () => {
    const before = await start('WO-before');
    const beforeBody = (await get(before.entryid)).body;
    await relabel(0, ['Serial number', 'Depth']);
    await relabel(2, ['Signed', 'Witness']);
    const after = await start('WO-after');
    expect(labels(before)).not.toEqual(labels(after));
    expect(labels(after)).toEqual([['Serial number', 'Depth'], ['Signed', 'Witness'], ['Torque']]);
    expect((await get(before.entryid)).body).toBe(beforeBody);
    expect(await fromRows(before.entryid)).toBe(beforeBody);
    expect(await fromRows(after.entryid)).toBe((await get(after.entryid)).body);
    // The step-data answer of the old entry embeds the same kept forms.
    const field = formOf(guide, 0).fields[0].field_revisionid;
    const recorded = await t.as(operator.token, {
      method: 'PUT',
      url: api(`/work_log/${before.entryid}/stepData`),
      payload: { fields: { [field]: 'SN-1' } },
    });
    expect(recorded.statusCode).toBe(200);
    expect(labels(recorded.json())).toEqual(labels(before));
  });

  it('rows changed under the service show once the token changes (a restore or an import bumps it)', async () => {
    const entry = await start('WO-restored');
    const kept = (await get(entry.entryid)).json<WorkLogEntryDto>();
    const fieldid = kept.forms![0].fields[0].field_revisionid;
    await t.dataSource.query('UPDATE step_form_fields SET label = ? WHERE field_revisionid = ?', ['Restored', fieldid]);
    expect(labels((await get(entry.entryid)).json())[0][0]).toBe(kept.forms![0].fields[0].label); // still the kept copy
    await t.app.get(ContentVersions).bump('step-forms');
    expect(labels((await get(entry.entryid)).json())[0][0]).toBe('Restored');
    expect((await get(entry.entryid)).body).toBe(await fromRows(entry.entryid));
  });
});
