import { readFileSync } from 'node:fs';
import { Server } from 'node:http';
import { join } from 'node:path';
import { IsIn, getMetadataStorage, validate } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { DataSource, EntityManager } from 'typeorm';
import { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver';
import { BetterSqlite3QueryRunner } from 'typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { MysqlQueryRunner } from 'typeorm/driver/mysql/MysqlQueryRunner';
import { QueryResult } from 'typeorm/query-runner/QueryResult';
import { memoizeValidationMetadata } from '../../common/validation/validation-metadata-cache';
/**
 * Every library internal the service patches or relies on (listed in README.md next to this file): the shape
 * each patch relies on, the patched behaviour in effect on a real connection, and the library versions the README
 * was checked against. A failure here after an upgrade means: read README.md, check the symbol, then update it.
 */

const README = readFileSync(join(__dirname, 'README.md'), 'utf8');
const LIBRARIES = ['typeorm', 'better-sqlite3', 'mysql2', 'class-validator'];

describe('library versions', () => {
  const checked = new Map(
    [...README.matchAll(/^\| ([a-z0-9-]+) +\| ([0-9][^ |]*) +\|$/gm)].map((m) => [m[1], m[2]] as const),
  );
  it.each(LIBRARIES)('%s is the version README.md was checked against', (library) => {
    const installed = (
      JSON.parse(readFileSync(join(__dirname, '../../../node_modules', library, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    expect(`${library} ${installed}`).toBe(`${library} ${checked.get(library)}`);
  });
});

/** The methods a patch replaces or calls, with the arity it was written against. */
describe('TypeORM: the methods the drivers replace or call', () => {
  const arity = (owner: object, name: string): number | string => {
    const member = (owner as Record<string, unknown>)[name];
    return typeof member === 'function' ? member.length : typeof member;
  };
  it.each([
    ['BetterSqlite3QueryRunner', 'query', 1, BetterSqlite3QueryRunner.prototype],
    ['BetterSqlite3QueryRunner', 'startTransaction', 1, BetterSqlite3QueryRunner.prototype],
    ['BetterSqlite3QueryRunner', 'commitTransaction', 0, BetterSqlite3QueryRunner.prototype],
    ['BetterSqlite3QueryRunner', 'rollbackTransaction', 0, BetterSqlite3QueryRunner.prototype],
    ['BetterSqlite3Driver', 'createQueryRunner', 1, BetterSqlite3Driver.prototype],
    ['BetterSqlite3Driver', 'escapeQueryWithParameters', 2, BetterSqlite3Driver.prototype],
    ['BetterSqlite3Driver', 'createParameter', 2, BetterSqlite3Driver.prototype],
    ['MysqlQueryRunner', 'query', 2, MysqlQueryRunner.prototype],
    ['MysqlQueryRunner', 'connect', 0, MysqlQueryRunner.prototype],
    ['MysqlQueryRunner', 'release', 0, MysqlQueryRunner.prototype],
    ['MysqlDriver', 'obtainMasterConnection', 0, MysqlDriver.prototype],
    ['MysqlDriver', 'obtainSlaveConnection', 0, MysqlDriver.prototype],
    ['DataSource', 'createQueryRunner', 0, DataSource.prototype],
    ['DataSource', 'destroy', 0, DataSource.prototype],
  ] as const)('%s.%s takes %d declared parameters', (_, name, expected, owner) => {
    expect(arity(owner, name)).toBe(expected);
  });

  it('DataSource.manager is an own, configurable property (replaced by a getter)', () => {
    const dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    const descriptor = Object.getOwnPropertyDescriptor(dataSource, 'manager');
    expect(descriptor?.configurable).toBe(true);
    expect(descriptor?.value).toBeInstanceOf(EntityManager);
  });

  it('QueryResult (deep import) is a class the drivers construct', () => {
    expect(new QueryResult().records).toEqual([]);
  });
});

describe('class-validator: the metadata storage the validation memo replaces and the OpenAPI polish reads', () => {
  class Probe {
    @IsIn(['a', 'b'])
    kind!: string;
  }
  const storage = getMetadataStorage();
  /** Private in the library's types: src/openapi/document-polish.ts reads it. */
  const byClass = () =>
    (storage as unknown as { validationMetadatas: Map<Function, ValidationMetadata[]> }).validationMetadatas;
  beforeAll(() => memoizeValidationMetadata());

  it('the storage methods keep their arity', () => {
    expect(storage.getTargetValidationMetadatas).toHaveLength(5);
    expect(storage.groupByPropertyName).toHaveLength(1);
    expect(storage.addValidationMetadata).toHaveLength(1);
  });

  it('validate() looks rules up through the storage object, once per call, and the memo answers the same array', async () => {
    const { getTargetValidationMetadatas: memoized, groupByPropertyName: grouping } = storage;
    const lookup = memoized.bind(storage);
    const group = grouping.bind(storage);
    const calls: string[] = [];
    storage.getTargetValidationMetadatas = (...args) => {
      calls.push('lookup');
      return lookup(...args);
    };
    storage.groupByPropertyName = (metadatas) => {
      calls.push('group');
      return group(metadatas);
    };
    try {
      expect(await validate(Object.assign(new Probe(), { kind: 'c' }))).toHaveLength(1);
    } finally {
      storage.getTargetValidationMetadatas = memoized;
      storage.groupByPropertyName = grouping;
    }
    expect(calls).toEqual(['lookup', 'group']);
    expect(storage.getTargetValidationMetadatas(Probe, '', false, false)).toBe(
      storage.getTargetValidationMetadatas(Probe, '', false, false),
    );
  });

  it('validationMetadatas is a Map by class holding @IsIn as name isIn with its list', () => {
    expect(byClass()).toBeInstanceOf(Map);
    const [rule] = byClass().get(Probe) ?? [];
    expect([rule?.name, rule?.propertyName, rule?.constraints?.[0]]).toEqual(['isIn', 'kind', ['a', 'b']]);
  });
});

describe('Node: the shutdown grace for idle connections', () => {
  it('server.close() calls the instance’s closeIdleConnections (shutdownApp replaces it for a while)', async () => {
    const server = new Server();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let called = 0;
    server.closeIdleConnections = () => void (called += 1);
    await new Promise((resolve) => server.close(resolve));
    expect(called).toBe(1);
  });
});
