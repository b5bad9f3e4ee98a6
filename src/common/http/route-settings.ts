import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';

/**
 * Adds settings to the route's Fastify config, keeping what other decorators put there (Nest's RouteConfig
 * replaces the whole config, so two of them on one route would lose one).
 */
export function RouteSettings(settings: Record<string, unknown>): MethodDecorator {
  return (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const existing = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as Record<string, unknown>;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, ...settings }, handler);
    return descriptor;
  };
}
