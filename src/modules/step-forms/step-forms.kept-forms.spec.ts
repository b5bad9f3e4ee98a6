import type { ContentVersions } from '../../platform/versions/content-versions';
import type { StepFormFieldEntity } from './entities/step-form-field.entity';
import type { StepFormEntity } from './entities/step-form.entity';
import type { StepFormsRepository, Versioned } from './step-forms.repository';
import { StepFormsService } from './step-forms.service';

/**
 * Which token kept forms are kept under when the check and the two building statements read different
 * replicas (the e2e spec covers one database): the token both statements read, and nothing when they differ.
 */
describe('StepFormsService.formsAsOf: the token kept forms are kept under', () => {
  let checkToken: string | null;
  let formsToken: string | null;
  let fieldsToken: string | null;
  let builds: number;

  const form: StepFormEntity = {
    formRevisionid: 7,
    guideid: 1,
    stepid: 3,
    signoffTeamid: null,
    removed: false,
    userid: 1,
    date: 1,
  };
  const field = (label: string) =>
    ({
      fieldRevisionid: 9,
      formRevisionid: 7,
      guideid: 1,
      stepid: 3,
      orderby: 1,
      fieldGuid: 'g',
      label,
      fieldType: 'Text Input',
      required: false,
      placeholder: '',
      textarea: false,
      options: [],
      unit: null,
      minValue: null,
      maxValue: null,
    }) as StepFormFieldEntity;
  const repository = {
    formsOfGuide: (): Promise<Versioned<StepFormEntity[]>> => {
      builds += 1;
      return Promise.resolve({ value: [form], token: formsToken });
    },
    fieldsOfForms: (): Promise<Versioned<StepFormFieldEntity[]>> =>
      Promise.resolve({ value: [field(`Label ${fieldsToken}`)], token: fieldsToken }),
  } as unknown as StepFormsRepository;
  const versions = { read: () => Promise.resolve(checkToken) } as unknown as ContentVersions;
  const service = () => new StepFormsService(repository, undefined as never, versions);
  const label = async (s: StepFormsService) => (await s.formsAsOf(1, 7))[0].fields[0].label;

  beforeEach(() => {
    [checkToken, formsToken, fieldsToken, builds] = ['a', 'a', 'a', 0];
  });

  it('kept under the statements’ token and served while the check reads it', async () => {
    const s = service();
    checkToken = 'a';
    [formsToken, fieldsToken] = ['b', 'b']; // the check's replica lags behind the rows'
    expect(await label(s)).toBe('Label b');
    await s.formsAsOf(1, 7);
    expect(builds).toBe(2); // kept under b, the check still reads a
    checkToken = 'b';
    await s.formsAsOf(1, 7);
    expect(builds).toBe(2);
  });

  it('statements that read different tokens keep nothing', async () => {
    const s = service();
    fieldsToken = 'b';
    expect(await label(s)).toBe('Label b');
    await s.formsAsOf(1, 7);
    expect(builds).toBe(2);
  });

  it('no token, nothing kept; kept forms are frozen', async () => {
    const s = service();
    [checkToken, formsToken, fieldsToken] = [null, null, null];
    await s.formsAsOf(1, 7);
    await s.formsAsOf(1, 7);
    expect(builds).toBe(2);
    [checkToken, formsToken, fieldsToken] = ['a', 'a', 'a'];
    const kept = await s.formsAsOf(1, 7);
    expect(await s.formsAsOf(1, 7)).toBe(kept);
    expect(builds).toBe(3);
    expect(Object.isFrozen(kept[0].fields[0])).toBe(true);
  });
});
