import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Response } from 'express';
import { userActor, type AuditContext } from '@vigil/control-plane';
import { REQUEST_ID_HEADER } from '@vigil/http';
import { SignInRequiredException } from './web-exceptions';
import { type WebRequest } from './web-request';

/** Where a request came from: the client address and the request id of its log lines. */
function originOf(context: ExecutionContext): Omit<AuditContext, 'actor'> {
  const http = context.switchToHttp();
  const req = http.getRequest<WebRequest>();
  const requestId = http.getResponse<Response>().getHeader(REQUEST_ID_HEADER);
  return {
    address: req.ip ?? null,
    requestId: typeof requestId === 'string' ? requestId : null,
  };
}

/**
 * Who makes a change, for the audit log: the signed-in user, their address and the request id
 * (the one in the `x-request-id` header of the response). On guarded routes only.
 */
export const AuditedBy = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuditContext => {
    const req = context.switchToHttp().getRequest<WebRequest>();
    if (req.auth === undefined) throw new SignInRequiredException();
    return { ...originOf(context), actor: userActor(req.auth.user) };
  },
);

/** Where a request without a session came from (a one-time link's page), for the audit log. */
export const RequestOrigin = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Omit<AuditContext, 'actor'> => originOf(context),
);
