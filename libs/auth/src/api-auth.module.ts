import {
  type DynamicModule,
  type InjectionToken,
  Module,
  type ModuleMetadata,
} from '@nestjs/common';
import { ApiTokenGuard } from './api-token.guard';
import { ApiTokenStrategy } from './api-token.strategy';
import { ScopeGuard } from './require-scope';
import { TOKEN_AUTHENTICATOR, type TokenAuthenticator } from './token-authenticator';

export interface ApiAuthModuleAsyncOptions {
  readonly imports?: ModuleMetadata['imports'];
  readonly inject?: InjectionToken[];
  readonly useFactory: (...args: never[]) => TokenAuthenticator | Promise<TokenAuthenticator>;
}

const PROVIDERS = [ApiTokenStrategy, ApiTokenGuard, ScopeGuard];

/**
 * API token authentication for the API app: registers the `api-token` passport strategy over a
 * TokenAuthenticator (ApiTokenService) and provides ApiTokenGuard and ScopeGuard.
 */
@Module({})
export class ApiAuthModule {
  static forRoot(authenticator: TokenAuthenticator): DynamicModule {
    return {
      module: ApiAuthModule,
      providers: [{ provide: TOKEN_AUTHENTICATOR, useValue: authenticator }, ...PROVIDERS],
      exports: [TOKEN_AUTHENTICATOR, ApiTokenGuard, ScopeGuard],
    };
  }

  static forRootAsync(options: ApiAuthModuleAsyncOptions): DynamicModule {
    return {
      module: ApiAuthModule,
      imports: options.imports ?? [],
      providers: [
        {
          provide: TOKEN_AUTHENTICATOR,
          useFactory: options.useFactory as (...args: unknown[]) => Promise<TokenAuthenticator>,
          inject: options.inject ?? [],
        },
        ...PROVIDERS,
      ],
      exports: [TOKEN_AUTHENTICATOR, ApiTokenGuard, ScopeGuard],
    };
  }
}
