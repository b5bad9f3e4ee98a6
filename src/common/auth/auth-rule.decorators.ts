import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { ErrorBodyDto } from '../openapi/api-error-responses';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from './authenticated-user';
import type { Privilege } from './privileges';

export const AUTH_RULE = 'auth:rule';

export type AuthRule = { kind: 'public' } | { kind: 'authenticated'; privilege: Privilege } | { kind: 'operatorToken' };

/**
 * Anyone may call the route. A valid token is still read (responses may depend on the caller); an
 * invalid or revoked one is a 401 so that clients notice.
 */
export const Public = () => SetMetadata(AUTH_RULE, { kind: 'public' } satisfies AuthRule);

/**
 * An operations route outside the API (e.g. /metrics) that checks its own credential, a setting's bearer
 * token, and refuses everything without it. API tokens are not read there.
 */
export const OperatorToken = () => SetMetadata(AUTH_RULE, { kind: 'operatorToken' } satisfies AuthRule);

/** The caller must be logged in and hold at least `privilege` (default: any account). */
export function Authenticated(privilege: Privilege = 'User') {
  return applyDecorators(
    SetMetadata(AUTH_RULE, { kind: 'authenticated', privilege } satisfies AuthRule),
    ApiSecurity('apiToken'),
    ApiResponse({ status: 401, description: 'No valid `Authorization: api <token>` header.', type: ErrorBodyDto }),
    ...(privilege === 'User'
      ? []
      : [
          ApiResponse({
            status: 403,
            description: `Requires the ${privilege} privilege or higher.`,
            type: ErrorBodyDto,
          }),
        ]),
  );
}

export type RequestWithUser = FastifyRequest & { user?: AuthenticatedUser };

/** The authenticated caller, or undefined on a public route called anonymously. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser | undefined =>
    context.switchToHttp().getRequest<RequestWithUser>().user,
);
