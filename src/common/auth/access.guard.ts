import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { requestContext } from '../context/request-context';
import { ApiException, InsufficientPrivilegesException, unauthorized } from '../http/api-errors';
import { assertBodyAccepted } from '../http/body-parser';
import { AUTH_RULE, type AuthRule, type RequestWithUser } from './auth-rule.decorators';
import { hasPrivilege, privilegesAtLeast } from './privileges';

export const API_TOKEN_STRATEGY = 'api-token';

const PassportApiToken = AuthGuard(API_TOKEN_STRATEGY);

/**
 * Global, deny-by-default: a route without @Public() or @Authenticated() is refused. A token, when
 * sent, is verified by the passport strategy on every route.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger(AccessGuard.name);
  private readonly passport = new PassportApiToken();

  constructor(private readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AuthRule | undefined>(AUTH_RULE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!rule) {
      this.logger.error(`Route ${context.getClass().name}.${context.getHandler().name} declares no access rule`);
      throw new ApiException(403, 'This route is not available');
    }
    const request = context.switchToHttp().getRequest<RequestWithUser>();
    if (rule.kind === 'operatorToken') return this.passed(request);
    if (request.headers.authorization !== undefined) {
      await this.passport.canActivate(context);
    }
    const user = request.user;
    const current = requestContext.current();
    if (current && user) current.actor = user;
    if (rule.kind === 'public') return this.passed(request);
    if (!user) throw unauthorized();
    if (!hasPrivilege(user.privileges, rule.privilege)) {
      throw new InsufficientPrivilegesException(privilegesAtLeast(rule.privilege));
    }
    return this.passed(request);
  }

  /** The caller may call the route: only now is a body the parser refused answered (400, 413). */
  private passed(request: RequestWithUser): true {
    assertBodyAccepted(request);
    return true;
  }
}
