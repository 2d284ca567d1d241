import {
  type ArgumentsHost,
  Catch,
  Controller,
  type ExceptionFilter,
  Get,
  type INestApplication,
  Post,
  UseGuards,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  type ApiPrincipal,
  type ApiTokenService,
  type SqlClient,
  createApiTokenService,
  createPgSqlClient,
  generateTokenValue,
  runMigrations,
} from '@vigil/control-plane';
import type { Response } from 'express';
import request from 'supertest';
import { ApiAuthModule } from './api-auth.module';
import { ApiTokenGuard } from './api-token.guard';
import { AuthError } from './auth-error';
import { ApiTokenAuth, CurrentPrincipal, RequireScope, ScopeGuard } from './require-scope';

@Controller('api-key/v1')
class DummyController {
  @Get('detections/:id')
  @UseGuards(ApiTokenGuard, ScopeGuard)
  @RequireScope('detection', 'read')
  read(@CurrentPrincipal() principal: ApiPrincipal): { tokenId: string } {
    return { tokenId: principal.tokenId };
  }

  @Post('ingest')
  @ApiTokenAuth('detection', 'write')
  write(): { accepted: true } {
    return { accepted: true };
  }
}

/** What the API's global filter does with an AuthError: its status, headers and body. */
@Catch(AuthError)
class AuthErrorFilter implements ExceptionFilter {
  catch(error: AuthError, host: ArgumentsHost): void {
    host
      .switchToHttp()
      .getResponse<Response>()
      .status(error.getStatus())
      .set(error.headers)
      .json(error.getResponse());
  }
}

async function startApp(tokens: ApiTokenService): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [ApiAuthModule.forRootAsync({ useFactory: () => tokens })],
    controllers: [DummyController],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  app.useGlobalFilters(new AuthErrorFilter());
  await app.init();
  return app;
}

describe('API token authentication over HTTP', () => {
  let sql: SqlClient;
  let tokens: ApiTokenService;
  let app: INestApplication;

  beforeAll(async () => {
    sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
    await runMigrations(sql);
    tokens = createApiTokenService(sql);
    app = await startApp(tokens);
  });
  afterAll(async () => {
    await app.close();
    await tokens.drain();
    await sql.close();
  });

  const get = (authorization?: string) => {
    const req = request(app.getHttpServer()).get('/api-key/v1/detections/d-1');
    return authorization === undefined ? req : req.set('Authorization', authorization);
  };
  const tokenWith = async (permissions: Record<string, string>) =>
    (await tokens.createToken({ name: 'http test', permissions })).value;

  it('answers 200 with the principal for a token with the scope', async () => {
    const { token, value } = await tokens.createToken({
      name: 'reader',
      permissions: { detection: 'read' },
    });
    const response = await get(`Bearer ${value}`).expect(200);
    expect(response.body).toEqual({ tokenId: token.id });
  });

  it('answers 401 missing_token without a usable Authorization header', async () => {
    for (const header of [
      undefined,
      'Basic dXNlcjpwYXNz',
      'Bearer',
      `Bearer  ${generateTokenValue()}`,
    ]) {
      const response = await get(header).expect(401);
      expect(response.body.error.code).toBe('missing_token');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="vigil"');
    }
  });

  it('never accepts a token from the query string', async () => {
    const value = await tokenWith({ detection: 'read' });
    const response = await request(app.getHttpServer())
      .get(`/api-key/v1/detections/d-1?access_token=${value}`)
      .expect(401);
    expect(response.body.error.code).toBe('missing_token');
  });

  it('answers 401 invalid_token for a malformed or unknown token', async () => {
    for (const value of ['abc', generateTokenValue()]) {
      const response = await get(`Bearer ${value}`).expect(401);
      expect(response.body).toEqual({
        error: { code: 'invalid_token', message: 'The API token is not valid', details: {} },
      });
      expect(response.headers['www-authenticate']).toMatch(
        /^Bearer realm="vigil", error="invalid_token"/,
      );
    }
  });

  it('answers 401 token_expired for a token past its Expires At', async () => {
    const past = createApiTokenService(sql, { clock: () => new Date(Date.now() - 2 * 86_400_000) });
    const { value } = await past.createToken({
      name: 'old',
      permissions: { detection: 'read' },
      expiresInDays: 1,
    });
    const response = await get(`Bearer ${value}`).expect(401);
    expect(response.body.error.code).toBe('token_expired');
    expect(response.headers['www-authenticate']).toMatch(/error="invalid_token"/);
  });

  it('answers 401 invalid_token on the first request after the token is deleted', async () => {
    const { token, value } = await tokens.createToken({
      name: 'doomed',
      permissions: { detection: 'read' },
    });
    await get(`Bearer ${value}`).expect(200);
    await tokens.deleteToken(token.id);
    const response = await get(`Bearer ${value}`).expect(401);
    expect(response.body.error.code).toBe('invalid_token');
  });

  it('answers 403 insufficient_scope naming the scope and level needed', async () => {
    const value = await tokenWith({ risk: 'write', detection: 'none' });
    const response = await get(`Bearer ${value}`).expect(403);
    expect(response.body.error).toEqual({
      code: 'insufficient_scope',
      message: 'This request needs the Detection scope at Read-only or above',
      details: { scope: 'detection', level: 'read' },
    });
    expect(response.headers['www-authenticate']).toBe(
      'Bearer realm="vigil", error="insufficient_scope", scope="detection:read"',
    );
  });

  it('lets Admin read-only read every scope but not write', async () => {
    const value = await tokenWith({ admin: 'read' });
    await get(`Bearer ${value}`).expect(200);
    const response = await request(app.getHttpServer())
      .post('/api-key/v1/ingest')
      .set('Authorization', `Bearer ${value}`)
      .expect(403);
    expect(response.body.error.details).toEqual({ scope: 'detection', level: 'write' });
  });

  it('lets Detection read and write reach the write endpoint', async () => {
    const value = await tokenWith({ detection: 'write' });
    await request(app.getHttpServer())
      .post('/api-key/v1/ingest')
      .set('Authorization', `Bearer ${value}`)
      .expect(201, { accepted: true });
  });
});

describe('API token authentication when PostgreSQL is unreachable', () => {
  let sql: SqlClient;
  let app: INestApplication;

  beforeAll(async () => {
    sql = createPgSqlClient('postgres://postgres@127.0.0.1:1/vigil', 1, {
      connectionTimeoutMillis: 1000,
    });
    app = await startApp(createApiTokenService(sql));
  });
  afterAll(async () => {
    await app.close();
    await sql.close();
  });

  it('fails closed with 503 backend_unavailable for a well-formed token', async () => {
    const response = await request(app.getHttpServer())
      .get('/api-key/v1/detections/d-1')
      .set('Authorization', `Bearer ${generateTokenValue()}`)
      .expect(503);
    expect(response.body.error.code).toBe('backend_unavailable');
    expect(response.headers['retry-after']).toBe('5');
  });

  it('still rejects a malformed token as invalid without the database', async () => {
    const response = await request(app.getHttpServer())
      .get('/api-key/v1/detections/d-1')
      .set('Authorization', 'Bearer vgk1-typo')
      .expect(401);
    expect(response.body.error.code).toBe('invalid_token');
  });
});
