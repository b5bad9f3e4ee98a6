import { fixture, tempMediaDir } from '../factories/media.factory';
import { WikiTextService } from '../../src/modules/wikitext/wikitext.service';
import { addStep, createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;

describe('guides: documents, team grants, author by Admin', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  let member: CreatedUser;
  beforeAll(async () => {
    t = await createTestApp({ env: { MEDIA_DIR: tempMediaDir() } });
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    member = await createUser(t);
    await createCategory(t, admin.user, 'Dishwasher');
  });
  afterAll(() => t.close());

  const uploadDocument = async (token: string) => {
    const res = await t.as(token, {
      method: 'POST',
      url: api('/user/media/documents?file=manual.docx'),
      payload: fixture('report.docx'),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ documentid: number }>().documentid;
  };

  it("attaches documents from the author's media manager and features one; others' documents are refused", async () => {
    const mine = await uploadDocument(author.token);
    const foreign = await uploadDocument(member.token);
    const refused = await t.as(author.token, {
      method: 'POST',
      url: api('/guides'),
      payload: { category: 'Dishwasher', type: 'repair', documents: [mine, foreign] },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0].field).toBe('documents');
    const created = await t.as(author.token, {
      method: 'POST',
      url: api('/guides'),
      payload: { category: 'Dishwasher', type: 'repair', documents: [mine], featured_documentid: mine },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body.documents.map((d: { documentid: number }) => d.documentid)).toEqual([mine]);
    expect(body.featured_documentid).toBe(mine);
    const read = await t.inject({ method: 'GET', url: api(`/guides/${body.guideid}`) });
    expect(read.statusCode).toBe(404); // new guides are private until published
    const own = await t.as(author.token, { method: 'GET', url: api(`/guides/${body.guideid}`) });
    expect(own.json().documents).toEqual(body.documents);
  });

  it("lets a granted team's members read and edit a private guide, until the grant is revoked", async () => {
    const team = (
      await t.as(admin.token, { method: 'POST', url: api('/teams'), payload: { name: 'Line 3 crew' } })
    ).json<{ teamid: number }>();
    await t.as(admin.token, { method: 'PUT', url: api(`/teams/${team.teamid}/users/${member.user.userid}`) });
    const guide = await createGuide(t, author.user, { category: 'Dishwasher', type: 'repair' });
    const detail = () => t.as(member.token, { method: 'GET', url: api(`/guides/${guide.guideid}`) });
    expect((await detail()).statusCode).toBe(404);
    expect(
      (await t.as(member.token, { method: 'PUT', url: api(`/guides/${guide.guideid}/teams/${team.teamid}`) }))
        .statusCode,
    ).toBe(404);
    const granted = await t.as(author.token, {
      method: 'PUT',
      url: api(`/guides/${guide.guideid}/teams/${team.teamid}`),
    });
    expect(granted.statusCode).toBeLessThan(300);
    const teams = await t.as(author.token, { method: 'GET', url: api(`/guides/${guide.guideid}/teams`) });
    expect(teams.json()).toMatchObject({
      canIEditGuide: true,
      guideTeams: [{ teamid: team.teamid, name: 'Line 3 crew' }],
    });
    const asMember = await detail();
    expect(asMember.statusCode).toBe(200);
    expect(asMember.json().can_edit).toBe(true);
    const edit = await t.as(member.token, {
      method: 'PATCH',
      url: api(`/guides/${guide.guideid}?revisionid=${asMember.json().head_revisionid}`),
      payload: { summary: 'Edited by the crew' },
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().summary).toBe('Edited by the crew');
    expect(
      (await t.as(author.token, { method: 'DELETE', url: api(`/guides/${guide.guideid}/teams/${team.teamid}`) }))
        .statusCode,
    ).toBeLessThan(300);
    expect((await detail()).statusCode).toBe(404);
  });

  it('lets only an Admin set the author, on create and on edit', async () => {
    const denied = await t.as(author.token, {
      method: 'POST',
      url: api('/guides'),
      payload: { category: 'Dishwasher', type: 'repair', author: member.user.userid },
    });
    expect(denied.statusCode).toBe(403);
    const created = await t.as(admin.token, {
      method: 'POST',
      url: api('/guides'),
      payload: { category: 'Dishwasher', type: 'repair', author: author.user.userid },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      userid: author.user.userid,
      author: expect.objectContaining({ userid: author.user.userid }),
    });
    const moved = await t.as(admin.token, {
      method: 'PATCH',
      url: api(`/guides/${created.json().guideid}?revisionid=${created.json().head_revisionid}`),
      payload: { author: member.user.userid },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().userid).toBe(member.user.userid);
    // the new author may edit the guide, but not hand it on
    const byAuthor = await t.as(member.token, {
      method: 'PATCH',
      url: api(`/guides/${created.json().guideid}?revisionid=${moved.json().head_revisionid}`),
      payload: { author: author.user.userid },
    });
    expect(byAuthor.statusCode).toBe(403);
  });

  it('an edit renders only what changed: unchanged steps come from the edited revision’s document', async () => {
    const guide = await createGuide(t, author.user, { category: 'Dishwasher', public: true });
    for (let i = 0; i < 3; i += 1) await addStep(t, author.user, guide.guideid, { title: `Step ${i}` });
    const before = (await t.inject({ method: 'GET', url: api(`/guides/${guide.guideid}`) })).json();
    const renderMany = jest.spyOn(t.app.get(WikiTextService), 'renderMany');
    try {
      const edited = await t.as(author.token, {
        method: 'PATCH',
        url: api(`/guides/${guide.guideid}?revisionid=${before.head_revisionid}`),
        payload: { introduction: "Now with '''bold'''." },
      });
      expect(edited.statusCode).toBe(200);
      expect(renderMany.mock.calls.reduce((sum, [texts]) => sum + texts.length, 0)).toBe(2);
      expect(edited.json().introduction_rendered).toContain('<strong>bold</strong>');
      expect(edited.json().steps).toEqual(before.steps);
      renderMany.mockClear();
      const step = before.steps[1];
      const stepEdit = await t.as(author.token, {
        method: 'PATCH',
        url: api(`/guides/${guide.guideid}/steps/${step.stepid}?revisionid=${step.revisionid}`),
        payload: { lines: [{ text: "''Changed''", bullet: 'red', level: 0 }] },
      });
      expect(stepEdit.statusCode).toBe(200);
      const after = (await t.inject({ method: 'GET', url: api(`/guides/${guide.guideid}`) })).json();
      expect(after.steps.map((s: { orderby: number }) => s.orderby)).toEqual([1, 2, 3]);
      expect(after.steps[1].lines[0].text_rendered).toBe('<p><em>Changed</em></p>');
      expect(after.steps[0]).toEqual(before.steps[0]);
      expect(after.steps[2]).toEqual(before.steps[2]);
    } finally {
      renderMany.mockRestore();
    }
  });
});
