import { Controller, Get, NotFoundException, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { findAsset } from './assets/assets';

@Controller('assets')
export class AssetsController {
  @Get(':file')
  serve(@Req() req: Request, @Res() res: Response): void {
    const asset = findAsset(req.path);
    if (asset === undefined) throw new NotFoundException('No such asset');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.type(asset.contentType).send(asset.body);
  }
}
