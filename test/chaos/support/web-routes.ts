import { RequestMethod } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AdminActionGuard } from '../../../apps/web/src/security/admin-action.guard';
import { WebModule, type WebDependencies } from '../../../apps/web/src/web.module';

export interface WebRoute {
  readonly method: string;
  /** Express-style path, e.g. `/settings/integrations/:id/delete`. */
  readonly path: string;
  /** Whether an AdminActionGuard protects it (on the handler or its controller). */
  readonly adminOnly: boolean;
}

function joinPath(...parts: (string | string[] | undefined)[]): string {
  const segments = parts
    .flatMap((p) => (Array.isArray(p) ? p.slice(0, 1) : [p]))
    .filter((p): p is string => p !== undefined && p !== '' && p !== '/')
    .map((p) => p.replace(/^\/+|\/+$/g, ''));
  return `/${segments.join('/')}`;
}

function guardsOf(target: object): unknown[] {
  return (Reflect.getMetadata(GUARDS_METADATA, target) as unknown[] | undefined) ?? [];
}

/**
 * Every route of the web application, read from its controllers' metadata, so a route added
 * later is covered by the tests that walk this list without anyone listing it.
 */
export function webRoutes(): WebRoute[] {
  const controllers = WebModule.register({} as WebDependencies).controllers ?? [];
  const routes: WebRoute[] = [];
  for (const controller of controllers) {
    const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
    const classAdmin = guardsOf(controller).some((g) => g instanceof AdminActionGuard);
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor') continue;
      const handler = proto[name];
      if (typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (method === undefined || path === undefined) continue;
      routes.push({
        method: RequestMethod[method],
        path: joinPath(prefix, path),
        adminOnly: classAdmin || guardsOf(handler).some((g) => g instanceof AdminActionGuard),
      });
    }
  }
  return routes;
}

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'ALL']);
