import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { ListDisabledProviders } from '@vigil/workspace';
import { type WebRequest } from './web-request';

/**
 * For a signed-in admin, the providers disabled now, in `req.disabledProviders`: every page
 * warns about them. One query per admin request; members' requests make none.
 */
@Injectable()
export class DisabledProvidersMiddleware implements NestMiddleware {
  constructor(
    @Inject(ListDisabledProviders) private readonly listDisabled: ListDisabledProviders,
  ) {}

  async use(req: WebRequest, _res: Response, next: NextFunction): Promise<void> {
    if (req.auth?.user.role !== 'admin') return next();
    try {
      req.disabledProviders = await this.listDisabled.execute();
      next();
    } catch (error) {
      next(error);
    }
  }
}
