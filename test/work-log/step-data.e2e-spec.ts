import { DataSource } from 'typeorm';
import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type { StepFormDto } from '../../src/modules/step-forms/dto/step-form.dto';
import type { WorkLogEntryDto } from '../../src/modules/work-log/dto/work-log-response.dto';
import { WorkLogDataRecorded, type WorkLogDataRecordedPayload } from '../../src/modules/work-log/work-log.events';
import { AuditReader } from '../../src/platform/audit/audit-reader.service';
import { FakeClock } from '../../src/platform/clock/clock';
import { EventBus } from '../../src/platform/events/event-bus';
import { solidImage, tempMediaDir, uploadImage } from '../factories/media.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { formOf, guideWithForms } from '../factories/work-log.factory';
import { settle } from '../utils/events';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;

describe('PUT /work_log/{entryid}/stepData (docs/enterprise/work-log.md)', () => {
  let t: TestApp;
  const clock = new FakeClock(Date.UTC(2026, 4, 4, 6));
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let operator: CreatedUser;
  let stranger: CreatedUser;
  let guide: GuideDetailDto;
  let otherGuide: GuideDetailDto;
  let form: StepFormDto;
  let ids: Record<string, string>;
  const recorded: WorkLogDataRecordedPayload[] = [];

  const put = (token: string | undefined, entryid: number, payload: unknown) =>
    t.as(token, {
      method: 'PUT',
      url: api(`/work_log/${entryid}/stepData`),
      payload: payload as Record<string, unknown>,
    });
  const start = async (workorderid: string): Promise<WorkLogEntryDto> =>
    (
      await t.as(operator.token, {
        method: 'POST',
        url: api('/work_log'),
        payload: { guideid: guide.guideid, workorderid },
      })
    ).json();

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock }, env: { MEDIA_DIR: tempMediaDir() } });
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    operator = await createUser(t);
    stranger = await createUser(t);
    await createCategory(t, admin.user, 'Mill');
    guide = await guideWithForms(t, author.user, 'Mill', [
      {
        fields: [
          { label: 'Serial', field_type: 'Text Input' },
          { label: 'Remarks', field_type: 'Text Area' },
          { label: 'Depth', field_type: 'Numeric Input', unit: 'mm', min: -1, max: 5 },
          { label: 'Guard on', field_type: 'Checkbox' },
          { label: 'Coolant', field_type: 'Radios', options: ['water', 'oil'] },
          { label: 'Bit', field_type: 'Select', options: ['6mm', '8mm'] },
          { label: 'Checked on', field_type: 'Date' },
          { label: 'Photo', field_type: 'Image' },
        ],
      },
      null,
    ]);
    otherGuide = await guideWithForms(t, author.user, 'Mill', [
      { fields: [{ label: 'Other', field_type: 'Text Input' }] },
    ]);
    form = formOf(guide, 0);
    ids = Object.fromEntries(form.fields.map((f) => [f.label, String(f.field_revisionid)]));
    t.app
      .get(EventBus)
      .subscribe(WorkLogDataRecorded, 'test.recorded', (payload) => void recorded.push(payload));
  });
  afterAll(() => t.close());

  it('401, 404 for a stranger, 403 for a Moderator who is not the owner, 422 for a bad shape', async () => {
    const entry = await start('S-1');
    const body = { fields: { [ids.Serial]: 'A' } };
    expect((await put(undefined, entry.entryid, body)).statusCode).toBe(401);
    expect((await put(stranger.token, entry.entryid, body)).statusCode).toBe(404);
    expect((await put(operator.token, 99999999, body)).statusCode).toBe(404);
    expect((await put(moderator.token, entry.entryid, body)).statusCode).toBe(403);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [String(i + 1), 'x']));
    for (const [payload, field] of [
      [{}, 'fields'],
      [{ fields: {} }, 'fields'],
      [{ fields: many }, 'fields'],
      [{ fields: 'x' }, 'fields'],
      [{ fields: { [ids.Serial]: 'A' }, lasttimingid: 'x' }, 'lasttimingid'],
      [{ fields: { [ids.Serial]: 'A' }, stepid: 0 }, 'stepid'],
    ] as const) {
      const res = await put(operator.token, entry.entryid, payload);
      expect({ field, status: res.statusCode }).toEqual({ field, status: 422 });
      expect(res.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
  });

  it('422 naming fields.<key> for unknown keys and each bad value, and a stepid outside the guide; nothing is written', async () => {
    const entry = await start('S-2');
    const foreign = String(formOf(otherGuide, 0).fields[0].field_revisionid);
    const res = await put(operator.token, entry.entryid, {
      fields: {
        abc: 'x',
        '99999999': 'x',
        [foreign]: 'x',
        [ids.Serial]: null,
        [ids.Remarks]: 'x'.repeat(65536),
        [ids.Depth]: 'deep',
        [ids['Guard on']]: 'yes',
        [ids.Coolant]: 'air',
        [ids.Bit]: 6,
        [ids['Checked on']]: '2026-02-30',
        [ids.Photo]: 12345,
      },
      stepid: otherGuide.steps[0].stepid,
    });
    expect(res.statusCode).toBe(422);
    expect(
      res
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(
      [
        'fields.abc',
        'fields.99999999',
        `fields.${foreign}`,
        ...['Serial', 'Remarks', 'Depth', 'Guard on', 'Coolant', 'Bit', 'Checked on', 'Photo'].map(
          (l) => `fields.${ids[l]}`,
        ),
        'stepid',
      ].sort(),
    );
    const limit = await put(operator.token, entry.entryid, { fields: { [ids.Depth]: 5.5 } });
    expect(limit.json().errors).toEqual([{ message: 'Must be at most 5', field: `fields.${ids.Depth}` }]);
    expect(
      (await t.as(operator.token, { method: 'GET', url: api(`/work_log/${entry.entryid}`) })).json().work_data,
    ).toEqual([]);
  });

  it('200: every type stored as a string; values are appended and work_data shows the newest per field', async () => {
    const upload = await uploadImage(t, operator.token, await solidImage(64, 64));
    const imageid = upload.json().image.id as number;
    const entry = await start('S-3');
    const stepid = guide.steps[0].stepid;
    let res = await put(operator.token, entry.entryid, {
      fields: {
        [ids.Serial]: 1234,
        [ids.Remarks]: 'fine',
        [ids.Depth]: '2.50',
        [ids['Guard on']]: true,
        [ids.Coolant]: 'oil',
        [ids.Bit]: '8mm',
        [ids['Checked on']]: '2026-05-04',
        [ids.Photo]: imageid,
      },
      stepid,
    });
    expect(res.statusCode).toBe(200);
    const byLabel = (body: WorkLogEntryDto) => Object.fromEntries(body.work_data.map((d) => [d.label, d.value]));
    expect(byLabel(res.json())).toEqual({
      Serial: '1234',
      Remarks: 'fine',
      Depth: '2.5',
      'Guard on': '1',
      Coolant: 'oil',
      Bit: '8mm',
      'Checked on': '2026-05-04',
      Photo: String(imageid),
    });
    expect(res.json()).toMatchObject({ current_stepid: stepid, timingid: expect.any(Number) });
    const timingid = res.json().timingid;
    clock.advance(1_000);
    res = await put(operator.token, entry.entryid, {
      fields: { [ids['Guard on']]: '0', [ids.Depth]: -1 },
      lasttimingid: timingid,
    });
    expect(res.statusCode).toBe(200);
    expect(byLabel(res.json())).toMatchObject({ 'Guard on': '0', Depth: '-1' });
    expect(res.json().work_data.find((d: { label: string }) => d.label === 'Depth').date).toBe(clock.nowSeconds());
    const rows = await t.app
      .get(DataSource)
      .query('SELECT value FROM work_log_data WHERE entryid = ? AND field_revisionid = ? ORDER BY dataid', [
        entry.entryid,
        Number(ids.Depth),
      ]);
    expect(rows.map((r: { value: string }) => r.value)).toEqual(['2.5', '-1']);
    const audit = await t.app
      .get(AuditReader)
      .list({ entity_type: 'work_log_entry', entity_id: String(entry.entryid), order: 'ASC', offset: 0, limit: 10 });
    expect(audit.map((r) => r.action)).toEqual(['work_log.start', 'work_log.record', 'work_log.record']);
    expect(audit[2].after).toEqual({
      values: [
        { field_revisionid: Number(ids.Depth), field_guid: form.fields[2].field_guid, value: '-1' },
        { field_revisionid: Number(ids['Guard on']), field_guid: form.fields[3].field_guid, value: '0' },
      ],
    });
    await settle(t);
    // The event carries what was recorded (the first write also moved the entry to its step), not the entry.
    const events = recorded.filter((p) => p.entryid === entry.entryid);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ guideid: guide.guideid, userid: operator.user.userid, stepid, timingid });
    expect(events[0].values).toHaveLength(8);
    expect(events[1]).toEqual({
      entryid: entry.entryid,
      guideid: guide.guideid,
      userid: operator.user.userid,
      date: clock.nowSeconds(),
      values: [
        { field_revisionid: Number(ids.Depth), field_guid: form.fields[2].field_guid, stepid, value: '-1' },
        { field_revisionid: Number(ids['Guard on']), field_guid: form.fields[3].field_guid, stepid, value: '0' },
      ],
    });
  });

  it('an image that is not in the caller’s media manager is 422', async () => {
    const upload = await uploadImage(t, stranger.token, await solidImage(64, 64));
    const entry = await start('S-4');
    const res = await put(operator.token, entry.entryid, { fields: { [ids.Photo]: upload.json().image.id } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([{ message: 'Not in your media manager', field: `fields.${ids.Photo}` }]);
  });

  it('409 with the entry when not started or when lasttimingid is stale; stepid moves the timing', async () => {
    const entry = await start('S-5');
    const [step1, step2] = guide.steps.map((s) => s.stepid);
    const first = (await put(operator.token, entry.entryid, { fields: { [ids.Serial]: 'a' }, stepid: step1 })).json();
    clock.advance(30_000);
    const moved = (
      await put(operator.token, entry.entryid, {
        fields: { [ids.Serial]: 'b' },
        stepid: step2,
        lasttimingid: first.timingid,
      })
    ).json();
    expect(moved.timings).toEqual([
      {
        timingid: first.timingid,
        stepid: step1,
        date_start: first.timings[0].date_start,
        date_end: clock.nowSeconds(),
      },
      { timingid: moved.timingid, stepid: step2, date_start: clock.nowSeconds(), date_end: null },
    ]);
    const stale = await put(operator.token, entry.entryid, {
      fields: { [ids.Serial]: 'c' },
      lasttimingid: first.timingid,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ entryid: entry.entryid, timingid: moved.timingid });
    await t.as(operator.token, { method: 'POST', url: api(`/work_log/${entry.entryid}/pause`) });
    const paused = await put(operator.token, entry.entryid, { fields: { [ids.Serial]: 'd' } });
    expect(paused.statusCode).toBe(409);
    expect(paused.json()).toMatchObject({ entryid: entry.entryid, status: 'paused' });
    expect(paused.json().work_data.find((d: { label: string }) => d.label === 'Serial').value).toBe('b');
  });

  it('two devices sending stepData for one entry at the same moment lose no value', async () => {
    const entry = await start('S-6');
    const devices = await Promise.all([
      put(operator.token, entry.entryid, { fields: { [ids.Serial]: 'device-1', [ids.Depth]: 1 } }),
      put(operator.token, entry.entryid, { fields: { [ids.Remarks]: 'device-2', [ids.Depth]: 2 } }),
      put(operator.token, entry.entryid, { fields: { [ids.Coolant]: 'water', [ids.Bit]: '6mm' } }),
      put(operator.token, entry.entryid, { fields: { [ids['Checked on']]: '2026-05-05' } }),
    ]);
    expect(devices.map((d) => d.statusCode)).toEqual([200, 200, 200, 200]);
    const rows = await t.app
      .get(DataSource)
      .query('SELECT field_revisionid, value FROM work_log_data WHERE entryid = ? ORDER BY dataid', [entry.entryid]);
    expect(rows.map((r: { value: string }) => r.value).sort()).toEqual(
      ['device-1', '1', 'device-2', '2', 'water', '6mm', '2026-05-05'].sort(),
    );
    const final = (await t.as(operator.token, { method: 'GET', url: api(`/work_log/${entry.entryid}`) })).json();
    expect(final.work_data.map((d: { label: string }) => d.label).sort()).toEqual(
      ['Serial', 'Remarks', 'Depth', 'Coolant', 'Bit', 'Checked on'].sort(),
    );
    const audit = await t.app
      .get(AuditReader)
      .list({ entity_type: 'work_log_entry', entity_id: String(entry.entryid), order: 'ASC', offset: 0, limit: 10 });
    expect(audit.filter((r) => r.action === 'work_log.record')).toHaveLength(4);
  });
});
