import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = '/api/2.0';

/** Every route with a boolean query parameter, and that parameter. */
const ROUTES: [path: string, parameter: string][] = [
  ['/guides?', 'includePrivate'],
  ['/users?', 'enabled'],
  ['/users?', 'banned'],
  ['/users/search/user?', 'uniqueOnly'],
  ['/wikis/CATEGORY?display=hierarchy&', 'requireGuides'],
  ['/wikis/CATEGORY?display=hierarchy&', 'includeStubs'],
  ['/categories?', 'includeStubs'],
];

describe('boolean query parameters (what Python clients send)', () => {
  let t: TestApp;
  let admin: CreatedUser;

  const get = (url: string) => t.as(admin.token, { method: 'GET', url: `${api}${url}` });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    await createCategory(t, admin.user, 'Appliances');
    await createCategory(t, admin.user, 'Dishwasher', 'Appliances', { flags: ['WIKI_STUB'] });
  });
  afterAll(() => t.close());

  it.each(ROUTES)('%s%s takes true/false/1/0 in any case', async (path, parameter) => {
    const truthy = await get(`${path}${parameter}=true`);
    const falsy = await get(`${path}${parameter}=false`);
    expect(truthy.statusCode).toBe(200);
    expect(falsy.statusCode).toBe(200);
    for (const value of ['True', 'TRUE', 'tRuE', '1']) {
      const res = await get(`${path}${parameter}=${value}`);
      expect({ value, status: res.statusCode, body: res.body }).toEqual({ value, status: 200, body: truthy.body });
    }
    for (const value of ['False', 'FALSE', 'fAlSe', '0']) {
      const res = await get(`${path}${parameter}=${value}`);
      expect({ value, status: res.statusCode, body: res.body }).toEqual({ value, status: 200, body: falsy.body });
    }
  });

  it.each(ROUTES)('%s%s refuses anything else with 422', async (path, parameter) => {
    for (const value of ['yes', 'no', 'T', '2', 'truee', '']) {
      const res = await get(`${path}${parameter}=${value}`);
      const message = `${parameter} must be one of true, false, 1, 0 (in any case)`;
      expect({ value, status: res.statusCode, body: res.json() }).toEqual({
        value,
        status: 422,
        body: { error: true, message, errors: [{ message, field: parameter }] },
      });
    }
  });

  it('includeStubs=True shows the stub categories on both trees', async () => {
    const hierarchy = await get('/wikis/CATEGORY?display=hierarchy&includeStubs=True');
    expect(hierarchy.json().hierarchy).toEqual({ Appliances: { Dishwasher: null } });
    expect((await get('/categories?includeStubs=True')).json()).toEqual({ Appliances: { Dishwasher: null } });
    expect((await get('/categories?includeStubs=False')).json()).toEqual({ Appliances: null });
    expect((await get('/categories')).json()).toEqual({ Appliances: null });
  });
});
