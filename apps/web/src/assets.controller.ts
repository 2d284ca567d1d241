import { Controller, Get, NotFoundException, Req } from '@nestjs/common';
import type { Request } from 'express';
import { findAsset } from './assets/assets';
import { AssetResult, type WebResult } from './responses/web-result';

@Controller('assets')
export class AssetsController {
  @Get(':file')
  serve(@Req() req: Request): WebResult {
    const asset = findAsset(req.path);
    if (asset === undefined) throw new NotFoundException('No such asset');
    // The content hash is in the path: browsers may keep an asset for good.
    return new AssetResult(asset.contentType, asset.body).withHeader(
      'Cache-Control',
      'public, max-age=31536000, immutable',
    );
  }
}
