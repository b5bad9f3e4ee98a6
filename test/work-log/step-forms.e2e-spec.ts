import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type { StepFormDto } from '../../src/modules/step-forms/dto/step-form.dto';
import type { WorkLogEntryDto } from '../../src/modules/work-log/dto/work-log-response.dto';
import { FakeClock } from '../../src/platform/clock/clock';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTeam, formOf, guideWithForms } from '../factories/work-log.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;
const line = { text: 'Do it', bullet: 'black', level: 0 };

describe('Step forms on guide steps (docs/enterprise/work-log.md) and their pinning by entries', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  let operator: CreatedUser;
  let teamid: number;
  let guide: GuideDetailDto;

  const guideDetail = async (guideid: number): Promise<GuideDetailDto> =>
    (await t.as(author.token, { method: 'GET', url: api(`/guides/${guideid}`) })).json();
  const patchStep = (guideid: number, stepid: number, revisionid: number, payload: Record<string, unknown>) =>
    t.as(author.token, {
      method: 'PATCH',
      url: api(`/guides/${guideid}/steps/${stepid}?revisionid=${revisionid}`),
      payload,
    });

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock: new FakeClock(Date.UTC(2026, 3, 1)) } });
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    operator = await createUser(t);
    teamid = await createTeam(t, 'QA', [admin.user.userid]);
    await createCategory(t, admin.user, 'Lathe');
    guide = await guideWithForms(t, author.user, 'Lathe', [null, null]);
  });
  afterAll(() => t.close());

  it('POST step with a form: 201 with typed fields (unit and limits, choices, date, boolean)', async () => {
    const res = await t.as(author.token, {
      method: 'POST',
      url: api(`/guides/${guide.guideid}/steps`),
      payload: {
        lines: [line],
        form: {
          signoff_teamid: teamid,
          fields: [
            { label: 'Serial', field_type: 'Text Input', required: true, placeholder: 'SN' },
            { label: 'Gap', field_type: 'Numeric Input', unit: 'mm', min: 0.1, max: 2, options: ['ignored'] },
            { label: 'Clean', field_type: 'Checkbox' },
            { label: 'Finish', field_type: 'Select', options: ['matte', 'gloss'] },
            { label: 'Calibrated on', field_type: 'Date' },
          ],
        },
      },
    });
    expect(res.statusCode).toBe(201);
    const form = res.json().steps[2].form as StepFormDto;
    expect(form).toEqual({
      form_revisionid: expect.any(Number),
      signoff_teamid: teamid,
      fields: [
        {
          field_revisionid: expect.any(Number),
          field_guid: expect.stringMatching(/^[0-9a-f]{16}$/),
          label: 'Serial',
          field_type: 'Text Input',
          required: true,
          placeholder: 'SN',
          textarea: false,
          options: [],
          unit: null,
          min: null,
          max: null,
        },
        expect.objectContaining({
          label: 'Gap',
          field_type: 'Numeric Input',
          unit: 'mm',
          min: 0.1,
          max: 2,
          options: [],
        }),
        expect.objectContaining({ label: 'Clean', field_type: 'Checkbox', required: false }),
        expect.objectContaining({ label: 'Finish', field_type: 'Select', options: ['matte', 'gloss'] }),
        expect.objectContaining({ label: 'Calibrated on', field_type: 'Date' }),
      ],
    });
    expect(res.json().steps[0].form).toBeNull();
  });

  it('422 for every step-form rule (docs/enterprise/work-log.md), and nothing is written', async () => {
    const other = await guideWithForms(t, author.user, 'Lathe', [
      { fields: [{ label: 'Elsewhere', field_type: 'Text Input' }] },
    ]);
    const foreignGuid = formOf(other, 0).fields[0].field_guid;
    const before = await guideDetail(guide.guideid);
    const cases: [Record<string, unknown>, string, number?][] = [
      [{ fields: Array.from({ length: 51 }, (_, i) => ({ label: `F${i}`, field_type: 'Text Input' })) }, 'form.fields'],
      [{ fields: [{ label: '', field_type: 'Text Input' }] }, 'form.fields.label', 0],
      [{ fields: [{ label: 'x'.repeat(256), field_type: 'Text Input' }] }, 'form.fields.label', 0],
      [{ fields: [{ label: 'A', field_type: 'Slider' }] }, 'form.fields.field_type', 0],
      [{ fields: [{ label: 'A', field_type: 'Radios' }] }, 'form.fields.options', 0],
      [{ fields: [{ label: 'A', field_type: 'Select', options: ['a', 'a'] }] }, 'form.fields.options', 0],
      [{ fields: [{ label: 'A', field_type: 'Select', options: [''] }] }, 'form.fields.options', 0],
      [
        { fields: [{ label: 'A', field_type: 'Radios', options: Array.from({ length: 101 }, (_, i) => `o${i}`) }] },
        'form.fields.options',
        0,
      ],
      [{ fields: [{ label: 'A', field_type: 'Numeric Input', min: 5, max: 1 }] }, 'form.fields.min', 0],
      [{ fields: [{ label: 'A', field_type: 'Text Input', field_guid: foreignGuid }] }, 'form.fields.field_guid', 0],
      [{ fields: [{ label: 'A', field_type: 'Text Input', field_guid: 'short' }] }, 'form.fields.field_guid', 0],
      [{ fields: [], signoff_teamid: 999999 }, 'form.signoff_teamid'],
      [{ fields: 'no' }, 'form.fields'],
    ];
    for (const [form, field, index] of cases) {
      const res = await t.as(author.token, {
        method: 'POST',
        url: api(`/guides/${guide.guideid}/steps`),
        payload: { lines: [line], form },
      });
      expect({ field, status: res.statusCode }).toEqual({ field, status: 422 });
      expect({ field, errors: res.json().errors }).toEqual({
        field,
        errors: expect.arrayContaining([expect.objectContaining(index === undefined ? { field } : { field, index })]),
      });
    }
    expect((await guideDetail(guide.guideid)).revisionid).toBe(before.revisionid);
  });

  it('PATCH: an identical form makes no revision; a changed one a new form and field revisions with the same field_guid; null removes it', async () => {
    const created = await guideWithForms(t, author.user, 'Lathe', [
      { fields: [{ label: 'Temp', field_type: 'Numeric Input', unit: '°C', required: true }] },
    ]);
    const step = created.steps[0];
    const form = formOf(created, 0);
    const same = await patchStep(created.guideid, step.stepid, step.revisionid, {
      form: { fields: [{ label: 'Temp', field_type: 'Numeric Input', unit: '°C', required: true }] },
    });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ revisionid: step.revisionid, form });
    const changed = await patchStep(created.guideid, step.stepid, step.revisionid, {
      form: { fields: [{ label: 'Temperature', field_type: 'Numeric Input', unit: '°C', required: true }] },
    });
    expect(changed.statusCode).toBe(200);
    const next = changed.json().form as StepFormDto;
    expect(changed.json().revisionid).toBeGreaterThan(step.revisionid);
    expect(next.form_revisionid).toBeGreaterThan(form.form_revisionid);
    expect(next.fields[0].field_revisionid).toBeGreaterThan(form.fields[0].field_revisionid);
    expect(next.fields[0].field_guid).toBe(form.fields[0].field_guid);
    expect(next.fields[0].label).toBe('Temperature');
    const titleOnly = await patchStep(created.guideid, step.stepid, changed.json().revisionid, { title: 'Heat' });
    expect(titleOnly.json().form).toEqual(next);
    const removed = await patchStep(created.guideid, step.stepid, titleOnly.json().revisionid, { form: null });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().form).toBeNull();
  });

  it('an entry started against revision N keeps showing and accepting revision N’s form after the guide is edited', async () => {
    const created = await guideWithForms(t, author.user, 'Lathe', [
      { fields: [{ label: 'Pressure', field_type: 'Numeric Input', unit: 'bar', required: true, max: 10 }] },
    ]);
    const step = created.steps[0];
    const old = formOf(created, 0);
    const oldEntry = (
      await t.as(operator.token, {
        method: 'POST',
        url: api('/work_log'),
        payload: { guideid: created.guideid, workorderid: 'N' },
      })
    ).json();
    const edited = await patchStep(created.guideid, step.stepid, step.revisionid, {
      form: {
        fields: [
          {
            label: 'Pressure (gauge 2)',
            field_type: 'Numeric Input',
            unit: 'bar',
            required: true,
            max: 20,
            field_guid: old.fields[0].field_guid,
          },
          { label: 'Operator note', field_type: 'Text Area', required: true },
        ],
      },
    });
    expect(edited.statusCode).toBe(200);
    const fresh = edited.json().form as StepFormDto;

    const read = await t.as(operator.token, { method: 'GET', url: api(`/work_log/${oldEntry.entryid}`) });
    expect(read.json().forms).toEqual([{ stepid: step.stepid, ...old }]);
    const newEntry = (
      await t.as(operator.token, {
        method: 'POST',
        url: api('/work_log'),
        payload: { guideid: created.guideid, workorderid: 'N+1' },
      })
    ).json();
    expect(newEntry.forms).toEqual([{ stepid: step.stepid, ...fresh }]);
    expect(newEntry.max_form_revisionid).toBe(fresh.form_revisionid);

    // The old entry records against the old field revision, under its own limits, and finishes on its own form.
    const put = (entryid: number, fields: Record<string, unknown>) =>
      t.as(operator.token, { method: 'PUT', url: api(`/work_log/${entryid}/stepData`), payload: { fields } });
    const tooHigh = await put(oldEntry.entryid, { [old.fields[0].field_revisionid]: 15 });
    expect(tooHigh.statusCode).toBe(422);
    expect(tooHigh.json().errors).toEqual([
      { message: 'Must be at most 10', field: `fields.${old.fields[0].field_revisionid}` },
    ]);
    expect((await put(oldEntry.entryid, { [old.fields[0].field_revisionid]: 8 })).statusCode).toBe(200);
    const finished = await t.as(operator.token, { method: 'POST', url: api(`/work_log/${oldEntry.entryid}/finish`) });
    expect(finished.statusCode).toBe(200);
    // finish pins the guide's current revision (the edited one), not the one read at the start
    expect(finished.json().guide_revisionid).toBe((await guideDetail(created.guideid)).revisionid);
    expect(finished.json().guide_revisionid).not.toBe(oldEntry.guide_revisionid);
    // The new entry needs both of the new form's required fields; a value under the old field revision counts for its field_guid.
    expect((await put(newEntry.entryid, { [old.fields[0].field_revisionid]: 9 })).statusCode).toBe(200);
    const missing = await t.as(operator.token, { method: 'POST', url: api(`/work_log/${newEntry.entryid}/finish`) });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual([
      { message: 'Operator note is required', field: `fields.${fresh.fields[1].field_revisionid}` },
    ]);
  });

  it('deleting a step takes its form from new entries; entries started before keep it; a translation may not set a form', async () => {
    const created = await guideWithForms(t, author.user, 'Lathe', [
      { fields: [{ label: 'Kept', field_type: 'Text Input' }] },
      { fields: [{ label: 'Dropped', field_type: 'Checkbox', required: true }] },
    ]);
    const startEntry = async (workorderid: string) =>
      (
        await t.as(operator.token, {
          method: 'POST',
          url: api('/work_log'),
          payload: { guideid: created.guideid, workorderid },
        })
      ).json<WorkLogEntryDto>();
    const before = await startEntry('D-1');
    expect(before.forms!.map((f) => f.stepid)).toEqual(created.steps.map((s) => s.stepid));
    const dropped = created.steps[1];
    const translated = await patchStep(created.guideid, dropped.stepid, dropped.revisionid, {
      langid: 'fr',
      title: 'Étape',
      lines: [line],
      form: { fields: [] },
    });
    expect(translated.statusCode).toBe(422);
    expect(translated.json().errors).toEqual([expect.objectContaining({ field: 'form' })]);
    const removed = await t.as(author.token, {
      method: 'DELETE',
      url: api(`/guides/${created.guideid}/steps/${dropped.stepid}?revisionid=${dropped.revisionid}`),
    });
    expect(removed.statusCode).toBe(200);
    const after = await startEntry('D-2');
    expect(after.forms!.map((f) => f.stepid)).toEqual([created.steps[0].stepid]);
    expect(after.max_form_revisionid).toBeGreaterThan(before.max_form_revisionid);
    const old = await t.as(operator.token, { method: 'GET', url: api(`/work_log/${before.entryid}`) });
    expect(old.json().forms).toEqual(before.forms);
    expect(
      (await t.as(operator.token, { method: 'POST', url: api(`/work_log/${after.entryid}/finish`) })).statusCode,
    ).toBe(200);
    expect(
      (await t.as(operator.token, { method: 'POST', url: api(`/work_log/${before.entryid}/finish`) })).statusCode,
    ).toBe(422);
  });
});
