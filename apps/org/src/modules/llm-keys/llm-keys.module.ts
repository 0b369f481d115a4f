import { Module } from '@nestjs/common';
import { LlmKeysController } from './llm-keys.controller.js';
import { LlmKeysRepository } from './llm-keys.repository.js';
import { LlmKeysService } from './llm-keys.service.js';

@Module({
  controllers: [LlmKeysController],
  providers: [LlmKeysRepository, LlmKeysService],
  exports: [LlmKeysRepository],
})
export class LlmKeysModule {}
