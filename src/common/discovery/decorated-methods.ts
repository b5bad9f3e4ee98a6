import type { DiscoveryService, MetadataScanner } from '@nestjs/core';

/** A provider's method found by its decorator's metadata, bound to the provider's instance. */
export interface DecoratedMethod<T> {
  /** What the decorators on the method said, once per decorator. */
  options: T[];
  handler: (...args: never[]) => unknown;
  /** `Class.method`, for messages. */
  name: string;
}

/**
 * Adds `options` to the list kept under `key` on the decorated method (a method may carry the decorator more
 * than once). The platform's registries find them with decoratedMethods.
 */
export function appendMethodMetadata<T>(key: string, options: T): MethodDecorator {
  return (_target, _property, descriptor) => {
    const method = descriptor.value as object;
    const list = (Reflect.getMetadata(key, method) as T[] | undefined) ?? [];
    Reflect.defineMetadata(key, [...list, options], method);
  };
}

/**
 * Every method of the application's providers that carries metadata under `key` (appendMethodMetadata): how
 * modules hand event subscribers and demo seed steps to the platform through Nest's discovery instead of
 * registration calls at start-up. Request-scoped providers have no instance to call and are not searched.
 */
export function decoratedMethods<T>(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
  key: string,
): DecoratedMethod<T>[] {
  const found: DecoratedMethod<T>[] = [];
  const seen = new Set<object>();
  for (const wrapper of discovery.getProviders()) {
    const instance = wrapper.instance as Record<string, unknown> | undefined;
    if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic() || seen.has(instance)) continue;
    seen.add(instance);
    const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
    for (const method of scanner.getAllMethodNames(prototype)) {
      const options = Reflect.getMetadata(key, prototype[method] as object) as T[] | undefined;
      if (!options) continue;
      const handler = (prototype[method] as (...args: never[]) => unknown).bind(instance);
      found.push({ options, handler, name: `${instance.constructor.name}.${method}` });
    }
  }
  return found;
}
