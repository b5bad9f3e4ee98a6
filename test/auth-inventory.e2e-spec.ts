import { RequestMethod } from '@nestjs/common';
import { PATH_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { AUTH_RULE } from '../src/common/auth/auth-rule.decorators';
import { createTestApp, type TestApp } from './utils/test-app';

/** Fails when any route of the real application declares neither @Public() nor @Authenticated(). */
describe('route access inventory', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('every route declares an access rule', () => {
    const controllers = [...t.app.get(ModulesContainer).values()].flatMap((m) => [...m.controllers.values()]);
    const scanner = new MetadataScanner();
    const reflector = t.app.get(Reflector);
    const routes: string[] = [];
    const undeclared: string[] = [];
    for (const wrapper of controllers) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = (prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const label = `${method} ${wrapper.name}.${name}`;
        routes.push(label);
        const rule = reflector.getAllAndOverride(AUTH_RULE, [handler, wrapper.metatype as Function]);
        if (!rule) undeclared.push(label);
      }
    }
    expect(routes.length).toBeGreaterThan(0);
    expect(undeclared).toEqual([]);
  });
});
