import { DataSource } from 'typeorm';
import { MediaUsageEntity } from '../../src/modules/media/entities/media-usage.entity';
import { WikiTextService } from '../../src/modules/wikitext/wikitext.service';
import { WikisDemoSeed } from '../../src/modules/wikis/wikis-demo.seed';
import { WikisService } from '../../src/modules/wikis/wikis.service';
import { solidImage, tempMediaDir, uploadImage, fixture } from '../factories/media.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { asCaller, createCategory } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = '/api/2.0';

describe('WikisService (for the guides module) and media on wikis', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  let service: WikisService;

  beforeAll(async () => {
    t = await createTestApp({ env: { MEDIA_DIR: tempMediaDir() } });
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    service = t.app.get(WikisService);
    await createCategory(t, admin.user, 'iPhone', undefined, { display_title: 'Apple iPhone' });
    const gone = await createCategory(t, admin.user, 'Gone');
    await t.as(admin.token, { method: 'DELETE', url: `${api}/wikis/CATEGORY/Gone?revisionid=${gone.revisionid}` });
  });
  afterAll(() => t.close());

  it('categoriesExist: titles of live categories in any case, mapped to the stored spelling', async () => {
    expect(await service.categoriesExist(['iPhone', 'IPHONE', 'Gone', 'Nope'])).toEqual(
      new Map([
        ['iPhone', 'iPhone'],
        ['IPHONE', 'iPhone'],
      ]),
    );
  });

  it('categorySummaries', async () => {
    expect(await service.categorySummaries(['iPhone', 'Gone'])).toEqual(
      new Map([
        [
          'iphone',
          {
            wikiid: expect.any(Number),
            title: 'iPhone',
            display_title: 'Apple iPhone',
            url: 'http://guides.test/c/iPhone',
          },
        ],
      ]),
    );
  });

  it('ensureItems creates missing ITEM pages once and returns existing ones', async () => {
    const first = await service.ensureItems(
      [{ name: 'Spudger', summary: 'Pry tool', url: 'https://shop.test/spudger' }, { name: 'T5_Torx' }],
      asCaller(author.user),
    );
    expect([...first.keys()]).toEqual(['Spudger', 'T5_Torx']);
    expect(first.get('T5_Torx')).toEqual({
      wikiid: expect.any(Number),
      title: 'T5 Torx',
      url: 'http://guides.test/Item/T5_Torx',
    });
    const again = await service.ensureItems([{ name: 'Spudger' }], asCaller(admin.user));
    expect(again.get('Spudger')).toEqual(first.get('Spudger'));
    const detail = (await t.inject({ method: 'GET', url: `${api}/wikis/ITEM/Spudger` })).json();
    expect(detail).toMatchObject({
      author: author.user.userid,
      description: 'Pry tool',
      suppliers: [{ 'part_#': '', type: '', supplier: '', url: 'https://shop.test/spudger' }],
    });
  });

  it('registers the wiki-text loader: [wiki|…] references render as links to live wikis', async () => {
    const rendered = await t.app.get(WikiTextService).render('[wiki|CATEGORY|iPhone] and [wiki|CATEGORY|Gone|gone]');
    expect(rendered.rendered).toBe(
      '<p><a href="http://guides.test/c/iPhone" rel="nofollow noopener noreferrer">Apple iPhone</a> and gone</p>',
    );
  });

  it("attaches images (only the caller's own) and documents, records image usage, lists documents", async () => {
    const upload = await uploadImage(t, admin.token, await solidImage(800, 600));
    expect(upload.statusCode).toBe(200);
    const imageid = upload.json().image.id as number;
    const otherUpload = await uploadImage(t, author.token, await solidImage(400, 300));
    const otherImage = otherUpload.json().image.id as number;
    const doc = await t.as(admin.token, {
      method: 'POST',
      url: `${api}/user/media/documents?file=report.docx`,
      payload: fixture('report.docx'),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(doc.statusCode).toBe(200);
    const documentid = doc.json().documentid as number;

    const foreign = await t.as(admin.token, {
      method: 'POST',
      url: `${api}/wikis`,
      payload: { namespace: 'CATEGORY', title: 'Tablet', contents: '', image: otherImage },
    });
    expect(foreign.statusCode).toBe(403);
    // Media that does not exist: 404 with the error body (documented on the operation), and nothing written.
    for (const [field, missing] of [
      ['image', { image: 999_999 }],
      ['document', { documents: [{ documentid: 999_998 }] }],
    ] as const) {
      const absent = await t.as(admin.token, {
        method: 'POST',
        url: `${api}/wikis`,
        payload: { namespace: 'CATEGORY', title: 'Tablet', contents: '', ...missing },
      });
      expect([field, absent.statusCode, absent.json()]).toEqual([
        field,
        404,
        { error: true, message: field === 'image' ? 'Image 999999 not found' : 'Document 999998 not found' },
      ]);
    }
    expect((await t.inject({ method: 'GET', url: `${api}/wikis/CATEGORY/Tablet` })).statusCode).toBe(404);

    const res = await t.as(admin.token, {
      method: 'POST',
      url: `${api}/wikis`,
      payload: {
        namespace: 'CATEGORY',
        title: 'Tablet',
        contents: `[image|${otherImage}]`,
        image: imageid,
        documents: [{ documentid }],
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().image).toMatchObject({ id: imageid, original: expect.stringContaining('http://guides.test/') });
    expect(res.json().documents).toEqual([doc.json()]);
    const usage = await t.app.get(DataSource).getRepository(MediaUsageEntity).find();
    expect(usage.map((u) => u.imageid).sort()).toEqual([imageid, otherImage].sort());

    expect(
      (await t.inject({ method: 'GET', url: `${api}/wikis/CATEGORY/${res.json().wikiid}/documents` })).json(),
    ).toEqual([doc.json()]);
    const list = (await t.inject({ method: 'GET', url: `${api}/wikis/CATEGORY` })).json();
    expect(list.find((w: { title: string }) => w.title === 'Tablet').image).toEqual(res.json().image);
  });

  it('demo seed: a category tree a few levels deep, tools and a page in each namespace, through the services', async () => {
    await t.close();
    t = await createTestApp({ env: { MEDIA_DIR: tempMediaDir() } });
    await createUser(t, { privilege: 'Admin' });
    await t.app.get(WikisDemoSeed).run();
    const tree = (await t.inject({ method: 'GET', url: `${api}/categories` })).json();
    expect(tree.Electronics.Phone.iPhone).toEqual({ 'iPhone 6': null, 'iPhone 6s': null });
    expect(tree.Appliances).not.toHaveProperty('Dishwasher');
    for (const namespace of ['ITEM', 'INFO', 'WIKI', 'USER']) {
      expect(
        (await t.inject({ method: 'GET', url: `${api}/wikis/${namespace}?display=titles` })).json().length,
      ).toBeGreaterThan(0);
    }
    const de = (await t.inject({ method: 'GET', url: `${api}/wikis/CATEGORY?display=hierarchy&langid=de` })).json();
    expect(de.display_titles.Electronics).toBe('Elektronik');
    const identification = (
      await t.inject({ method: 'GET', url: `${api}/wikis/CATEGORY/iPhone_6/identification` })
    ).json();
    expect(identification.identification_raw).toContain('A1549');
  });
});
