import { Module, type DynamicModule } from '@nestjs/common';

/** Makes a service's validated configuration object injectable app-wide under `token`. */
@Module({})
export class AppConfigModule {
  static forRoot(token: symbol, config: object): DynamicModule {
    return {
      module: AppConfigModule,
      global: true,
      providers: [{ provide: token, useValue: config }],
      exports: [token],
    };
  }
}
